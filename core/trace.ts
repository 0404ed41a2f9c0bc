/**
 * The steps of an error trace as every engine reports them: the thread, its
 * transition and source position, the statements, and the values after the step.
 */
import { and, unprimed, varsOf, type Value } from '../solver/formula.js';
import type { SourcePos } from '../program/diagnostics.js';
import { effectAtoms, type Program, type Step, type Transition } from '../program/program.js';

export interface TraceStep {
  readonly thread: string;
  readonly transition: number;
  readonly pos: SourcePos;
  readonly steps: readonly Step[];
  /** Values after the step of the variables the transition mentions (C names for display; arrays printed with showValue). */
  readonly values: ReadonlyArray<readonly [string, Value]>;
}

/** A step's statements as the trace shows them (`; ` between them). */
export const stepText = (s: TraceStep): string => s.steps.map((x) => x.text).filter(Boolean).join('; ') || '(local steps)';

/** Where an error trace ends: the last statement of its last step (a step of several statements starts at its first). */
export function errorPos(trace: readonly TraceStep[]): SourcePos {
  const last = trace[trace.length - 1];
  return last.steps.at(-1)?.pos ?? last.pos;
}

/** The trace step of transition `t`, with the values after it of the variables it mentions. */
export function traceStep(p: Program, t: Transition, after: (v: string) => Value): TraceStep {
  const touched = varsOf(and(...effectAtoms(t)));
  const mentioned = [...new Set([...touched].filter((v) => p.vars.has(unprimed(v))).map(unprimed))];
  return {
    thread: p.threads[t.thread].name,
    transition: t.id,
    pos: t.pos,
    steps: t.steps,
    values: mentioned.filter((v) => ['user', 'ghost'].includes(p.vars.get(v)!.role)).map((v) => [v, after(v)] as const),
  };
}

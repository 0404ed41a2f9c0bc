/**
 * What a liveness check answers: the property holds, or a lasso — a stem
 * and a cycle of interleaved steps, the cycle returning to its first state — violates
 * it, or a reachable state deadlocks, or UNKNOWN with a reason. Every lasso and
 * deadlock run is replayed in the interpreter before it is reported
 * (engines/state-space/lasso.ts); this module holds the shapes and their trace steps.
 */
import type { Program, Transition } from '../program/program.js';
import { traceStep, type TraceStep } from './trace.js';

/** One step of a run: a transition of `thread`, or (no transition) its self-loop while it is blocked, or (thread -1) the last state repeated once every thread has ended. */
export interface RunStep {
  readonly thread: number;
  readonly transition?: Transition;
  readonly aux: ReadonlyMap<string, bigint>;
}

/** A run s_0 … s_m and its steps; a lasso's cycle is s_loopAt … s_m, with s_m = s_loopAt. */
export interface StepRun {
  readonly states: readonly ReadonlyMap<string, bigint>[];
  readonly steps: readonly RunStep[];
}

export interface ConcreteLasso extends StepRun {
  readonly loopAt: number;
}

interface Counted {
  readonly timeMs: number;
  /** States (or product states) explored, and by whom. */
  readonly states: number;
}

export type LivenessOutcome<S extends Counted = Counted> =
  /** `caveat`: what the proof leaves open (a deadlock the search could not rule out: the runs that stay in it still satisfy the property). */
  | { readonly verdict: 'holds'; readonly stats: S; readonly caveat?: string }
  | { readonly verdict: 'fails'; readonly lasso: ConcreteLasso; readonly stats: S }
  | { readonly verdict: 'deadlock'; readonly run: StepRun; readonly stats: S }
  | { readonly verdict: 'unknown'; readonly reason: string; readonly stats: S };

/** The trace step of a run's step m (a self-loop shows as the thread waiting where it is). */
export function runTraceStep(p: Program, run: StepRun, m: number): TraceStep {
  const st = run.steps[m];
  const after = run.states[m + 1];
  if (st.transition) return traceStep(p, st.transition, (v) => after.get(v)!);
  if (st.thread < 0) return { thread: '-', transition: -1, pos: { file: p.file, line: 0, col: 0 }, steps: [{ pos: { file: p.file, line: 0, col: 0 }, text: '(every thread has ended: the state repeats)' }], values: [] };
  const th = p.threads[st.thread];
  const pc = Number(after.get(th.pc));
  const pos = th.locations[pc]?.pos ?? th.transitions[0]?.pos ?? { file: p.file, line: 1, col: 1 };
  return { thread: th.name, transition: -1, pos, steps: [{ pos, text: '(cannot move: waits)' }], values: [] };
}

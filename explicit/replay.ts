/**
 * Replays a concrete run in the interpreter: every state and step is checked by
 * executing the IR formulas themselves (execute.ts's compiled terms), so a trace a
 * symbolic engine reports is accepted only if the program really runs it.
 */
import { isPrimed, unprimed } from '../solver/formula.js';
import { fullFormula, type Program, type Transition } from '../frontend/program.js';
import { compile } from './execute.js';
import { traceStep, type TraceStep } from './explore.js';

/** A concrete run: states s_0..s_k and the transitions between them (with their aux values). */
export interface Run {
  readonly states: readonly ReadonlyMap<string, bigint>[];
  readonly steps: readonly { readonly transition: Transition; readonly aux: ReadonlyMap<string, bigint> }[];
}

/**
 * Checks s_0 ⊨ φ_init, (s_{m-1}, s_m) ⊨ ρ_m for every step, and s_k ⊨ φ_err; returns
 * the trace, or the reason the run is not one of the program's.
 */
export function replay(p: Program, run: Run): { trace: TraceStep[] } | { failure: string } {
  const { states, steps } = run;
  if (states.length !== steps.length + 1) return { failure: 'a run needs one more state than steps' };
  const names = [...p.vars.keys()];
  const holds = (f: Parameters<typeof compile>[0], before: ReadonlyMap<string, bigint>, after?: ReadonlyMap<string, bigint>, aux?: ReadonlyMap<string, bigint>) => {
    const env: bigint[] = [];
    const slots = new Map<string, number>();
    const slot = (v: string): number => {
      let i = slots.get(v);
      if (i === undefined) {
        i = env.length;
        slots.set(v, i);
        const from = isPrimed(v) ? after : p.vars.has(v) ? before : aux;
        const x = from?.get(unprimed(v));
        if (x === undefined) throw new Error(`no value for ${v}`);
        env.push(x);
      }
      return i;
    };
    try {
      return compile(f, slot)(env) === true;
    } catch {
      return false;
    }
  };
  for (const s of states) if (names.some((v) => !s.has(v))) return { failure: 'a state lacks a variable' };
  if (!holds(p.init, states[0])) return { failure: 'the first state is not initial' };
  const trace: TraceStep[] = [];
  for (const [m, st] of steps.entries()) {
    if (!holds(fullFormula(p, st.transition), states[m], states[m + 1], st.aux))
      return { failure: `step ${m + 1} (t${st.transition.id}) is not a transition of the program` };
    trace.push(traceStep(p, st.transition, (v) => states[m + 1].get(v)!));
  }
  if (!holds(p.err, states[states.length - 1])) return { failure: 'the last state is not an error state' };
  return { trace };
}

/**
 * Replays a concrete run in the interpreter: every state and step is checked by
 * executing the IR formulas themselves (compile.ts), so a trace a
 * symbolic engine reports is accepted only if the program really runs it.
 */
import { isPrimed, unprimed, valuesEqual, type Term, type Value } from '../solver/formula.js';
import { fullFormula, type Program, type Transition } from '../program/program.js';
import { compile, type Env } from './compile.js';
import { traceStep, type TraceStep } from './trace.js';

/**
 * Whether `f` holds of the state `before` (and `after` for primed variables, `aux` for
 * a transition's helper values), executed by the interpreter; false when a variable
 * has no value.
 */
export function holdsIn(p: Program, f: Term, before: ReadonlyMap<string, Value>, after?: ReadonlyMap<string, Value>, aux?: ReadonlyMap<string, Value>): boolean {
  const env: Env = [];
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
}

/** A concrete run: states s_0..s_k and the transitions between them (with their aux values); the explicit engines' runs are `Run<bigint>`. */
export interface Run<V extends Value = Value> {
  readonly states: readonly ReadonlyMap<string, V>[];
  readonly steps: readonly { readonly transition: Transition; readonly aux: ReadonlyMap<string, V> }[];
}

/**
 * Checks s_0 ⊨ φ_init, (s_{m-1}, s_m) ⊨ ρ_m for every step (a pop: s_m is the frame
 * its thread pushed last, but for the callee's result), and s_k ⊨ φ_err; returns
 * the trace, or the reason the run is not one of the program's.
 */
export function replay(p: Program, run: Run): { trace: TraceStep[] } | { failure: string } {
  const { states, steps } = run;
  if (states.length !== steps.length + 1) return { failure: 'a run needs one more state than steps' };
  const names = [...p.vars.keys()];
  const holds = (f: Term, before: ReadonlyMap<string, Value>, after?: ReadonlyMap<string, Value>, aux?: ReadonlyMap<string, Value>): boolean => holdsIn(p, f, before, after, aux);
  for (const s of states) if (names.some((v) => !s.has(v))) return { failure: 'a state lacks a variable' };
  if (!holds(p.init, states[0])) return { failure: 'the first state is not initial' };
  const trace: TraceStep[] = [];
  // Kept calls: each thread's stack of frames (its locals at the call, pc at the return site).
  const stacks = p.threads.map(() => [] as Map<string, Value>[]);
  for (const [m, st] of steps.entries()) {
    const t = st.transition;
    const bad = { failure: `step ${m + 1} (t${t.id}) is not a transition of the program` };
    if (!holds(fullFormula(p, t), states[m], states[m + 1], st.aux)) return bad;
    const th = p.threads[t.thread];
    if (t.stack?.kind === 'push') {
      const frame = new Map(th.locals.map((v) => [v, states[m].get(v)!]));
      stacks[t.thread].push(frame.set(th.pc, BigInt(t.stack.returnPc)));
    } else if (t.stack?.kind === 'pop') {
      const frame = stacks[t.thread].pop();
      if (!frame) return { failure: `step ${m + 1} (t${t.id}) returns with an empty stack` };
      const keep = new Set(t.stack.keep);
      const expected = (v: string): Value => (keep.has(v) || !frame.has(v) ? states[m].get(v)! : frame.get(v)!);
      if (names.some((v) => !valuesEqual(states[m + 1].get(v)!, expected(v)))) return bad;
    }
    trace.push(traceStep(p, t, (v) => states[m + 1].get(v)!));
  }
  if (!holds(p.err, states[states.length - 1])) return { failure: 'the last state is not an error state' };
  return { trace };
}

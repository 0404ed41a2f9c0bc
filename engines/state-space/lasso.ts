/**
 * The interpreter's check of a liveness counterexample, whichever engine
 * found it: every state is the program's, every step a transition of it (executed on
 * the IR formulas) or a self-loop of a thread that cannot move, the cycle returns to
 * its first state, the automaton of the negated property accepts the lasso's word,
 * and the cycle is fair. A deadlock run is checked the same way up to its last state,
 * where no thread may move though one has not ended.
 */
import { fullFormula, type Program } from '../../program/program.js';
import { holdsIn } from '../../core/replay.js';
import { compile } from '../../core/compile.js';
import { acceptsLasso } from '../../core/buchi.js';
import type { ConcreteLasso, StepRun } from '../../core/lasso.js';
import type { LtlProperty } from '../../core/property.js';
import { deadlocked, globalMoves, type ThreadMoves } from './moves.js';

/** The atoms of `prop` that hold in each state of a run. */
export function lettersOf(p: Program, prop: LtlProperty, states: readonly ReadonlyMap<string, bigint>[]): Set<string>[] {
  const names = [...p.vars.keys()];
  const slot = (v: string): number => names.indexOf(v);
  const atoms = [...prop.atoms].map(([text, term]) => [text, compile(term, slot)] as const);
  return states.map((s) => {
    const env = names.map((v) => s.get(v)!);
    return new Set(atoms.filter(([, f]) => f(env) === true).map(([text]) => text));
  });
}

/** The reason `run` is not a run of the program, or undefined. */
function runFailure(p: Program, run: StepRun, moves: readonly ThreadMoves[], vec: (s: ReadonlyMap<string, bigint>) => bigint[]): string | undefined {
  const { states, steps } = run;
  const names = [...p.vars.keys()];
  if (states.length !== steps.length + 1) return 'a run needs one more state than steps';
  if (states.some((s) => names.some((v) => !s.has(v)))) return 'a state lacks a variable';
  if (!holdsIn(p, p.init, states[0])) return 'the first state is not initial';
  for (const [m, st] of steps.entries()) {
    const [before, after] = [states[m], states[m + 1]];
    if (st.transition) {
      if (st.transition.thread !== st.thread || !holdsIn(p, fullFormula(p, st.transition), before, after, st.aux))
        return `step ${m + 1} (t${st.transition.id}) is not a transition of the program`;
    } else if (names.some((v) => before.get(v) !== after.get(v))) return `step ${m + 1} changes the state without a transition`;
    else if (st.thread < 0 ? !moves.every((t) => t.idle(vec(before))) : moves[st.thread].real(vec(before)).length > 0 || moves[st.thread].idle(vec(before)))
      return st.thread < 0 ? `step ${m + 1} repeats a state where not every thread has ended` : `step ${m + 1} is a self-loop of ${p.threads[st.thread].name}, which can move or has ended`;
  }
  return undefined;
}

/** Checks a lasso against the program, the property and its fairness; returns the reason it is not a counterexample, or undefined. */
export function lassoFailure(p: Program, prop: LtlProperty, lasso: ConcreteLasso, range: readonly [bigint, bigint]): string | undefined {
  const { layout, threads: moves } = globalMoves(p, range);
  const vec = (s: ReadonlyMap<string, bigint>): bigint[] => layout.names.map((v) => s.get(v)!);
  const bad = runFailure(p, lasso, moves, vec);
  if (bad) return bad;
  const { states, steps, loopAt } = lasso;
  const last = states.length - 1;
  if (loopAt >= last) return 'the cycle is empty';
  if (layout.names.some((v) => states[last].get(v) !== states[loopAt].get(v))) return 'the cycle does not return to its first state';
  const letters = lettersOf(p, prop, states);
  if (!acceptsLasso(prop.negated, { stem: letters.slice(0, loopAt), cycle: letters.slice(loopAt, last) }))
    return 'the lasso satisfies the property';
  const cycle = [...Array(last - loopAt).keys()].map((k) => loopAt + k);
  for (const [k, m] of moves.entries()) {
    const steps_ = cycle.some((i) => steps[i].thread === k);
    const idle = cycle.some((i) => m.idle(vec(states[i])));
    const disabled = cycle.some((i) => m.real(vec(states[i])).length === 0);
    if (prop.fairness === 'unconditional' && !steps_ && !idle) return `the cycle is not fair: ${p.threads[k].name} never moves in it`;
    if (prop.fairness === 'weak' && !steps_ && !disabled) return `the cycle is not weakly fair: ${p.threads[k].name} is always enabled and never moves in it`;
  }
  return undefined;
}

/** Checks a deadlock run: a run of the program whose last state deadlocks. */
export function deadlockFailure(p: Program, run: StepRun, range: readonly [bigint, bigint]): string | undefined {
  const { layout, threads: moves } = globalMoves(p, range);
  const vec = (s: ReadonlyMap<string, bigint>): bigint[] => layout.names.map((v) => s.get(v)!);
  return runFailure(p, run, moves, vec) ?? (deadlocked(moves, vec(run.states[run.states.length - 1])) ? undefined : 'the last state does not deadlock');
}

/**
 * Paths of the program over copies of V, one per state (`x@m`), as SMT formulas: a
 * model of init ∧ ρ_1 ∧ … ∧ ρ_k ∧ err is a run, which the interpreter replays
 * (replay.ts) before any engine reports it. The ARET engine checks MKPATH's paths
 * this way, the monolithic engine its unrolling of the product program.
 */
import { and, isPrimed, rename, unprimed, type Term, type Value } from '../solver/formula.js';
import { modelValue, type SmtSolver } from '../solver/smt.js';
import { fullFormula, type Program, type Transition } from '../program/program.js';
import { ReplayFailed } from './errors.js';
import { replay } from './replay.js';
import type { TraceStep } from './trace.js';

/** The copy of variable `v` in the m-th state of a path (aux variables of step m belong to m). */
export const at = (v: string, m: number): string => `${v}@${m}`;

/** Renamed step formulas per program, transition and step: every refinement round checks paths that share them. */
const steps = new WeakMap<Program, Map<number, Term[]>>();

/** ρ(V^m, V^{m+1}) for the transition taken in step m+1 (its aux variables as copies at m+1). */
export function stepFormula(p: Program, t: Transition, m: number): Term {
  let ofProgram = steps.get(p);
  if (!ofProgram) steps.set(p, (ofProgram = new Map()));
  let byStep = ofProgram.get(t.id);
  if (!byStep) ofProgram.set(t.id, (byStep = []));
  return (byStep[m] ??= rename(fullFormula(p, t), (v) => (isPrimed(v) ? at(unprimed(v), m + 1) : p.vars.has(v) ? at(v, m) : at(v, m + 1))));
}

/** init(V^0) ∧ ρ_1(V^0, V^1) ∧ … ∧ ρ_k(V^{k-1}, V^k) ∧ err(V^k). */
export function pathFormula(p: Program, path: readonly Transition[]): Term {
  const parts: Term[] = [rename(p.init, (v) => at(v, 0))];
  path.forEach((t, m) => parts.push(stepFormula(p, t, m)));
  parts.push(rename(p.err, (v) => at(v, path.length)));
  return and(...parts);
}

/**
 * The run along `path` whose values a model gives (named as pathFormula names them),
 * replayed by the interpreter; throws ReplayFailed when the program does not run it.
 */
export function replayModel(p: Program, path: readonly Transition[], value: (v: string) => Value): TraceStep[] {
  const names = [...p.vars.keys()];
  const states = [...Array(path.length + 1).keys()].map((m) => new Map(names.map((v) => [v, value(at(v, m))] as const)));
  const steps = path.map((t, m) => ({ transition: t, aux: new Map(t.aux.map((a) => [a, value(at(a, m + 1))] as const)) }));
  const out = replay(p, { states, steps });
  if ('failure' in out) throw new ReplayFailed(`a counterexample from SMT does not replay: ${out.failure}`);
  return out.trace;
}

/**
 * A run along `path` that also satisfies `extra` (formulas over the path's state
 * copies, `at(v, m)`), from a model of `solver`, replayed by the interpreter: its
 * trace, `null` when there is no such run, or the solver's reason when it could not say.
 */
export async function concretePath(p: Program, path: readonly Transition[], solver: SmtSolver, extra: readonly Term[] = []): Promise<TraceStep[] | null | { unknown: string }> {
  const names = [...p.vars.keys()];
  const vars = [...Array(path.length + 1).keys()].flatMap((m) => names.map((v) => at(v, m)));
  const auxVars = path.flatMap((t, m) => t.aux.map((a) => at(a, m + 1)));
  const r = await solver.model([pathFormula(p, path), ...extra], [...vars, ...auxVars]);
  if (r.status === 'unknown') return { unknown: r.reason };
  if (r.status === 'unsat') return null;
  return replayModel(p, path, (v) => modelValue(r.model, v));
}

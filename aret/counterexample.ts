/**
 * Counterexamples: MKPATH (Fig. 8) turns an abstract error state into the path of
 * program transitions that built it (an environment step becomes the thread
 * transition it abstracts); one SMT query over copies of V per step makes the path
 * concrete, and the interpreter replays the run before it is reported.
 */
import { and, isPrimed, rename, unprimed, type Term } from '../solver/formula.js';
import type { SmtSolver } from '../solver/smt.js';
import { fullFormula, type Program, type Transition } from '../frontend/program.js';
import { replay } from '../explicit/replay.js';
import type { TraceStep } from '../explicit/explore.js';
import { SolverUnknown } from './abstraction.js';
import { isEnv, type AbsState } from './reach-env.js';

/** A counterexample from SMT that the interpreter rejects: never a verdict. */
export class ReplayFailed extends Error {}

/** MKPATH (Fig. 8): the transitions leading to D. */
export function mkPath(d: AbsState): Transition[] {
  const path: Transition[] = [];
  for (let s: AbsState | undefined = d; s?.parent; s = s.parent.from) {
    const via = s.parent.via;
    path.push(isEnv(via) ? via.parent.via : via);
  }
  return path.reverse();
}

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
function pathFormula(p: Program, path: readonly Transition[]): Term {
  const parts: Term[] = [rename(p.init, (v) => at(v, 0))];
  path.forEach((t, m) => parts.push(stepFormula(p, t, m)));
  parts.push(rename(p.err, (v) => at(v, path.length)));
  return and(...parts);
}

/**
 * The run along `path` whose values a model gives (named as pathFormula names them),
 * replayed by the interpreter; throws ReplayFailed when the program does not run it.
 */
export function replayModel(p: Program, path: readonly Transition[], value: (v: string) => bigint): TraceStep[] {
  const names = [...p.vars.keys()];
  const states = [...Array(path.length + 1).keys()].map((m) => new Map(names.map((v) => [v, value(at(v, m))] as const)));
  const steps = path.map((t, m) => ({ transition: t, aux: new Map(t.aux.map((a) => [a, value(at(a, m + 1))] as const)) }));
  const out = replay(p, { states, steps });
  if ('failure' in out) throw new ReplayFailed(`a counterexample from SMT does not replay: ${out.failure}`);
  return out.trace;
}

/**
 * A concrete, replayed error trace along MKPATH(S) for some S of the error tuple,
 * or null when every such path is infeasible (the tuple is spurious or needs
 * refinement). A run the interpreter rejects throws ReplayFailed.
 */
export async function concreteCounterexample(
  p: Program,
  tuple: readonly AbsState[],
  /** The transition of `p` behind an ARET's transition (the ARET may be of a slice of `p`). */
  original: (t: Transition) => Transition,
  solver: SmtSolver,
  /** Only the paths that end with a thread's step into its error location (the likely ones, checked first anyway). */
  onlyErrorSteps = false,
): Promise<TraceStep[] | null> {
  const names = [...p.vars.keys()];
  const tried = new Set<string>();
  // The path of the state at an error location first: it ends in the error.
  const paths = tuple.map((d) => mkPath(d).map(original));
  const endsInError = (path: Transition[]): number => {
    const last = path.at(-1);
    return Number(last !== undefined && last.to === p.threads[last.thread].errorPc);
  };
  for (const path of paths.sort((a, b) => endsInError(b) - endsInError(a))) {
    if (onlyErrorSteps && !endsInError(path)) break;
    const key = path.map((t) => t.id).join(',');
    if (tried.has(key)) continue;
    tried.add(key);
    const vars = [...Array(path.length + 1).keys()].flatMap((m) => names.map((v) => at(v, m)));
    const auxVars = path.flatMap((t, m) => t.aux.map((a) => at(a, m + 1)));
    const r = await solver.model([pathFormula(p, path)], [...vars, ...auxVars]);
    if (r.status === 'unknown') throw new SolverUnknown(r.reason);
    if (r.status === 'unsat') continue;
    return replayModel(p, path, (v) => r.model?.get(v) ?? 0n);
  }
  return null;
}

/**
 * Counterexamples: MKPATH (Fig. 8) turns an abstract error state into the path of
 * program transitions that built it (an environment step becomes the thread
 * transition it abstracts); one SMT query over copies of V per step makes the path
 * concrete, and the interpreter replays the run before it is reported.
 */
import type { SmtSolver } from '../../solver/smt.js';
import type { Program, Transition } from '../../program/program.js';
import { SolverUnknown } from '../../core/errors.js';
import { concretePath } from '../../core/path.js';
import type { TraceStep } from '../../core/trace.js';
import { isEnv, type AbsState } from './aret.js';

/** MKPATH (Fig. 8): the transitions leading to D. */
export function mkPath(d: AbsState): Transition[] {
  const path: Transition[] = [];
  for (let s: AbsState | undefined = d; s?.parent; s = s.parent.from) {
    const via = s.parent.via;
    path.push(isEnv(via) ? via.parent.via : via);
  }
  return path.reverse();
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
    const r = await concretePath(p, path, solver);
    if (r === null) continue;
    if ('unknown' in r) throw new SolverUnknown(r.unknown);
    return r;
  }
  return null;
}

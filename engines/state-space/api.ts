/**
 * What the engines built on the state-space library use of it (learn, split-invariant,
 * the ARET's modular precheck, witness): the explicit engines and `rely explore`, whose
 * searches this folder is, use its modules directly. The ARET engine's modular precheck
 * asks whether thread-modular model checking — over each group of threads as one —
 * reaches an error.
 */
import type { Program } from '../../program/program.js';
import { checkModular, checkModularProof } from './modular.js';
import { explore } from './explore.js';
import type { Budget } from '../../core/budget.js';

export { Layout, initialStates } from './steps.js';
export { ThreadMoves, globalMoves, deadlocked, type RealMove } from './moves.js';
export { lassoFailure, deadlockFailure } from './lasso.js';
export { checkLivenessGlobal, findDeadlock, type LivenessOptions } from './liveness.js';
export { DEFAULT_NONDET_RANGE } from './explore.js';
export { ProductNodes } from './product-nodes.js';
export { findSymmetry, type Symmetry } from './symmetry.js';

export interface FixpointAnswer {
  /** The fixpoint reaches an error location. */
  readonly errorReachable: boolean;
  /** The search finished within its bounds. */
  readonly complete: boolean;
}

/**
 * Flanagan–Qadeer thread-modular model checking (modular.ts) of `p`, each group of
 * `groups` explored as one thread (default: every thread alone), within `maxStates`
 * and `budget` (past its deadline or memory limit: incomplete).
 */
export function threadModularFixpoint(p: Program, bounds: { maxStates: number; budget: Budget }, groups?: readonly (readonly number[])[]): FixpointAnswer {
  const r = checkModular(p, bounds, groups);
  return { errorReachable: r.errorReachable, complete: r.complete };
}

/** What thread `thread` can see at each of its locations: values of `names` (thread-modular: the globals, then its own locals; reachable: every variable). */
export interface ThreadViews {
  readonly thread: number;
  readonly names: readonly string[];
  readonly byPc: ReadonlyMap<number, readonly (readonly bigint[])[]>;
}

/**
 * Per thread and location, the views (globals, own locals) of the thread-modular
 * fixpoint of `p` — an over-approximation of the reachable states (Flanagan–Qadeer,
 * Lemma 2) — when the fixpoint is exact and re-checked: complete, no error location
 * in it, no value drawn from a range, no call kept, and checkModularProof holds.
 * Otherwise undefined: views of a bounded search are not invariants.
 */
export function threadModularViews(p: Program, bounds: { maxStates: number; budget: Budget }): ThreadViews[] | undefined {
  if (p.threads.some((th) => th.replicated || th.transitions.some((t) => t.stack))) return undefined;
  const r = checkModular(p, bounds);
  if (!r.proof || r.errorReachable || r.usedNondetRange || r.cut > 0 || checkModularProof(r.proof) !== undefined) return undefined;
  return r.proof.threads.map((T) => {
    const th = T.members[0];
    const states = [...T.P.values()].flatMap(({ at }) => [...at.values()].map((st) => [...st]));
    return { thread: th.index, names: T.layout.names, byPc: byPcOf(states, T.layout.index.get(th.pc)!) };
  });
}

/** States grouped by the value of their slot `pcSlot`, a thread's location. */
function byPcOf(states: readonly (readonly bigint[])[], pcSlot: number): Map<number, (readonly bigint[])[]> {
  const byPc = new Map<number, (readonly bigint[])[]>();
  for (const st of states) {
    const pc = Number(st[pcSlot]);
    if (!byPc.has(pc)) byPc.set(pc, []);
    byPc.get(pc)!.push(st);
  }
  return byPc;
}

/**
 * Per thread and location, the exact reachable states of `p` (explicit-global search
 * over the product, explore.ts), each a value of every variable of the program (`names`
 * of each view) — when the search is complete, closed under the steps (re-checked), free
 * of errors, and drew no value from a range. Otherwise undefined. Programs with template
 * threads or kept calls are not searched.
 */
export function reachableViews(p: Program, bounds: { maxStates: number; budget: Budget }): ThreadViews[] | undefined {
  if (p.threads.some((th) => th.replicated || th.transitions.some((t) => t.stack))) return undefined;
  const r = explore(p, { maxStates: bounds.maxStates, budget: bounds.budget, recheck: true, keepStates: true });
  if (!r.complete || r.errorReachable || r.usedNondetRange || r.cut > 0 || r.closed !== true || !r.reachable) return undefined;
  const { names, values } = r.reachable;
  return p.threads.map((th) => ({ thread: th.index, names, byPc: byPcOf(values, names.indexOf(th.pc)) }));
}

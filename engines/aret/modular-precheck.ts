/**
 * Can a modular proof exist at all? Asked once, before refinement under the modular
 * bias, of Flanagan–Qadeer thread-modular model checking (engines/state-space/api.ts).
 *
 * A modular REACHENV proof has R_i over the globals and thread i's locals and E_i over
 * the globals (Fig. 5 with Fig. 11's unknowns). Such an R_i must contain every state
 * that FQ's fixpoint gives thread i, since FQ applies only global updates the other
 * threads make from states their R_j hold (and keeps them apart by thread, which is
 * finer than one E_i). Drawing nondeterministic values from a range and cutting
 * values only shrinks the fixpoint. So an error in it is in every modular candidate
 * and no modular proof exists: the modular clauses could only refute one path after
 * another (on the readers-writer lock, over a hundred rounds of path-specific
 * constants without a verdict), and refinement starts unbiased instead.
 *
 * When none exists, a proof may still need only some of the other threads: groups
 * of threads that FQ explores as one (each member over the globals and the locals of
 * its whole group) whose fixpoint has no error. Refinement then asks the clauses whose
 * unknowns range over a thread's group before the unbiased ones (refine.ts).
 *
 * This only chooses which clauses REFINE asks first; verdicts are checked as always.
 * A search that stops at its budget without an error decides nothing.
 */
import type { Program } from '../../program/program.js';
import { threadModularFixpoint } from '../state-space/api.js';
import { Budget } from '../../core/budget.js';

/** Each search's budget: the programs of Table 1 need at most 430 states and 0.12 s. */
const MAX_STATES = 100_000;
const BUDGET_MS = 2_000;
/** Partitions of more threads are too many to try (Bell(8) = 4,140). */
const MAX_GROUPED_THREADS = 8;

export type Groups = readonly (readonly number[])[];

const bounds = (budget: Budget) => ({ maxStates: MAX_STATES, budget: budget.within(performance.now() + BUDGET_MS) });

/** True when thread-modular model checking reaches an error: no modular proof exists. It stops by `budget` too. */
export function modularProofExcluded(p: Program, budget = new Budget()): boolean {
  return threadModularFixpoint(p, bounds(budget)).errorReachable;
}

/** Every partition of 0..n-1 into sets, by restricted growth strings. */
function partitions(n: number): number[][][] {
  const out: number[][][] = [];
  const extend = (i: number, groups: number[][]): void => {
    if (i === n) return void out.push(groups.map((g) => [...g]));
    for (const g of groups) {
      g.push(i);
      extend(i + 1, groups);
      g.pop();
    }
    groups.push([i]);
    extend(i + 1, groups);
    groups.pop();
  };
  extend(0, []);
  return out;
}

/**
 * The finest grouping (fewest pairs of threads sharing a group) whose thread-modular
 * fixpoint has no error, neither every thread alone nor all in one group (that is
 * the unbiased proof); undefined if none is found within the budget.
 */
export function provableGroups(p: Program, budget = new Budget()): Groups | undefined {
  const n = p.threads.length;
  if (n < 3 || n > MAX_GROUPED_THREADS) return undefined;
  const pairs = (gs: Groups): number => gs.reduce((s, g) => s + (g.length * (g.length - 1)) / 2, 0);
  const candidates = partitions(n)
    .filter((gs) => gs.length > 1 && gs.length < n)
    .sort((a, b) => pairs(a) - pairs(b));
  const all = bounds(budget);
  for (const gs of candidates) {
    if (all.budget.expired()) return undefined;
    const r = threadModularFixpoint(p, all, gs);
    if (r.complete && !r.errorReachable) return gs;
  }
  return undefined;
}

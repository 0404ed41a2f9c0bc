/**
 * Can a modular proof exist at all? Asked once, before refinement under the modular
 * bias, of Flanagan–Qadeer thread-modular model checking (explicit/modular.ts).
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
 * This only chooses which clauses REFINE asks first; verdicts are checked as always.
 * A search that stops at its budget without an error decides nothing.
 */
import type { Program } from '../frontend/program.js';
import { checkModular } from '../explicit/modular.js';

/** The search's budget: the programs of Table 1 need at most 430 states and 0.12 s. */
const MAX_STATES = 100_000;
const BUDGET_MS = 2_000;

/** True when thread-modular model checking reaches an error: no modular proof exists. It stops by `deadline` too. */
export function modularProofExcluded(p: Program, deadline = Infinity): boolean {
  return checkModular(p, { maxStates: MAX_STATES, deadline: Math.min(deadline, performance.now() + BUDGET_MS) }).errorReachable;
}

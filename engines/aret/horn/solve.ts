/**
 * SOLVEHC (Fig. 9 lines 5–7): a system of recursion-free Horn clauses solved by the
 * chosen solver, z3's Spacer or the paper's SOLVELINEARHC (§7, linear.ts), and every
 * solution validated against its clauses before anyone uses it.
 */
import { InternalError, SolverUnknown } from '../../../core/errors.js';
import { Budget } from '../../../core/budget.js';
import { or } from '../../../solver/formula.js';
import { solutionObligations, type HornResult, type HornSolution, type HornSystem } from '../../../solver/horn.js';
import type { SmtSolver } from '../../../solver/smt.js';
import { solveLinearHC } from './linear.js';

/** Which Horn solver answers (§7's SOLVELINEARHC or Spacer). */
export type HornSolverChoice = 'spacer' | 'linear' | 'auto';

export interface SolveOptions {
  readonly hornSolver: HornSolverChoice;
  readonly timeoutMs?: number;
  /** The run's budget: SOLVELINEARHC's search stops with it too (cancelled, out of memory), not only at the query's time. */
  readonly budget?: Budget;
  /** SOLVELINEARHC's hand-overs to Spacer, counted by reason. */
  readonly fallbacks: Record<string, number>;
}

/** A solution that does not satisfy its clauses: a bug in a Horn solver, never a refinement. */
export class InvalidSolution extends InternalError {
  constructor(by: string, reason: string) {
    super(`internal: the ${by} solution of the refinement clauses is not valid (${reason})`);
  }
}

/**
 * Every clause valid under the solution: one query for the disjunction of the violations.
 * A check left undecided (its time up) says nothing against the solution: SolverUnknown,
 * an UNKNOWN of the run, not an internal error.
 */
async function validate(sys: HornSystem, sol: HornSolution, solver: SmtSolver, by: string, timeoutMs?: number): Promise<void> {
  const r = await solver.check([or(...solutionObligations(sys, sol))], { timeoutMs });
  if (r.status === 'unknown') throw new SolverUnknown(r.reason);
  if (r.status === 'sat') throw new InvalidSolution(by, 'a clause is violated');
}

export type Answer = HornResult & { by: 'linear' | 'spacer' };

/**
 * The clauses' solution by the chosen solver. SOLVELINEARHC hands the clauses to
 * Spacer when it cannot answer: a nonlinear or disjunctive atom, the tree or row
 * limits, or — unless `rationalUnsatSuffices` and the choice is `linear` — no rational
 * certificate (the infeasibility may need the integers). With it (REFINE's modular or
 * grouped clauses), no certificate means there is no such solution, as Fig. 14
 * line 12 concludes.
 */
export async function solveClauses(sys: HornSystem, rationalUnsatSuffices: boolean, solver: SmtSolver, o: SolveOptions): Promise<Answer> {
  const spacer = async (fallback?: string): Promise<Answer> => {
    if (fallback) o.fallbacks[fallback] = (o.fallbacks[fallback] ?? 0) + 1;
    const r = await solver.horn(sys, { timeoutMs: o.timeoutMs });
    if (r.status === 'sat') await validate(sys, r.solution, solver, 'Spacer', o.timeoutMs);
    return { ...r, by: 'spacer' };
  };
  if (o.hornSolver === 'spacer') return spacer();
  // Synchronous: it must stop by itself when the query's time is up or the run stops.
  const budget = o.timeoutMs === undefined ? o.budget : (o.budget ?? new Budget()).within(performance.now() + o.timeoutMs);
  const lin = solveLinearHC(sys, { farkas: { budget } });
  if (lin.status === 'gave-up') return spacer(lin.reason);
  if (lin.status === 'unsat') {
    if (rationalUnsatSuffices && o.hornSolver === 'linear') return { status: 'unsat', by: 'linear' };
    return spacer('no rational certificate');
  }
  await validate(sys, lin.solution, solver, 'SOLVELINEARHC', o.timeoutMs);
  return { status: 'sat', solution: lin.solution, by: 'linear' };
}

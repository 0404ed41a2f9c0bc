/**
 * Bounded model checking (`rely verify --engine bmc`), the bug hunter of the
 * portfolio: is an error reachable within k steps of the product program, for k
 * growing geometrically (core/unroll.ts)? An error is found at about the depth of
 * its shortest trace, however many interleavings lead there, with nondeterministic
 * values chosen by the solver. It proves nothing: no error within the bound is
 * UNKNOWN, as is a timeout.
 */
import type { SmtSolver, SolverStats } from '../../solver/smt.js';
import { type Program, singleInstances } from '../../program/program.js';
import type { Budget } from '../../core/budget.js';
import { orUnknown, stopReason } from '../../core/errors.js';
import type { Outcome } from '../../core/outcome.js';
import { findErrorTrace } from '../../core/unroll.js';

export interface BmcStats {
  /** The deepest k asked for which no error state is reachable within k steps (null: none decided). */
  errorFreeDepth: number | null;
  solver: SolverStats;
  timeMs: number;
}

/** BMC proves nothing: it never answers SAFE, so its proof type is empty. */
export type BmcVerdict = Outcome<null> & { stats: BmcStats };

export interface BmcOptions {
  budget: Budget;
  /** The deepest error state looked for (default: no bound but the budget). */
  maxDepth?: number;
  /** Internal errors that turn into UNKNOWN (a trace that does not replay). */
  onInternalError?: (message: string) => void;
}

export async function verifyBmc(p: Program, solver: SmtSolver, opts: BmcOptions): Promise<BmcVerdict> {
  singleInstances(p, 'bmc');
  const t0 = performance.now();
  let errorFreeDepth: number | null = null;
  const explored = (): string => (errorFreeDepth === null ? '' : ` (no error within ${errorFreeDepth} steps)`);
  const outcome = await orUnknown<null>(
    async () => {
      const trace = await findErrorTrace(p, solver, {
        checkTime: () => opts.budget.check(),
        queryTimeoutMs: () => opts.budget.queryMs(), // one query may take all the time left: a deeper one is all there is to ask
        onDepth: (k) => (errorFreeDepth = k),
        maxDepth: opts.maxDepth,
      });
      if (trace) return { verdict: 'unsafe', trace, traceReplayed: true };
      return { verdict: 'unknown', reason: `bounded: no error within ${errorFreeDepth} steps (--max-depth)` };
    },
    opts.onInternalError,
    (s) => (s.internal ? s.reason : `${stopReason(s)}${explored()}`),
  );
  return { ...outcome, stats: { errorFreeDepth, solver: { ...solver.stats }, timeMs: performance.now() - t0 } };
}

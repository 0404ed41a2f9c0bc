/**
 * The monolithic baseline (`rely verify --engine monolithic`): the product program's
 * Horn clauses (encode.ts) handed to Spacer in one query, through the same solver
 * layer the ARET engine uses, so that the two differ only in the method.
 *
 * Verdicts follow the same rules as every engine's (core/outcome.ts): SAFE only when the invariant
 * Spacer returns satisfies every clause of the WHOLE program according to a fresh
 * solver; UNSAFE only with a trace the interpreter replays (found by unrolling,
 * core/unroll.ts); everything else — a timeout, a solver `unknown`, a failed check or
 * replay — is UNKNOWN with the reason.
 *
 * Spacer runs on the cone of influence (program/slice.ts): it keeps every variable that
 * can decide whether an error location is reached, so an invariant of the slice is
 * one of the whole program — and the check on the whole program makes sure of it,
 * so the slice can cost a verdict but never make one wrong. The unrolling runs on
 * the whole program, whose traces are the ones replayed.
 */
import type { SmtSolver, SolverStats } from '../../solver/smt.js';
import { type Program, singleInstances } from '../../program/program.js';
import { coneOfInfluence } from '../../program/slice.js';
import { Budget, stopwatch } from '../../core/budget.js';
import { InternalError, orUnknown, stopReason, type Stop } from '../../core/errors.js';
import type { Outcome } from '../../core/outcome.js';
import type { NamedHornSystem } from '../../core/certificate.js';
import { spacer, spacerCannotTake, spacerUnknown } from '../../core/spacer.js';
import { INV, productSystem } from './encode.js';
import { checkInvariant, invariantSize, type InvariantProof } from './proof.js';
import { findErrorTrace } from '../../core/unroll.js';

export interface MonolithicOptions {
  /** A fresh solver for the invariant check (independent of the one Spacer ran in). */
  checker: () => SmtSolver;
  /** The run's deadline and heap limit (default: none, and 80% of node's heap). */
  budget?: Budget;
  /** Per query, Horn or SMT (also capped by the time left in the budget). */
  queryTimeoutMs?: number;
  /** Internal errors that turn into UNKNOWN (a failed invariant check or replay). */
  onInternalError?: (message: string) => void;
}

export interface MonolithicStats {
  /** Horn clauses Spacer got (those of the cone of influence). */
  clauses: number;
  /** Parameters of Inv: the cone's variables, and all of the program's. */
  variables: number;
  wholeVariables: number;
  /** Size of the checked invariant (SAFE). */
  invariant: { atoms: number; variables: number } | null;
  /** The deepest k for which the unrolling showed no error within k steps (UNSAFE, or a search cut short). */
  unrolledSteps: number | null;
  spacerMs: number;
  checkMs: number;
  unrollMs: number;
  solver: SolverStats;
  timeMs: number;
}

export type MonolithicVerdict = Outcome<InvariantProof> & { stats: MonolithicStats };

export async function verifyMonolithic(whole: Program, solver: SmtSolver, opts: MonolithicOptions): Promise<MonolithicVerdict> {
  singleInstances(whole, 'monolithic');
  const t0 = performance.now();
  let slice: Program | undefined;
  let sys: NamedHornSystem | undefined;
  const ms = { spacerMs: 0, checkMs: 0, unrollMs: 0 };
  let invariant: MonolithicStats['invariant'] = null;
  let unrolledSteps: number | null = null;
  const budget = opts.budget ?? new Budget();
  const checkTime = (): void => budget.check();
  const queryTimeoutMs = (): number | undefined => budget.queryMs(opts.queryTimeoutMs);
  const timed = stopwatch(ms);
  // A timeout after Spacer found an error reachable is the trace search's.
  const explain = (s: Stop): string =>
    s.timeout && unrolledSteps !== null
      ? `timeout (Spacer found an error reachable; the search for its trace ran out of time${unrolledSteps ? `, none has ${unrolledSteps} steps or fewer` : ''})`
      : stopReason(s);
  const outcome = await orUnknown<InvariantProof>(async () => {
    checkTime();
    slice = coneOfInfluence(whole, checkTime).program;
    const clauses = (sys = productSystem(slice, false, checkTime));
    checkTime();
    const cannot = spacerCannotTake(slice);
    if (cannot) return { verdict: 'unknown', reason: cannot };
    const r = await timed('spacerMs', () => spacer(solver, clauses, queryTimeoutMs()));
    if (r.status === 'unknown') return { verdict: 'unknown', reason: spacerUnknown(r.reason) };
    if (r.status === 'sat') {
      const proof: InvariantProof = { kind: 'invariant', invariant: r.solution.get(INV)! };
      const failed = await timed('checkMs', () => checkInvariant(whole, proof, opts.checker(), queryTimeoutMs));
      if (failed) throw new InternalError(`invariant check failed: ${failed}`);
      invariant = invariantSize(proof);
      return { verdict: 'safe', proof, proofChecked: true };
    }
    // unsat: an error state is reachable; a verdict needs the trace.
    unrolledSteps = 0;
    const trace = await timed('unrollMs', () =>
      findErrorTrace(whole, solver, { checkTime, queryTimeoutMs, onDepth: (k) => (unrolledSteps = k) }),
    );
    // Unbounded, the unrolling returns only with a trace (or throws).
    return { verdict: 'unsafe', trace: trace!, traceReplayed: true };
  }, opts.onInternalError, explain);
  return {
    ...outcome,
    stats: {
      // A setup the budget cut short counts none.
      clauses: sys?.clauses.length ?? 0,
      variables: slice?.vars.size ?? 0,
      wholeVariables: whole.vars.size,
      invariant,
      unrolledSteps,
      ...ms,
      solver: { ...solver.stats },
      timeMs: performance.now() - t0,
    },
  };
}

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
import type { HornResult } from '../../solver/horn.js';
import { SolverFailed, type SmtSolver, type SolverStats } from '../../solver/smt.js';
import { type Program, singleInstances } from '../../program/program.js';
import { coneOfInfluence } from '../../program/slice.js';
import { Budget, stopwatch } from '../../core/budget.js';
import { OutOfMemory, ReplayFailed, SolverUnknown, Timeout, nonlinearReason } from '../../core/errors.js';
import type { Outcome } from '../../core/outcome.js';
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
  const slice = coneOfInfluence(whole).program;
  const sys = productSystem(slice);
  const ms = { spacerMs: 0, checkMs: 0, unrollMs: 0 };
  let invariant: MonolithicStats['invariant'] = null;
  let unrolledSteps: number | null = null;
  const done = (o: Outcome<InvariantProof>): MonolithicVerdict => ({
    ...o,
    stats: {
      clauses: sys.clauses.length,
      variables: slice.vars.size,
      wholeVariables: whole.vars.size,
      invariant,
      unrolledSteps,
      ...ms,
      solver: { ...solver.stats },
      timeMs: performance.now() - t0,
    },
  });
  const internal = (message: string): MonolithicVerdict => {
    opts.onInternalError?.(message);
    return done({ verdict: 'unknown', reason: message });
  };
  const budget = opts.budget ?? new Budget();
  const checkTime = (): void => budget.check();
  const queryTimeoutMs = (): number | undefined => budget.queryMs(opts.queryTimeoutMs);
  const timed = stopwatch(ms);
  try {
    checkTime();
    // Spacer answers only linear clauses (`%` or `/` by a variable, x*y: `Uninterpreted 'mod'`).
    const nonlinear = slice.threads.flatMap((t) => t.transitions).find((t) => !t.linear);
    if (nonlinear) return done({ verdict: 'unknown', reason: nonlinearReason(nonlinear, 'Spacer') });
    let r: HornResult;
    try {
      r = await timed('spacerMs', () => solver.horn(sys, { timeoutMs: queryTimeoutMs() }));
    } catch (e) {
      // The solver failed (died, a limit): UNKNOWN with its reason (the outer catch).
      if (e instanceof SolverFailed) throw e;
      // An answer the solver layer cannot read (e.g. a construct the IR lacks) proves nothing.
      return internal(`internal: Spacer's answer could not be read: ${(e as Error).message}`);
    }
    if (r.status === 'unknown') return done({ verdict: 'unknown', reason: r.reason === 'timeout' ? 'timeout' : `Spacer: unknown (${r.reason})` });
    if (r.status === 'sat') {
      const proof: InvariantProof = { kind: 'invariant', invariant: r.solution.get(INV)! };
      const failed = await timed('checkMs', () => checkInvariant(whole, proof, opts.checker(), queryTimeoutMs));
      if (failed) return internal(`invariant check failed: ${failed}`);
      invariant = invariantSize(proof);
      return done({ verdict: 'safe', proof, proofChecked: true });
    }
    // unsat: an error state is reachable; a verdict needs the trace.
    unrolledSteps = 0;
    const trace = await timed('unrollMs', () =>
      findErrorTrace(whole, solver, { checkTime, queryTimeoutMs, onDepth: (k) => (unrolledSteps = k) }),
    );
    // Unbounded, the unrolling returns only with a trace (or throws).
    return done({ verdict: 'unsafe', trace: trace!, traceReplayed: true });
  } catch (e) {
    const timeout = e instanceof Timeout || (e instanceof SolverUnknown && e.reason === 'timeout');
    if (timeout && unrolledSteps !== null)
      return done({
        verdict: 'unknown',
        reason: `timeout (Spacer found an error reachable; the search for its trace ran out of time${unrolledSteps ? `, none has ${unrolledSteps} steps or fewer` : ''})`,
      });
    if (timeout) return done({ verdict: 'unknown', reason: 'timeout' });
    if (e instanceof SolverUnknown || e instanceof OutOfMemory || e instanceof SolverFailed) return done({ verdict: 'unknown', reason: e.message });
    if (e instanceof ReplayFailed) return internal(e.message);
    throw e;
  }
}

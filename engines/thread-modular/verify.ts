/**
 * The thread-modular engine (`--engine thread-modular`): the thread-modular proof rule
 * (core/thread-modular-rule.ts: one invariant per thread over the globals and its own
 * locals, stable under every other thread's steps) handed to Spacer as Horn clauses
 * in one query. It reads template threads (Thread.replicated), whose invariant is
 * also stable under another instance's steps: a solution proves the program for any
 * number of instances, with infinite-state data (counters, tickets) that the
 * explicit-modular engine cannot enumerate.
 *
 * The rule is incomplete: it cannot relate two threads' locals (Peterson's turn,
 * two tickets that differ, a count of the threads inside). So this engine proves
 * only: SAFE when Spacer's solution satisfies every premise according to a fresh
 * solver; `unsat` means no thread-modular invariant exists — not a bug — and is
 * UNKNOWN with that reason, as is everything else.
 */
import type { SmtSolver, SolverStats } from '../../solver/smt.js';
import type { Program } from '../../program/program.js';
import { lockFlags, withLockOwners } from '../../program/lock-owners.js';
import { Budget, stopwatch } from '../../core/budget.js';
import { InternalError, orUnknown } from '../../core/errors.js';
import type { Outcome } from '../../core/outcome.js';
import { spacer, spacerCannotTake, spacerUnknown } from '../../core/spacer.js';
import { firstFailingClause } from '../../core/certificate.js';
import { perLocationSystem, perThreadInvariants, provedProgram, threadModularSystem, type ThreadModularProof } from './encode.js';

export interface ThreadModularOptions {
  /** A fresh solver for the proof check (independent of the one Spacer ran in). */
  checker: () => SmtSolver;
  budget?: Budget;
  onInternalError?: (message: string) => void;
}

export interface ThreadModularStats {
  clauses: number;
  /** Threads that stand for any number of instances. */
  templates: number;
  spacerMs: number;
  checkMs: number;
  solver: SolverStats;
  timeMs: number;
}

export type ThreadModularVerdict = Outcome<ThreadModularProof> & { stats: ThreadModularStats };

/** Re-checks every premise (one per transition; on the program with lock owners if the proof has them) under `proof` with `checker`, closed afterwards; the first that fails, or undefined. */
export function checkThreadModular(p: Program, proof: ThreadModularProof, checker: SmtSolver, timeoutMs: () => number | undefined): Promise<string | undefined> {
  return firstFailingClause(threadModularSystem(provedProgram(p, proof)), proof.invariants, checker, timeoutMs);
}

/**
 * One Spacer query for the rule's invariants, and their check. When none exist and the
 * program has lock flags (program/lock-owners.ts), a second query on the program with
 * their ghost owners: a lock taken by hand, between instances of one thread too.
 */
export async function verifyThreadModular(p: Program, solver: SmtSolver, opts: ThreadModularOptions): Promise<ThreadModularVerdict> {
  const t0 = performance.now();
  const ms = { spacerMs: 0, checkMs: 0 };
  let clauses = 0;
  const budget = opts.budget ?? new Budget();
  const queryMs = (): number | undefined => budget.queryMs(undefined);
  const timed = stopwatch(ms);
  const outcome = await orUnknown<ThreadModularProof>(async () => {
    budget.check();
    const cannot = spacerCannotTake(p);
    if (cannot) return { verdict: 'unknown', reason: cannot };
    const flags = lockFlags(p);
    for (const lockOwners of flags.length ? [false, true] : [false]) {
      const q = lockOwners ? withLockOwners(p) : p;
      const sys = perLocationSystem(q, () => budget.check());
      budget.check();
      clauses = sys.clauses.length;
      const r = await timed('spacerMs', () => spacer(solver, sys, queryMs()));
      if (r.status === 'unknown') return { verdict: 'unknown', reason: spacerUnknown(r.reason) };
      if (r.status === 'unsat') continue;
      const proof: ThreadModularProof = { kind: 'thread-modular', lockOwners, invariants: perThreadInvariants(q, r.solution) };
      const failed = await timed('checkMs', () => checkThreadModular(p, proof, opts.checker(), queryMs));
      if (failed) throw new InternalError(`proof check failed: ${failed}`);
      return { verdict: 'safe', proof, proofChecked: true };
    }
    const owners = flags.length ? `, with ghost owners of the lock flags ${flags.join(', ')} too` : '';
    return { verdict: 'unknown', reason: `no thread-modular invariant exists (Spacer: the clauses are unsatisfiable${owners}); the proof needs to relate two threads' locals or count threads` };
  }, opts.onInternalError);
  return { ...outcome, stats: { clauses, templates: p.threads.filter((t) => t.replicated).length, ...ms, solver: { ...solver.stats }, timeMs: performance.now() - t0 } };
}

/**
 * The ways a run stops without a verdict of its own. Engines throw them from deep
 * inside a search; `orUnknown` turns them into UNKNOWN with the message as the
 * reason, for every engine alike. A failed check of the engine's own answer (a proof
 * that does not re-check, a trace that does not replay) is an internal error, never a
 * verdict.
 */

import { SolverFailed } from '../solver/smt.js';
import { showPos } from '../program/diagnostics.js';
import type { Transition } from '../program/program.js';
import type { Outcome } from './outcome.js';

/** The run's deadline passed (budget.ts). */
export class Timeout extends Error {
  constructor() {
    super('timeout');
  }
}

/** The run was stopped from outside (a portfolio's other lane decided first); its result is not wanted. */
export class Cancelled extends Error {
  constructor() {
    super('stopped: another engine decided first');
  }
}

/** The live heap, or the run's memory, passed the run's limit (budget.ts): UNKNOWN before V8 aborts the process. The message says which and how much. */
export class OutOfMemory extends Error {}

/** An SMT query the solver could not decide where an engine needs the answer. */
export class SolverUnknown extends Error {
  constructor(readonly reason: string) {
    super(`solver: unknown (${reason})`);
  }
}

/** An engine's own check failed (a proof, a trace, a solution): UNKNOWN with the message, and logged as an internal error. */
export class InternalError extends Error {}

/** A counterexample from SMT that the interpreter rejects: never a verdict. */
export class ReplayFailed extends InternalError {}

/** Why a run stopped: UNKNOWN's reason (the exception's message), whether time ran out (the run's or a solver query's), whether it was an internal error. */
export interface Stop {
  readonly reason: string;
  readonly timeout: boolean;
  readonly internal: boolean;
}

/**
 * What stopped a run, from what it threw: the deadline, a memory limit, a solver that
 * gave up or failed, or an internal error (reported to `onInternalError`). Anything
 * else is rethrown: Cancelled (nobody wants the result) and a bug of rely.
 */
export function stopOf(e: unknown, onInternalError?: (message: string) => void): Stop {
  if (e instanceof InternalError) {
    onInternalError?.(e.message);
    return { reason: e.message, timeout: false, internal: true };
  }
  const timeout = e instanceof Timeout || (e instanceof SolverUnknown && e.reason === 'timeout');
  if (timeout || e instanceof SolverUnknown || e instanceof OutOfMemory || e instanceof SolverFailed) return { reason: e.message, timeout, internal: false };
  throw e;
}

/** UNKNOWN's reason for a stop, as most engines word it: `timeout` however time ran out, else the exception's message. */
export const stopReason = (s: Stop): string => (s.timeout ? 'timeout' : s.reason);

/** Runs an engine's search; what stops it (stopOf) is UNKNOWN with the reason `explain` words. */
export async function orUnknown<P>(search: () => Promise<Outcome<P>>, onInternalError?: (message: string) => void, explain: (s: Stop) => string = stopReason): Promise<Outcome<P>> {
  try {
    return await search();
  } catch (e) {
    return { verdict: 'unknown', reason: explain(stopOf(e, onInternalError)) };
  }
}

/** UNKNOWN's reason from an engine whose states hold integers only, given a program with arrays of run-time size (program/program.ts hasArrays). */
export const arraysReason = (engine: string): string =>
  `unsupported by the ${engine} engine: objects of a size known only at run time (their cells are SMT arrays, which the symbolic engines read: aret, bmc, monolithic)`;

/** UNKNOWN's reason where a Horn solver would meet transition `t`'s nonlinear arithmetic (`%` or `/` by a variable, x*y): located, as every unsupported construct is. */
export function nonlinearReason(t: Transition, solver: string): string {
  return `unsupported: nonlinear arithmetic at ${showPos(t.pos)} (${t.steps.map((x) => x.text).join('; ')}): ${solver} takes linear clauses only`;
}

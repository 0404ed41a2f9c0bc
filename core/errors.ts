/**
 * The ways a run stops without a verdict of its own. Engines throw them from deep
 * inside a search and turn them into UNKNOWN with the message as the reason; a
 * failed replay is an internal error of the engine, never a verdict.
 */

import { showPos } from '../program/diagnostics.js';
import type { Transition } from '../program/program.js';

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

/** A counterexample from SMT that the interpreter rejects: never a verdict. */
export class ReplayFailed extends Error {}

/** UNKNOWN's reason from an engine whose states hold integers only, given a program with arrays of run-time size (program/program.ts hasArrays). */
export const arraysReason = (engine: string): string =>
  `unsupported by the ${engine} engine: objects of a size known only at run time (their cells are SMT arrays, which the symbolic engines read: aret, bmc, monolithic)`;

/** UNKNOWN's reason where a Horn solver would meet transition `t`'s nonlinear arithmetic (`%` or `/` by a variable, x*y): located, as every unsupported construct is. */
export function nonlinearReason(t: Transition, solver: string): string {
  return `unsupported: nonlinear arithmetic at ${showPos(t.pos)} (${t.steps.map((x) => x.text).join('; ')}): ${solver} takes linear clauses only`;
}

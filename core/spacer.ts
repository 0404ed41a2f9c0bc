/**
 * The Spacer query of the engines whose method is one (monolithic, thread-modular):
 * what Spacer cannot take (nonlinear clauses) and cannot answer, as UNKNOWN's
 * reasons; an answer the solver layer cannot read is an internal error of the engine.
 */
import type { HornResult, HornSystem } from '../solver/horn.js';
import { SolverFailed, type SmtSolver } from '../solver/smt.js';
import type { Program } from '../program/program.js';
import { InternalError, nonlinearReason } from './errors.js';

/** UNKNOWN's reason for a program with nonlinear arithmetic (`%` or `/` by a variable, x*y: Spacer's `Uninterpreted 'mod'`), or undefined. */
export function spacerCannotTake(p: Program): string | undefined {
  const nonlinear = p.threads.flatMap((t) => t.transitions).find((t) => !t.linear);
  return nonlinear && nonlinearReason(nonlinear, 'Spacer');
}

/** Spacer's answer to `sys`; a failed solver (it died, a limit) stops the run (SolverFailed), an answer that cannot be read (e.g. a construct the IR lacks) proves nothing. */
export async function spacer(solver: SmtSolver, sys: HornSystem, timeoutMs: number | undefined): Promise<HornResult> {
  try {
    return await solver.horn(sys, { timeoutMs });
  } catch (e) {
    if (e instanceof SolverFailed) throw e;
    throw new InternalError(`internal: Spacer's answer could not be read: ${(e as Error).message}`);
  }
}

/** UNKNOWN's reason for Spacer's `unknown`. */
export const spacerUnknown = (reason: string): string => (reason === 'timeout' ? 'timeout' : `Spacer: unknown (${reason})`);

/**
 * What other engines may use of the explicit-state engines; the rest of this folder
 * is theirs alone (the import check, .dependency-cruiser.cjs, holds other folders to
 * this file). The ARET engine's modular precheck asks whether thread-modular model
 * checking — over each group of threads as one — reaches an error.
 */
import type { Program } from '../frontend/program.js';
import { checkModular } from './modular.js';

export interface FixpointAnswer {
  /** The fixpoint reaches an error location. */
  readonly errorReachable: boolean;
  /** The search finished within its bounds. */
  readonly complete: boolean;
}

/**
 * Flanagan–Qadeer thread-modular model checking (modular.ts) of `p`, each group of
 * `groups` explored as one thread (default: every thread alone), within `maxStates`
 * and by `deadline` (performance.now()).
 */
export function threadModularFixpoint(p: Program, bounds: { maxStates: number; deadline: number }, groups?: readonly (readonly number[])[]): FixpointAnswer {
  const r = checkModular(p, bounds, groups);
  return { errorReachable: r.errorReachable, complete: r.complete };
}

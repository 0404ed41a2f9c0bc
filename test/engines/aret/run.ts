/** The ARET engine on a program file, with solvers closed after the file's tests. */
import { afterAll } from 'vitest';
import { loadProgram } from '../../../frontend/index.js';
import { verify, type VerifyOptions } from '../../../engines/aret/verify.js';
import { Budget } from '../../../core/budget.js';
import type { HornSolverChoice } from '../../../engines/aret/horn/solve.js';
import type { Bias } from '../../../engines/aret/refine.js';
import { createSolver } from '../../../solver/select.js';
import type { SmtSolver } from '../../../solver/smt.js';

const solvers: SmtSolver[] = [];
afterAll(async () => {
  for (const s of solvers) await s.close();
});

/** A new solver (the default back end), closed after the file's tests. */
export const solver = (): SmtSolver => {
  const s = createSolver('auto');
  solvers.push(s);
  return s;
};

/** `verify` on a file: at most 200 rounds and 120 s unless `more` says otherwise. */
export const run = (file: string, bias: Bias, hornSolver: HornSolverChoice = 'spacer', more: Partial<VerifyOptions> = {}) =>
  verify(loadProgram(file), solver(), { bias, hornSolver, maxIterations: 200, checker: solver, budget: new Budget({ deadline: performance.now() + 120_000 }), ...more });

/** The bmc engine as the registry sees it (core/engine.ts). */
import type { SolverChoice } from '../../solver/select.js';
import { withSolvers, type Engine } from '../../core/engine.js';
import { parseCount, solverOption } from '../../core/options.js';
import { bmcReport } from './report.js';
import { verifyBmc, type BmcStats } from './verify.js';

export interface BmcEngineOptions {
  maxDepth?: number;
  solver: SolverChoice;
}

export const bmcEngine: Engine<BmcEngineOptions, null, BmcStats> = {
  name: 'bmc',
  description: 'bounded model checking: is an error reachable within k steps of the product program, for k = 2, 4, 8, … (finds bugs, proves nothing)',
  decides: 'assertions',
  lowering: 'inline',
  options: {
    maxDepth: { flags: '--max-depth <K>', description: 'the longest trace to look for, in steps (default: until the time limit)', parse: parseCount },
    solver: solverOption,
  },
  run: (p, o, ctx) => withSolvers(o.solver, p, ctx, (solver, run) => verifyBmc(p, solver, { ...run, maxDepth: o.maxDepth })),
  report: bmcReport,
};

/** The bmc engine as the registry sees it (core/engine.ts). */
import { SolverPool, type SolverChoice } from '../../solver/select.js';
import type { Engine } from '../../core/engine.js';
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
  lowering: 'inline',
  options: {
    maxDepth: { flags: '--max-depth <K>', description: 'the longest trace to look for, in steps (default: until the time limit)', parse: parseCount },
    solver: solverOption,
  },
  async run(p, o, ctx) {
    const solvers = new SolverPool(o.solver, { stop: ctx.budget.signal, nice: ctx.nice, limits: ctx.budget.solverLimits() });
    try {
      const solver = solvers.open();
      const verdict = await verifyBmc(p, solver, {
        budget: ctx.budget,
        maxDepth: o.maxDepth,
        onInternalError: (message) => ctx.log.error({ file: p.file }, message),
      });
      return { verdict, backend: solver.backendName };
    } finally {
      await solvers.closeAll();
    }
  },
  report: bmcReport,
};

/** The thread-modular engine as the registry sees it (core/engine.ts). */
import { SolverPool, type SolverChoice } from '../solver/select.js';
import type { Engine } from '../core/engine.js';
import { solverOption } from '../core/options.js';
import { threadModularSmt2, type ThreadModularProof } from './encode.js';
import { threadModularReport } from './report.js';
import { verifyThreadModular, type ThreadModularStats } from './verify.js';

export interface ThreadModularEngineOptions {
  solver: SolverChoice;
}

export const threadModularEngine: Engine<ThreadModularEngineOptions, ThreadModularProof, ThreadModularStats> = {
  name: 'thread-modular',
  description: "proofs only: one invariant per thread over the globals and its own locals (Owicki–Gries, Flanagan–Qadeer's rule) by one Spacer query; threads created without a bound are proved for any number of instances",
  lowering: 'inline',
  templates: true,
  options: { solver: solverOption },
  async run(p, o, ctx) {
    const solvers = new SolverPool(o.solver, { stop: ctx.budget.signal, nice: ctx.nice });
    try {
      const solver = solvers.open();
      const verdict = await verifyThreadModular(p, solver, {
        checker: () => solvers.open(), // independent of the solver Spacer ran in
        budget: ctx.budget,
        onInternalError: (message) => ctx.log.error({ file: p.file }, message),
      });
      return { verdict, backend: solver.backendName };
    } finally {
      await solvers.closeAll();
    }
  },
  certificate: threadModularSmt2,
  report: threadModularReport,
};

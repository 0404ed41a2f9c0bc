/** The monolithic baseline as the registry sees it (core/engine.ts). */
import { SolverPool, type SolverChoice } from '../solver/select.js';
import type { Engine } from '../core/engine.js';
import { solverOption } from '../core/options.js';
import { invariantSmt2, type InvariantProof } from './proof.js';
import { monolithicReport } from './report.js';
import { verifyMonolithic, type MonolithicStats } from './verify.js';

export interface MonolithicEngineOptions {
  solver: SolverChoice;
}

export const monolithicEngine: Engine<MonolithicEngineOptions, InvariantProof, MonolithicStats> = {
  name: 'monolithic',
  description: 'the baseline: one Spacer query for one inductive invariant of the product program of all threads',
  lowering: 'inline',
  options: { solver: solverOption },
  async run(p, o, ctx) {
    const solvers = new SolverPool(o.solver, { stop: ctx.budget.signal, nice: ctx.nice });
    try {
      const solver = solvers.open();
      const verdict = await verifyMonolithic(p, solver, {
        checker: () => solvers.open(), // independent of the solver Spacer ran in
        budget: ctx.budget, // one Spacer query is the whole method: it may take all the time left
        onInternalError: (message) => ctx.log.error({ file: p.file }, message),
      });
      return { verdict, backend: solver.backendName };
    } finally {
      await solvers.closeAll();
    }
  },
  certificate: invariantSmt2,
  report: monolithicReport,
};

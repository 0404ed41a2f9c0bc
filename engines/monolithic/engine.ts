/** The monolithic baseline as the registry sees it (core/engine.ts). */
import type { SolverChoice } from '../../solver/select.js';
import { withSolvers, type Engine } from '../../core/engine.js';
import { solverOption } from '../../core/options.js';
import { invariantSmt2, type InvariantProof } from './proof.js';
import { monolithicReport } from './report.js';
import { verifyMonolithic, type MonolithicStats } from './verify.js';

export interface MonolithicEngineOptions {
  solver: SolverChoice;
}

export const monolithicEngine: Engine<MonolithicEngineOptions, InvariantProof, MonolithicStats> = {
  name: 'monolithic',
  description: 'the baseline: one Spacer query for one inductive invariant of the product program of all threads',
  decides: 'assertions',
  lowering: 'inline',
  options: { solver: solverOption },
  // One Spacer query is the whole method: it may take all the time left.
  run: (p, o, ctx) => withSolvers(o.solver, p, ctx, (solver, run) => verifyMonolithic(p, solver, run)),
  certificate: invariantSmt2,
  report: monolithicReport,
};

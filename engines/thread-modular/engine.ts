/** The thread-modular engine as the registry sees it (core/engine.ts). */
import type { SolverChoice } from '../../solver/select.js';
import { withSolvers, type Engine } from '../../core/engine.js';
import { solverOption } from '../../core/options.js';
import { threadModularSmt2, type ThreadModularProof } from './encode.js';
import { threadModularReport } from './report.js';
import { verifyThreadModular, type ThreadModularStats } from './verify.js';

export interface ThreadModularEngineOptions {
  solver: SolverChoice;
}

export const threadModularEngine: Engine<ThreadModularEngineOptions, ThreadModularProof, ThreadModularStats> = {
  name: 'thread-modular',
  description: "proofs only: one invariant per thread over the globals and its own locals (Owicki–Gries, Flanagan–Qadeer's rule) by one Spacer query; threads created without a bound are proved for any number of instances",
  decides: 'assertions',
  lowering: 'inline',
  templates: true,
  options: { solver: solverOption },
  run: (p, o, ctx) => withSolvers(o.solver, p, ctx, (solver, run) => verifyThreadModular(p, solver, run)),
  certificate: threadModularSmt2,
  report: threadModularReport,
};

/** How the bmc engine's results read: how deep it looked. */
import type { EngineReport, RunInfo } from '../../core/engine.js';
import { solverLine } from '../../core/statistics.js';
import type { BmcStats } from './verify.js';

export const bmcReport: EngineReport<object, null, BmcStats> = {
  proof: () => 'proof: none (bounded model checking proves no program safe)',
  stats: (s: BmcStats, run: RunInfo<object>) => [
    `engine: bmc, the product program unrolled; ${s.errorFreeDepth === null ? 'no depth decided' : `no error within ${s.errorFreeDepth} steps`}`,
    solverLine(run.backend, s.solver, true),
  ],
};

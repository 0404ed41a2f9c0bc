/** How the bmc engine's results read: how deep it looked. */
import type { EngineReport, RunInfo } from '../../core/engine.js';
import type { BmcStats } from './verify.js';

const ms = (x: number) => `${Math.round(x)} ms`;

export const bmcReport: EngineReport<object, null, BmcStats> = {
  proof: () => 'proof: none (bounded model checking proves no program safe)',
  stats: (s: BmcStats, run: RunInfo<object>) =>
    [
      'statistics:',
      `  engine: bmc, the product program unrolled; ${s.errorFreeDepth === null ? 'no depth decided' : `no error within ${s.errorFreeDepth} steps`}`,
      `  solver: ${run.backend}, queries ${s.solver.queries}, ${ms(s.solver.timeMs)}`,
      `  time: ${ms(s.timeMs)}`,
    ].join('\n'),
};

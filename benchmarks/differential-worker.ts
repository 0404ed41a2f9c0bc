/**
 * A child process of `rely bench --suite differential` (differential-suite.ts): takes one
 * task over IPC, checks its programs in order, sends each ProgramCheck back, and exits.
 */
import { checkProgram, type DiffConfig } from './differential-check.js';
import type { SolverChoice } from '../solver/select.js';

export interface WorkerTask {
  readonly seed: number;
  readonly from: number;
  readonly count: number;
  readonly configs: readonly DiffConfig[];
  readonly timeoutMs: number;
  readonly solver: SolverChoice;
  /** The generator's data programs (`--data`). */
  readonly data: boolean;
  /** The generator's sync programs (`--sync`). */
  readonly sync: boolean;
}

process.once('message', async (t: WorkerTask) => {
  for (let i = t.from; i < t.from + t.count; i++) {
    const c = await checkProgram(t.seed, i, { configs: t.configs, timeoutMs: t.timeoutMs, solver: t.solver, extended: true, data: t.data, sync: t.sync });
    await new Promise<void>((resolve) => process.send!(c, () => resolve()));
  }
  process.exit(0);
});

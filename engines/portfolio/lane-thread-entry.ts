/**
 * A worker thread's side of worker-lane.ts: it runs one engine of WORKER_ENGINES on
 * the program it was sent and posts the result back, with its log records.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { pino } from 'pino';
import { Budget } from '../../core/budget.js';
import { reinternProgram } from '../../program/program.js';
import { WORKER_ENGINES } from './worker-engines.js';
import type { LaneJob, LaneMessage } from './lane-thread.js';

const job = workerData as LaneJob;
const post = (m: LaneMessage): void => parentPort!.postMessage(m);
const log = pino({ level: job.logLevel }, { write: (line: string) => post({ log: line }) });
try {
  const engine = WORKER_ENGINES.find((e) => e.name === job.engine);
  if (!engine) throw new Error(`internal: no worker engine ${job.engine}`);
  const budget = new Budget({ deadline: job.msLeft === null ? undefined : performance.now() + job.msLeft, memoryLimitMb: job.memoryLimitMb ?? undefined });
  post({ result: await engine.run(reinternProgram(job.program), job.options, { budget, log }) });
} catch (e) {
  post({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
}

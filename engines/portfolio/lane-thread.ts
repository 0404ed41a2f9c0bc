/**
 * A portfolio lane in a worker thread (lane-worker.ts is the other side). The program
 * crosses by structured clone and its terms are re-interned there; the result comes
 * back the same way. Stopping the lane terminates the thread, so a search that never
 * yields still stops at once.
 */
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { EngineResult, EngineStats, RunContext } from '../../core/engine.js';
import { Cancelled, OutOfMemory } from '../../core/errors.js';
import type { Program } from '../../program/program.js';

/** What the worker is sent. */
export interface LaneJob {
  readonly engine: string;
  readonly program: Program;
  readonly options: Record<string, unknown>;
  /** Milliseconds to the run's deadline (clocks differ between threads), null: none. */
  readonly msLeft: number | null;
  /** --max-memory (MB), null: none. */
  readonly memoryLimitMb: number | null;
  readonly logLevel: string;
}

/** What the worker posts: log lines (pino's JSON), then its result or its failure. */
export type LaneMessage = { readonly log: string } | { readonly result: EngineResult<unknown, EngineStats> } | { readonly error: string };

// Under vitest this module is the TypeScript source, which a worker cannot load: the
// worker then runs the build (`npm test` builds first).
const WORKER_SCRIPT = fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? '../../dist/engines/portfolio/lane-thread-entry.js' : './lane-thread-entry.js', import.meta.url));

/** A worker's pino record, logged again through the run's logger. */
function relog(log: Logger, line: string): void {
  const { level, msg, time: _time, pid: _pid, hostname: _host, ...fields } = JSON.parse(line) as Record<string, unknown>;
  const label = log.levels.labels[level as number] as 'error';
  log[label](fields, msg as string);
}

/** Runs `engine` (one of WORKER_ENGINES) on `p` in a worker thread, within `ctx.budget`; rejects with Cancelled when the budget's signal fires. */
export function runInWorker(engine: string, p: Program, options: Record<string, unknown>, ctx: RunContext): Promise<EngineResult<unknown, EngineStats>> {
  const { budget } = ctx;
  if (budget.signal?.aborted) return Promise.reject(new Cancelled());
  const memoryLimitMb = budget.memoryLimitMb ?? null;
  const job: LaneJob = { engine, program: p, options, msLeft: budget.deadline === undefined ? null : budget.deadline - performance.now(), memoryLimitMb, logLevel: ctx.log.level };
  return new Promise((resolve, reject) => {
    // With --max-memory the worker's heap is capped by it too: V8 stops the thread (not the process) past it.
    const worker = new Worker(WORKER_SCRIPT, { workerData: job, ...(memoryLimitMb !== null && { resourceLimits: { maxOldGenerationSizeMb: memoryLimitMb } }) });
    const end = (settle: () => void): void => {
      budget.signal?.removeEventListener('abort', stop);
      void worker.terminate();
      settle();
    };
    const stop = (): void => end(() => reject(new Cancelled()));
    budget.signal?.addEventListener('abort', stop, { once: true });
    worker.on('message', (m: LaneMessage) => {
      if ('log' in m) relog(ctx.log, m.log);
      else if ('result' in m) end(() => resolve(m.result));
      else end(() => reject(new Error(`the ${engine} lane failed: ${m.error}`)));
    });
    worker.on('error', (e) =>
      end(() =>
        reject(
          (e as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new OutOfMemory(`out of memory: the ${engine} lane's JS heap reached its limit${memoryLimitMb === null ? '' : ` of ${memoryLimitMb} MB (--max-memory)`}`)
            : e,
        ),
      ),
    );
    // After a result this is a no-op (a promise settles once).
    worker.on('exit', (code) => end(() => reject(new Error(`the ${engine} lane's worker exited (code ${code}) without a result`))));
  });
}

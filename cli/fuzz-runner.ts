/**
 * The fuzz suite's child process (benchmarks/fuzz.ts forks it; it lives with the CLI it
 * hosts, as cli/rely.js does): it runs many `rely verify` calls in a row, each as
 * `main(['verify', file, ...])` with its output captured, and answers each over IPC.
 * The CLI itself runs in a worker thread with cli/rely.js's large stack (the parser
 * and the passes recurse as deep as the input nests), and a run still going 10 s past
 * its deadline is stopped with UNKNOWN: timeout as cli/rely.js stops it, so a case
 * sees what a user's run sees. The parent (fuzz.ts) kills this process's group when a
 * case hangs (past that, 20 s of CPU time after --timeout).
 */
import { Worker, isMainThread, parentPort } from 'node:worker_threads';
import type { RunReply, RunRequest } from '../benchmarks/fuzz.js';

/** cli/rely.js's stack, in MB. */
const STACK_MB = 512;

/** cli/rely.js's grace past a run's deadline, after which it stops the CLI's worker (UNKNOWN: timeout, exit 3). */
const DEADLINE_GRACE_MS = 10_000;

if (isMainThread) {
  // The child process: a relay between the parent (IPC) and the worker, which stops a run
  // past its deadline as cli/rely.js does (the CLI announces the deadline because
  // workerData.rely is set): the case ends as a user's run would, and a fresh worker
  // takes the next.
  let worker: Worker;
  let current: { req: RunRequest; t0: number } | undefined;
  let watchdog: NodeJS.Timeout | undefined;
  const stopRun = (): void => {
    const run = current;
    if (!run) return;
    current = undefined;
    worker.removeAllListeners('exit');
    void worker.terminate();
    process.send!({ id: run.req.id, code: 3, out: `UNKNOWN: timeout (the run did not stop within ${DEADLINE_GRACE_MS / 1000} s of its deadline: stopped)\n`, err: '', ms: performance.now() - run.t0 } satisfies RunReply);
    start();
  };
  const start = (): void => {
    worker = new Worker(new URL(import.meta.url), { workerData: { rely: true }, resourceLimits: { stackSizeMb: STACK_MB }, stdout: false, stderr: false });
    worker.on('message', (m: RunReply | { kind: 'deadline'; at: number }) => {
      if ('kind' in m) {
        clearTimeout(watchdog);
        watchdog = setTimeout(stopRun, Math.max(0, m.at - Date.now()) + DEADLINE_GRACE_MS);
        return;
      }
      clearTimeout(watchdog);
      current = undefined;
      process.send!(m);
    });
    worker.on('error', (e) => {
      // The worker died (an uncaught error outside main): the parent sees the process end.
      process.stderr.write(`fuzz-runner: worker error: ${e.stack ?? e.message}\n`);
      process.exit(70);
    });
    worker.on('exit', (code) => process.exit(code === 0 ? 0 : 71));
  };
  start();
  process.on('message', (m: RunRequest | 'stop') => {
    if (m === 'stop') void worker.terminate();
    else {
      current = { req: m, t0: performance.now() };
      worker.postMessage(m);
    }
  });
  process.on('disconnect', () => void worker.terminate());
} else {
  const { main } = await import('./main.js');
  parentPort!.on('message', (m: RunRequest) => {
    void (async () => {
      let out = '';
      let err = '';
      const t0 = performance.now();
      let code: number;
      try {
        code = await main([...m.argv], { out: (s) => (out += s), err: (s) => (err += s) });
      } catch (e) {
        // main catches everything; an escape is a stack trace a user would see.
        err += `${(e as Error).stack ?? String(e)}\n`;
        code = 4;
      }
      parentPort!.postMessage({ id: m.id, code, out, err, ms: performance.now() - t0 } satisfies RunReply);
    })();
  });
}

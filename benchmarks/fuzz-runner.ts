/**
 * The fuzz suite's child process: it runs many `rely verify` calls in a row, each as
 * `main(['verify', file, ...])` with its output captured, and answers each over IPC.
 * The CLI itself runs in a worker thread with bin/rely.js's large stack (the parser
 * and the passes recurse as deep as the input nests), so a case sees what a user's
 * run sees. The parent (fuzz.ts) kills this process's group when a case hangs.
 */
import { Worker, isMainThread, parentPort } from 'node:worker_threads';

/** A case to run: the argv after `rely`. */
export interface RunRequest {
  readonly id: number;
  readonly argv: readonly string[];
}

/** Its result: the exit code and what the CLI wrote. */
export interface RunReply {
  readonly id: number;
  readonly code: number;
  readonly out: string;
  readonly err: string;
  readonly ms: number;
}

/** bin/rely.js's stack, in MB. */
const STACK_MB = 512;

if (isMainThread) {
  // The child process: a relay between the parent (IPC) and the worker.
  const worker = new Worker(new URL(import.meta.url), { resourceLimits: { stackSizeMb: STACK_MB }, stdout: false, stderr: false });
  worker.on('message', (m: RunReply) => process.send!(m));
  worker.on('error', (e) => {
    // The worker died (an uncaught error outside main): the parent sees the process end.
    process.stderr.write(`fuzz-runner: worker error: ${e.stack ?? e.message}\n`);
    process.exit(70);
  });
  worker.on('exit', (code) => process.exit(code === 0 ? 0 : 71));
  process.on('message', (m: RunRequest | 'stop') => {
    if (m === 'stop') void worker.terminate();
    else worker.postMessage(m);
  });
  process.on('disconnect', () => void worker.terminate());
} else {
  const { main } = await import('../cli/main.js');
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

#!/usr/bin/env node
// Entry point: the compiled CLI lives in dist/ (`npm run build` in a clone; the package holds it).
//
// The CLI runs in a worker thread with a large stack: the parser (ohm-js) and the passes
// over the syntax tree recurse as deep as the input nests, and a sum of 1,000 terms or
// 100 nested parentheses exhausted the main thread's default stack (about 1 MB). A
// worker's stack is set by its resourceLimits, safely (the main thread's is fixed by
// the OS); inputs nested deeper than the frontend's limits get a located error instead.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker, isMainThread } from 'node:worker_threads';

// A clone that was not built: say what to do instead of failing on a missing module.
if (!existsSync(new URL('../dist/cli/main.js', import.meta.url))) {
  process.stderr.write(`rely: the compiled CLI is missing: run \`npm run build\` in ${fileURLToPath(new URL('..', import.meta.url))}\n`);
  process.exit(4);
}
const { lastOptionValue, unknownVerdict } = await import('../dist/cli/unknown.js');

export const STACK_MB = 512;

/**
 * `--max-memory MB` as the arguments give it (the last one; the CLI itself reports a bad
 * value): it caps the worker's JS heap too, so an allocation spike stops at the limit
 * (V8 ends the thread, not the process) instead of growing until the next check.
 */
function maxMemoryMb(args) {
  const v = lastOptionValue(args, 'max-memory') ?? '';
  return /^\d+$/.test(v) && Number(v) >= 16 ? Number(v) : undefined;
}

/**
 * How long past its deadline a run may go before it is stopped from here: the engines
 * stop themselves at the deadline (a z3 that does not answer is killed 2 s after it);
 * this catches a phase that cannot look at the clock (one long match of the parser).
 */
const DEADLINE_GRACE_MS = 10_000;

/** The verdict of a run whose worker V8 stopped at its heap limit: UNKNOWN, as the CLI prints it (verify and svcomp). */
function outOfMemory(args, mb) {
  return unknown(args, `out of memory: the JS heap reached its limit${mb === undefined ? '' : ` of ${mb} MB (--max-memory)`}`);
}

/** UNKNOWN with `reason`, printed as the CLI prints it (verify and svcomp); returns the exit code. */
function unknown(args, reason) {
  const { out, code } = unknownVerdict(args, reason);
  process.stdout.write(out);
  return code;
}

if (isMainThread) {
  // A reader that stops early (`rely verify --help | head`) is not an error of ours:
  // stop quietly instead of dying with a stack trace.
  process.stdout.on('error', (e) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
  const args = process.argv.slice(2);
  const mb = maxMemoryMb(args);
  const cli = new Worker(new URL(import.meta.url), {
    argv: args,
    workerData: { rely: true },
    // The worker's stderr is a pipe: tell it whether ours is a terminal (progress lines).
    env: { ...process.env, RELY_STDERR_TTY: process.stderr.isTTY ? '1' : '0' },
    resourceLimits: { stackSizeMb: STACK_MB, ...(mb !== undefined && { maxOldGenerationSizeMb: mb }) },
  });
  cli.on('error', (e) => {
    if (e.code === 'ERR_WORKER_OUT_OF_MEMORY' && (args[0] === 'verify' || args[0] === 'svcomp')) {
      process.exitCode = outOfMemory(args, mb);
      return;
    }
    process.stderr.write(`rely: internal error: ${e.message}\n`);
    process.exitCode = 4;
  });
  // The run's deadline (cli/common.ts announceDeadline): past it and the grace, the worker is stopped.
  let watchdog;
  // A command that stops cleanly on Ctrl-C (cli/common.ts onInterrupt) asks for the first SIGINT; a second one ends the process.
  const interrupt = () => cli.postMessage({ kind: 'interrupt' });
  cli.on('message', (m) => {
    if (m?.kind === 'interrupt') {
      if (m.listen) process.once('SIGINT', interrupt);
      else process.off('SIGINT', interrupt);
      return;
    }
    if (m?.kind !== 'deadline') return;
    clearTimeout(watchdog);
    watchdog = setTimeout(() => {
      process.exitCode = unknown(args, `timeout (the run did not stop within ${DEADLINE_GRACE_MS / 1000} s of its deadline: stopped)`);
      void cli.terminate();
    }, Math.max(0, m.at - Date.now()) + DEADLINE_GRACE_MS);
  });
  cli.on('exit', (code) => {
    clearTimeout(watchdog);
    process.exitCode ??= code;
  });
} else {
  const { main } = await import('../dist/cli/main.js');
  process.exitCode = await main(process.argv.slice(2));
}

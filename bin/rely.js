#!/usr/bin/env node
// Entry point: the compiled CLI lives in dist/ (built by `npm install` via the prepare script).
//
// The CLI runs in a worker thread with a large stack: the parser (ohm-js) and the passes
// over the syntax tree recurse as deep as the input nests, and a sum of 1,000 terms or
// 100 nested parentheses exhausted the main thread's default stack (about 1 MB). A
// worker's stack is set by its resourceLimits, safely (the main thread's is fixed by
// the OS); inputs nested deeper than the frontend's limits get a located error instead.
import { Worker, isMainThread } from 'node:worker_threads';

export const STACK_MB = 512;

if (isMainThread) {
  // A reader that stops early (`rely verify --help | head`) is not an error of ours:
  // stop quietly instead of dying with a stack trace.
  process.stdout.on('error', (e) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
  const cli = new Worker(new URL(import.meta.url), {
    argv: process.argv.slice(2),
    // The worker's stderr is a pipe: tell it whether ours is a terminal (progress lines).
    env: { ...process.env, RELY_STDERR_TTY: process.stderr.isTTY ? '1' : '0' },
    resourceLimits: { stackSizeMb: STACK_MB },
  });
  cli.on('error', (e) => {
    process.stderr.write(`rely: internal error: ${e.message}\n`);
    process.exitCode = 4;
  });
  cli.on('exit', (code) => {
    process.exitCode ??= code;
  });
} else {
  const { main } = await import('../dist/cli/main.js');
  process.exitCode = await main(process.argv.slice(2));
}

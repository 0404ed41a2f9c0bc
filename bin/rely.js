#!/usr/bin/env node
// Entry point: the compiled CLI lives in dist/ (built by `npm install` via the prepare script).
import { main } from '../dist/cli/main.js';

// A reader that stops early (`rely verify --help | head`) is not an error of ours:
// stop quietly instead of dying with a stack trace.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});

process.exitCode = await main(process.argv.slice(2));

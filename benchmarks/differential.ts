/**
 * The differential check of test/differential.test.ts on as many programs as wanted:
 * random programs (generate-programs.ts), each explored exhaustively and verified
 * (by the ARET engine under each bias; with --auto also by the default portfolio);
 * a verdict that contradicts exploration is a soundness bug.
 *
 *   node dist/benchmarks/differential.js --seed S --count N [--from K] [--bias modular|none|both] [--auto]
 *        [--timeout-ms T] [--max-iterations M] [--horn-solver spacer|linear|auto] [--out-dir DIR] [--batch B] [--verbose]
 *
 * Prints one line per contradiction (the program is written to DIR, default /tmp) and
 * the summary; exit code 1 when there was a contradiction.
 *
 * Programs run in child processes of B programs each (default 50; 0 = all in this
 * process): terms are hash-consed in a global table that is never freed, so one process
 * grows by megabytes per verify run and would run out of heap after a few hundred.
 * A child that dies (out of memory, a crash) is reported with the program it was on,
 * and the run goes on after that program.
 */
import { fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createSolver } from '../solver/select.js';
import type { Bias } from '../aret/refine.js';
import type { HornSolverChoice } from '../horn/solve.js';
import { DiffSummary, checkProgram, contradictionReport, type CheckOptions, type ProgramCheck } from './differential-check.js';

interface Args {
  seed: number;
  count: number;
  from: number;
  biases: Bias[];
  bias: string;
  auto: boolean;
  hornSolver: HornSolverChoice;
  timeoutMs: number;
  maxIterations: number;
  outDir: string;
  batch: number;
  verbose: boolean;
  worker: boolean;
}

function usage(message: string): never {
  console.error(`differential: ${message}`);
  process.exit(2);
}

function parse(): Args {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string' },
      count: { type: 'string' },
      from: { type: 'string' },
      bias: { type: 'string' },
      auto: { type: 'boolean' },
      'timeout-ms': { type: 'string' },
      'max-iterations': { type: 'string' },
      'horn-solver': { type: 'string' },
      'out-dir': { type: 'string' },
      batch: { type: 'string' },
      verbose: { type: 'boolean' },
      worker: { type: 'boolean' },
    },
  });
  const int = (name: keyof typeof values, fallback: number): number => {
    const v = values[name];
    if (v === undefined) return fallback;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) usage(`--${name}: a non-negative integer, got '${v}'`);
    return n;
  };
  const bias = values.bias ?? 'modular';
  if (!['modular', 'none', 'both'].includes(bias)) usage(`--bias: modular, none or both, got '${bias}'`);
  const hornSolver = values['horn-solver'] ?? 'spacer';
  if (!['spacer', 'linear', 'auto'].includes(hornSolver)) usage(`--horn-solver: spacer, linear or auto, got '${hornSolver}'`);
  return {
    seed: int('seed', 1),
    count: int('count', 100),
    from: int('from', 0),
    bias,
    biases: bias === 'both' ? ['modular', 'none'] : [bias as Bias],
    auto: values.auto ?? false,
    hornSolver: hornSolver as HornSolverChoice,
    timeoutMs: int('timeout-ms', 10_000),
    maxIterations: int('max-iterations', 50),
    outDir: values['out-dir'] ?? '/tmp',
    batch: int('batch', 50),
    verbose: values.verbose ?? false,
    worker: values.worker ?? false,
  };
}

/** Checks programs from..from+count-1 in this process, handing each result to `report`. */
async function checkRange(a: Args, from: number, count: number, report: (c: ProgramCheck) => void): Promise<void> {
  const solver = createSolver('auto');
  const opts: CheckOptions = { solver, biases: a.biases, auto: a.auto, timeoutMs: a.timeoutMs, maxIterations: a.maxIterations, hornSolver: a.hornSolver };
  try {
    for (let i = from; i < from + count; i++) report(await checkProgram(a.seed, i, opts));
  } finally {
    await solver.close();
  }
}

/** Runs programs from..from+count-1 in a child process; resolves with the index after the last one it finished. */
function checkInChild(a: Args, from: number, count: number, report: (c: ProgramCheck) => void): Promise<number> {
  const args = ['--worker', '--seed', `${a.seed}`, '--from', `${from}`, '--count', `${count}`, '--bias', a.bias, ...(a.auto ? ['--auto'] : [])];
  args.push('--timeout-ms', `${a.timeoutMs}`, '--max-iterations', `${a.maxIterations}`, '--horn-solver', a.hornSolver);
  return new Promise((resolve) => {
    let next = from;
    const child = fork(fileURLToPath(import.meta.url), args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.on('message', (c: ProgramCheck) => {
      report(c);
      next = c.index + 1;
    });
    child.on('exit', (code, signal) => {
      if (next < from + count) console.log(`CRASH seed ${a.seed} program ${next}: the worker exited (${signal ?? `code ${code}`}) while checking it`);
      resolve(next);
    });
  });
}

async function main(): Promise<number> {
  const a = parse();
  if (a.worker) {
    await checkRange(a, a.from, a.count, (c) => process.send!(c));
    return 0;
  }
  console.log(`differential: seed ${a.seed}, programs ${a.from}..${a.from + a.count - 1}, bias ${a.bias}, Horn solver ${a.hornSolver}, timeout ${a.timeoutMs} ms`);
  const summary = new DiffSummary();
  let crashes = 0;
  const report = (c: ProgramCheck): void => {
    summary.add(c);
    if (a.verbose)
      console.log(
        `#${c.index} ${c.skipped ? `skipped (${c.skipped})` : c.expected} ` +
          c.runs.map((r) => `${r.config}: ${r.verdict}${r.reasonClass ? ` (${r.reasonClass})` : ''} ${r.timeMs.toFixed(0)} ms`).join(', '),
      );
    for (const r of c.runs) {
      if (r.verdict === 'exception') console.log(`EXCEPTION seed ${a.seed} program ${c.index} bias ${r.config}: ${r.reason}`);
      if (!r.contradiction) continue;
      const file = join(a.outDir, `rely-diff-${a.seed}-${c.index}-${r.config}.c`);
      writeFileSync(file, c.source);
      console.log(`${contradictionReport(c, r).split('\n')[0]} -- program: ${file}`);
    }
  };
  const end = a.from + a.count;
  if (a.batch === 0) await checkRange(a, a.from, a.count, report);
  else
    for (let i = a.from; i < end; ) {
      const stop = Math.min(i + a.batch, end);
      const next = await checkInChild(a, i, stop - i, report);
      if (next < stop) crashes++; // program `next` crashed the worker: go on after it
      i = next < stop ? next + 1 : stop;
    }
  console.log(summary.line(a.seed) + (crashes ? `; ${crashes} worker crashes` : ''));
  return summary.contradictions.length > 0 || crashes > 0 ? 1 : 0;
}

process.exitCode = await main();

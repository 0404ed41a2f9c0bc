/**
 * `rely bench --suite differential --count N --seed S`: generated programs (the
 * generator's extended programs: mutexes, atomic sections, joins, arrays, calls,
 * nondet values, loops, `%`; with `--data` also structs, a union, run-time indices and
 * pointers to cells and structs; with `--sync` condition variables, rwlocks, a barrier,
 * a semaphore, trylock, a spinlock and atomic counters), each explored exhaustively and decided by every
 * configuration of the engine registry (differential-check.ts). Reports per
 * configuration: agreements, UNKNOWN by reason, contradictions, exceptions. Any
 * contradiction, exception or crashed worker fails the command (exit 1) and prints
 * the program.
 *
 * Programs run in child processes (differential-worker.ts) of BATCH programs each,
 * `--jobs` at a time: terms are hash-consed in a table that is never freed, so one
 * process grows with every run. A child is its own process group, so a hung one is
 * killed together with its native z3 processes; the program it was on is reported.
 */
import { fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DiffSummary, contradictionReport, diffConfigs, type ProgramCheck } from './differential-check.js';
import type { WorkerTask } from './differential-worker.js';
import { indexRanges, type SuiteIo, type SuiteRun } from './suite-run.js';

const BATCH = 20;
const DEFAULT_COUNT = 100;
const DEFAULT_SEED = 1;
const DEFAULT_TIMEOUT_S = 5;
/** How long past every configuration's limit a program may take before its worker counts as hung. */
const HANG_GRACE_MS = 60_000;

const WORKER = fileURLToPath(new URL('./differential-worker.js', import.meta.url));

/** Runs programs from..from+count-1 in one child; resolves with the index after the last program it reported. */
function runBatch(task: WorkerTask, onCheck: (c: ProgramCheck) => void, onCrash: (index: number, why: string) => void): Promise<void> {
  const end = task.from + task.count;
  const perProgramMs = task.configs.length * task.timeoutMs + HANG_GRACE_MS;
  return new Promise((resolve) => {
    let next = task.from;
    let hung = false;
    const child = fork(WORKER, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], detached: true });
    let watchdog: NodeJS.Timeout;
    const arm = (): void => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => {
        hung = true;
        try {
          process.kill(-child.pid!, 'SIGKILL'); // its z3 processes too
        } catch {
          child.kill('SIGKILL');
        }
      }, perProgramMs);
    };
    arm();
    child.on('message', (c: ProgramCheck) => {
      onCheck(c);
      next = c.index + 1;
      arm();
    });
    child.on('exit', (code, signal) => {
      clearTimeout(watchdog);
      if (next < end) {
        onCrash(next, hung ? `no answer within ${perProgramMs / 1000} s: killed` : `the worker exited (${signal ?? `code ${code}`})`);
        // The programs after the one it was on still get checked.
        if (next + 1 < end) return void runBatch({ ...task, from: next + 1, count: end - next - 1 }, onCheck, onCrash).then(resolve);
      }
      resolve();
    });
    child.send(task);
  });
}

export async function differentialSuite(run: SuiteRun, io: SuiteIo): Promise<number> {
  const seed = run.seed ?? DEFAULT_SEED;
  const from = run.from ?? 0;
  const count = run.count ?? DEFAULT_COUNT;
  const timeoutMs = (run.timeoutS ?? DEFAULT_TIMEOUT_S) * 1000;
  const data = run.data === true;
  const sync = run.sync === true;
  const flags = `${data ? ' --data' : ''}${sync ? ' --sync' : ''}`;
  const kinds = [data ? 'data' : '', sync ? 'sync' : ''].filter((k) => k).join(' and ');
  let configs;
  try {
    configs = diffConfigs(run.engines);
  } catch (e) {
    io.err(`rely bench: ${(e as Error).message}\n`);
    return 2;
  }
  const keys = configs.map((c) => c.key);
  io.out(`differential${kinds ? ` (${kinds} programs)` : ''}: seed ${seed}, programs ${from}..${from + count - 1}, ${configs.length} configurations (${keys.join(', ')}), ${timeoutMs / 1000} s per run, solver ${run.solver}, ${run.jobs} job${run.jobs === 1 ? '' : 's'}\n`);
  mkdirSync(run.out, { recursive: true });
  const summary = new DiffSummary();
  const crashes: string[] = [];
  const checked: number[] = [];
  const onCheck = (c: ProgramCheck): void => {
    summary.add(c);
    checked.push(c.index);
    for (const r of c.runs) {
      if (r.verdict === 'exception') io.out(`EXCEPTION seed ${seed} program ${c.index} ${r.config}: ${r.reason}\n`);
      if (!r.contradiction) continue;
      const file = join(run.out, `contradiction-${seed}-${c.index}-${r.config}.c`);
      writeFileSync(file, c.source);
      io.out(`${contradictionReport(c, r)}\n(program written to ${file})\n`);
    }
    if (summary.programs % 50 === 0) {
      io.err(`${summary.line(seed)}\n`);
      record(false);
    }
  };
  const summaryLine = (): string => summary.line(seed) + (crashes.length ? `; ${crashes.length} worker crashes` : '');
  /** results.md and results.json of the programs checked so far: a long run that is stopped keeps its record. */
  const record = (finished: boolean): void => {
    const md = [
      `# rely bench --suite differential${flags} --seed ${seed} --from ${from} --count ${count}`,
      '',
      `${new Date().toISOString().slice(0, 10)}; ${timeoutMs / 1000} s per run; solver ${run.solver}; ${run.jobs} job${run.jobs === 1 ? '' : 's'}.` +
        (finished ? '' : ` **Not finished: ${summary.programs} of ${count} programs checked.**`),
      '',
      `Programs checked: ${indexRanges(checked) || 'none'}.`,
      '',
      summaryLine(),
      '',
      summary.table(),
      '',
      ...crashes,
      ...summary.exceptions.map((e) => `exception: ${e.split('\n')[0]}`),
      ...summary.contradictions.map((c) => c.split('\n')[0]),
      '',
    ].join('\n');
    writeFileSync(join(run.out, 'results.md'), md);
    const perConfig = Object.fromEntries([...summary.perConfig].map(([k, v]) => [k, { ...v, unknown: Object.fromEntries(v.unknown) }]));
    const json = { seed, data, sync, from, count, checked: summary.programs, checkedRanges: indexRanges(checked), finished, timeoutS: timeoutMs / 1000, solver: run.solver, configs: keys, perConfig, crashes, contradictions: summary.contradictions.length, exceptions: summary.exceptions.length };
    writeFileSync(join(run.out, 'results.json'), JSON.stringify(json, null, 2) + '\n');
  };
  const onCrash = (index: number, why: string): void => {
    const line = `CRASH seed ${seed} program ${index}: ${why}`;
    crashes.push(line);
    io.out(`${line}\n`);
  };
  const batches: WorkerTask[] = [];
  for (let i = from; i < from + count; i += BATCH) batches.push({ seed, from: i, count: Math.min(BATCH, from + count - i), configs, timeoutMs, solver: run.solver, data, sync });
  const lane = async (): Promise<void> => {
    for (let b = batches.shift(); b; b = batches.shift()) await runBatch(b, onCheck, onCrash);
  };
  await Promise.all(Array.from({ length: Math.max(1, run.jobs) }, lane));

  record(true);
  io.out(`${summaryLine()}\n\n${summary.table()}\n`);
  return summary.contradictions.length > 0 || summary.exceptions.length > 0 || crashes.length > 0 ? 1 : 0;
}

/**
 * `rely bench --suite fuzz`: --count inputs of --seed (fuzz-gen.ts: programs
 * generated from the dialect's grammar, bundled programs mutated), each through
 * `rely verify`. The property: every run ends with exit 0, 1, 2 or 3; exit 2 with one
 * located line (`file:line:col: error|unsupported: …`); never an internal error, a
 * stack trace, a crash or a hang. The runs go to --jobs child processes
 * (cli/fuzz-runner.ts), each running many cases in a row and replaced every RECYCLE cases
 * (hash-consed terms are never freed) or when a case passes the hang limit (its
 * process group is killed, native z3 processes included).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { indexRanges, type SuiteIo, type SuiteRun } from './suite-run.js';
import { ROOT } from './bench.js';
import { fuzzCases, type FuzzCase } from './fuzz-gen.js';

export const FUZZ_DEFAULTS = { count: 1000, seed: 1, engine: 'auto', timeoutS: 2, hangMarginS: 20 } as const;
/** Cases per child process before a fresh one. */
const RECYCLE = 100;

export type Outcome = 'ok' | 'bad-input-ok' | 'internal-error' | 'stack-trace' | 'engine-error' | 'bad-message' | 'crash' | 'hang';
export const FAILURES: readonly Outcome[] = ['internal-error', 'stack-trace', 'engine-error', 'bad-message', 'crash', 'hang'];

export interface CaseResult {
  readonly index: number;
  readonly origin: string;
  readonly how: string;
  readonly engine: string;
  readonly outcome: Outcome;
  /** The exit code, or undefined for a crash or a hang. */
  readonly code?: number;
  readonly ms: number;
  /** Why it failed: the offending stderr (trimmed), or the crash's signal. */
  readonly detail?: string;
}

const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A JavaScript stack frame, as a stack trace prints it. */
const FRAME = /^\s+at .+(\(.*:\d+:\d+\)|:\d+:\d+)$/m;
const STACK = /^\s+at .+(\(.*:\d+:\d+\)|:\d+:\d+)$|\b(?:Range|Type|Reference|Syntax|Eval|URI|Aggregate|Internal)?Error: |^Error\b/m;

/** The class of one run of `rely verify FILE`: its exit code and output. */
export function classify(file: string, code: number, out: string, err: string): { outcome: Outcome; detail?: string } {
  const lines = err.split('\n').filter((l) => l !== '');
  const warning = new RegExp(`^${esc(file)}:\\d+:\\d+: warning: `);
  const logged = lines.filter((l) => l.startsWith('{"level":'));
  const rest = lines.filter((l) => !warning.test(l) && !l.startsWith('{"level":'));
  const text = rest.join('\n');
  if (code === 4 || /internal error/i.test(text) || /internal error/i.test(out)) return { outcome: 'internal-error', detail: text || out.slice(0, 500) };
  if (STACK.test(text) || FRAME.test(out)) return { outcome: 'stack-trace', detail: text || out.slice(0, 500) };
  // --log-level error: an engine's own checks (a proof that does not re-check, a trace that does not replay) log here.
  const errors = logged.filter((l) => Number((JSON.parse(l) as { level?: number }).level ?? 0) >= 50);
  if (errors.length) return { outcome: 'engine-error', detail: errors.join('\n') };
  if (code === 2) {
    const located = new RegExp(`^${esc(file)}:\\d+:\\d+: (error|unsupported): \\S`);
    if (rest.length === 1 && located.test(rest[0])) return { outcome: 'bad-input-ok', detail: rest[0] };
    return { outcome: 'bad-message', detail: text };
  }
  if (code === 0 || code === 1 || code === 3) {
    if (rest.length) return { outcome: 'bad-message', detail: text };
    return { outcome: 'ok' };
  }
  return { outcome: 'crash', detail: `exit ${code}` };
}

/** The argv of case `c` after `rely`: what the reproduction line prints too. */
export const verifyArgv = (file: string, engine: string, timeoutS: number, solver: string): string[] => ['verify', file, '--engine', engine, '--timeout', String(timeoutS), '--solver', solver, '--log-level', 'error'];

interface Lane {
  child: ChildProcess;
  ran: number;
  stderr: string;
  pending?: { id: number; resolve: (r: RunReply | { crash: string }) => void; timer: NodeJS.Timeout };
}

/** A hang's limit on the wall clock, as a multiple of its CPU limit. */
const WALL_FACTOR = 6;

/** CPU seconds (user + system, all threads) of a process so far, from /proc; undefined where there is none. */
function cpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
const CLOCK_TICKS = 100;

/** The runner beside this module when compiled (dist/benchmarks/), else the build's (vitest runs the sources). */
const RUNNER = [fileURLToPath(new URL('../cli/fuzz-runner.js', import.meta.url)), join(ROOT, 'dist', 'cli', 'fuzz-runner.js')].find((f) => existsSync(f))!;

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

function startLane(): Lane {
  const child = fork(RUNNER, [], { detached: true, stdio: ['ignore', 'pipe', 'pipe', 'ipc'], serialization: 'advanced' });
  const lane: Lane = { child, ran: 0, stderr: '' };
  const collect = (d: Buffer) => {
    lane.stderr += d.toString('utf8');
    if (lane.stderr.length > 100_000) lane.stderr = lane.stderr.slice(-100_000);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  child.on('message', (m: RunReply) => {
    const p = lane.pending;
    if (p && p.id === m.id) {
      lane.pending = undefined;
      clearInterval(p.timer);
      p.resolve(m);
    }
  });
  child.on('exit', (code, signal) => {
    const p = lane.pending;
    if (p) {
      lane.pending = undefined;
      clearInterval(p.timer);
      // Let the last stderr arrive first.
      setTimeout(() => p.resolve({ crash: `runner exited (${signal ?? `code ${code}`})${lane.stderr ? `: ${lane.stderr.trim().slice(-2000)}` : ''}` }), 50);
    }
  });
  return lane;
}

function killLane(lane: Lane): void {
  try {
    process.kill(-lane.child.pid!, 'SIGKILL'); // the group: native z3 processes too
  } catch {
    lane.child.kill('SIGKILL');
  }
}

/** Runs one case on `lane`: its reply, a crash of the runner, or a hang. */
function ask(lane: Lane, request: RunRequest, hangS: number): Promise<RunReply | { crash: string } | 'hang'> {
  const t0 = performance.now();
  const cpu0 = cpuSeconds(lane.child.pid!);
  return new Promise((resolve) => {
    // A hang: hangS of CPU time in the runner (a loaded machine stretches the wall
    // clock, not the work), or WALL_FACTOR times that on the wall clock.
    const timer = setInterval(() => {
      const cpu = cpuSeconds(lane.child.pid!);
      const wall = (performance.now() - t0) / 1000;
      if ((cpu !== undefined && cpu0 !== undefined ? cpu - cpu0 > hangS : wall > hangS) || wall > hangS * WALL_FACTOR) {
        clearInterval(timer);
        lane.pending = undefined;
        resolve('hang');
      }
    }, 500);
    lane.pending = { id: request.id, resolve, timer };
    lane.child.send(request);
  });
}

export interface FuzzOptions {
  readonly count: number;
  readonly seed: number;
  readonly engines: readonly string[];
  readonly timeoutS: number;
  readonly hangS: number;
  readonly jobs: number;
  readonly solver: string;
  /** Where failing inputs go (and results.md), undefined: nowhere. */
  readonly out?: string;
  /** Only these indices (a failure's rerun); undefined: 0 … count-1. */
  readonly indices?: readonly number[];
  readonly onResult?: (r: CaseResult, c: FuzzCase, file: string, done: number) => void;
}

/** Runs the campaign; the results by index. */
export async function runFuzz(o: FuzzOptions): Promise<CaseResult[]> {
  const gen = fuzzCases();
  const work = mkdtempSync(join(tmpdir(), 'rely-fuzz-'));
  const indices = o.indices ?? Array.from({ length: o.count }, (_, i) => i);
  const results: CaseResult[] = [];
  let next = 0;
  let done = 0;
  let ids = 0;
  const laneLoop = async (): Promise<void> => {
    let lane: Lane | undefined;
    try {
      while (next < indices.length) {
        const index = indices[next++];
        const c = gen(o.seed, index);
        const engine = o.engines[index % o.engines.length];
        const file = join(work, `fuzz-${o.seed}-${index}${c.ext}`);
        writeFileSync(file, c.text, 'latin1');
        if (!lane || lane.ran >= RECYCLE) {
          if (lane) killLane(lane);
          lane = startLane();
        }
        lane.ran++;
        lane.stderr = '';
        const t0 = performance.now();
        const reply = await ask(lane, { id: ids++, argv: verifyArgv(file, engine, o.timeoutS, o.solver) }, o.hangS);
        let r: CaseResult;
        const base = { index, origin: c.origin, how: c.how, engine };
        if (reply === 'hang') {
          killLane(lane);
          lane = undefined;
          r = { ...base, outcome: 'hang', ms: performance.now() - t0, detail: `no answer within ${o.hangS} s of CPU time (${fmtS(performance.now() - t0)} on the wall clock)` };
        } else if ('crash' in reply) {
          lane = undefined;
          r = { ...base, outcome: 'crash', ms: performance.now() - t0, detail: reply.crash };
        } else {
          // Output the worker wrote past the captured Io (straight to the process's streams) counts as the case's.
          const { outcome, detail } = classify(file, reply.code, reply.out, reply.err + lane.stderr);
          r = { ...base, outcome, code: reply.code, ms: reply.ms, ...(detail === undefined ? {} : { detail }) };
        }
        results.push(r);
        done++;
        o.onResult?.(r, c, file, done);
        rmSync(file, { force: true });
      }
    } finally {
      if (lane) killLane(lane);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(o.jobs, indices.length)) }, laneLoop));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return results.sort((a, b) => a.index - b.index);
}

const fmtS = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** A campaign as `rely bench --suite fuzz` runs it: its settings (with the defaults filled in), its start and its failures so far. */
interface Campaign {
  readonly run: SuiteRun;
  readonly count: number;
  readonly seed: number;
  readonly from: number;
  readonly engines: readonly string[];
  readonly timeoutS: number;
  readonly hangS: number;
  readonly t0: number;
  readonly failed: { r: CaseResult; file: string }[];
}

/** The results counted by outcome, by exit code (or outcome, without one) and by origin. */
function tally(results: readonly CaseResult[]): { byOutcome: Map<string, number>; byCode: Map<string, number>; byOrigin: Map<string, number> } {
  const byOutcome = new Map<string, number>();
  const byCode = new Map<string, number>();
  const byOrigin = new Map<string, number>();
  for (const r of results) {
    byOutcome.set(r.outcome, (byOutcome.get(r.outcome) ?? 0) + 1);
    const code = r.code === undefined ? r.outcome : `exit ${r.code}`;
    byCode.set(code, (byCode.get(code) ?? 0) + 1);
    const kind = r.origin.startsWith('mutated') ? 'mutated' : 'generated';
    byOrigin.set(kind, (byOrigin.get(kind) ?? 0) + 1);
  }
  return { byOutcome, byCode, byOrigin };
}

/** Failures grouped by their message with numbers and paths blurred: one line per bug, roughly. */
function failureGroups(failed: Campaign['failed']): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  for (const { r } of failed) {
    const key = `${r.outcome}: ${(r.detail ?? '').split('\n')[0].replace(/"time":\d+,"pid":\d+,/, '').replace(/\/\S+?\.[ci]\b/g, 'FILE').replace(/\d+/g, 'N').slice(0, 160)}`;
    groups.set(key, [...(groups.get(key) ?? []), r.index]);
  }
  return groups;
}

/** results.md and results.json of the results so far (`final`: all of them) under --out; returns the summary for stdout. */
function report(k: Campaign, results: readonly CaseResult[], final: boolean): string {
  const { run, count, seed, from, engines, timeoutS, hangS, failed } = k;
  const wall = performance.now() - k.t0;
  const { byOutcome, byCode, byOrigin } = tally(results);
  const n = (o: Outcome) => byOutcome.get(o) ?? 0;
  const slowest = [...results].sort((x, y) => y.ms - x.ms)[0];
  // Answered, but later than cli/rely.js's watchdog allows (--timeout + 10 s on the wall clock).
  const late = results.filter((r) => r.outcome !== 'hang' && r.ms > (timeoutS + 10) * 1000);
  const summary = `seed ${seed}, ${results.length}${final ? '' : ` of ${count}`} cases (${[...byOrigin].map(([o, v]) => `${v} ${o}`).join(', ')}) in ${fmtS(wall)}: ${failed.length} failure(s) — ${n('internal-error')} internal errors, ${n('stack-trace')} stack traces, ${n('hang')} hangs, ${n('crash')} crashes, ${n('engine-error')} engine errors, ${n('bad-message')} bad exit-2 messages; ${n('ok')} verdicts (exit 0/1/3), ${n('bad-input-ok')} located refusals (exit 2)`;
  const codes = [...byCode].sort(([x], [y]) => x.localeCompare(y));
  const groups = failureGroups(failed);
  const md = [
    final ? '# Fuzz run' : `# Fuzz run (in progress: ${results.length} of ${count} cases)`,
    '',
    `Command: \`rely bench --suite fuzz --count ${count} --seed ${seed}${from ? ` --from ${from}` : ''}${run.engines ? ` --engine ${engines.join(',')}` : ''}${run.timeoutS !== undefined ? ` --timeout ${timeoutS}` : ''} --jobs ${run.jobs} --solver ${run.solver}\``,
    '',
    `Per case: \`rely verify FILE --engine E --timeout ${timeoutS} --solver ${run.solver} --log-level error\`; a case without an answer after ${hangS} s of CPU time in its runner process (or ${hangS * WALL_FACTOR} s on the wall clock) is a hang. Cases are drawn by fast-check from (seed, index) alone (benchmarks/fuzz-gen.ts).`,
    '',
    summary,
    '',
    `Cases run: ${indexRanges(results.map((r) => r.index)) || 'none'}.`,
    '',
    '| outcome | cases |',
    '| --- | ---: |',
    ...(['ok', 'bad-input-ok', ...FAILURES] as Outcome[]).map((o) => `| ${o} | ${n(o)} |`),
    '',
    '| exit code | cases |',
    '| --- | ---: |',
    ...codes.map(([c, v]) => `| ${c} | ${v} |`),
    '',
    `Wall time ${fmtS(wall)}; mean per case ${fmtS(results.length ? results.reduce((x, r) => x + r.ms, 0) / results.length : 0)}${slowest ? `; slowest case ${slowest.index} (${fmtS(slowest.ms)}, ${slowest.outcome})` : ''}.`,
    '',
    `Answered later than --timeout + 10 s on the wall clock (not a failure; the machine's load counts): ${late.length}${late.length ? ` (cases ${late.slice(0, 20).map((r) => `${r.index}: ${fmtS(r.ms)}`).join(', ')}${late.length > 20 ? ', …' : ''})` : ''}.`,
    '',
    ...(groups.size ? ['## Failures by message', '', '| cases | message | indices |', '| ---: | --- | --- |', ...[...groups].sort((x, y) => y[1].length - x[1].length).map(([m, ix]) => `| ${ix.length} | ${m.replace(/\|/g, '\\|').replace(/`/g, "'")} | ${ix.slice(0, 12).join(', ')}${ix.length > 12 ? ', …' : ''} |`), ''] : []),
    ...(failed.length ? ['## Failures', '', ...failed.map(({ r, file }) => `- case ${r.index} (${r.outcome}, ${r.origin}: ${r.how}): \`${(r.detail ?? '').split('\n')[0].slice(0, 200).replace(/`/g, "'")}\` — input ${relative(run.out, file)}`), ''] : []),
  ];
  mkdirSync(run.out, { recursive: true });
  writeFileSync(join(run.out, 'results.md'), md.join('\n'));
  writeFileSync(join(run.out, 'results.json'), JSON.stringify({ seed, from, count, done: results.length, doneRanges: indexRanges(results.map((r) => r.index)), final, engines, timeoutS, hangS, jobs: run.jobs, solver: run.solver, wallMs: Math.round(wall), outcomes: Object.fromEntries(byOutcome), exitCodes: Object.fromEntries(byCode), failures: failed.map(({ r }) => r) }, null, 1) + '\n');
  return [`fuzz: ${summary}`, `by exit code: ${codes.map(([c, v]) => `${c}: ${v}`).join(', ')}`, ...(slowest ? [`slowest case: ${slowest.index} (${fmtS(slowest.ms)}, ${slowest.origin})`] : [])].join('\n') + '\n';
}

/** The suite as `rely bench --suite fuzz` runs it: progress on stderr, failures written to --out, the summary, results.md. */
export async function fuzzSuite(run: SuiteRun, io: SuiteIo): Promise<number> {
  const timeoutS = run.timeoutS ?? FUZZ_DEFAULTS.timeoutS;
  const k: Campaign = {
    run,
    count: run.count ?? FUZZ_DEFAULTS.count,
    seed: run.seed ?? FUZZ_DEFAULTS.seed,
    from: run.from ?? 0,
    engines: run.engines ?? [FUZZ_DEFAULTS.engine],
    timeoutS,
    hangS: timeoutS + FUZZ_DEFAULTS.hangMarginS,
    t0: performance.now(),
    failed: [],
  };
  const { count, seed, from, engines, hangS, failed } = k;
  const failDir = join(run.out, 'failures');
  io.err(`fuzz: ${count} cases of seed ${seed}, engine ${engines.join(',')}, --timeout ${timeoutS} s (a hang after ${hangS} s of CPU time), ${run.jobs} job(s), solver ${run.solver}\n`);
  const sofar: CaseResult[] = [];
  const results = await runFuzz({
    count, seed, engines, timeoutS, hangS, jobs: run.jobs, solver: run.solver,
    indices: from ? Array.from({ length: count }, (_, i) => from + i) : undefined,
    onResult: (r, c, _file, done) => {
      sofar.push(r);
      if (FAILURES.includes(r.outcome)) {
        mkdirSync(failDir, { recursive: true });
        const kept = join(failDir, `fuzz-${seed}-${r.index}${c.ext}`);
        writeFileSync(kept, c.text, 'latin1');
        failed.push({ r, file: kept });
        io.err(`FAIL case ${r.index} of seed ${seed} (${r.outcome}; ${r.origin}: ${r.how}): ${(r.detail ?? '').split('\n')[0].slice(0, 300)}\n  reproduce: node cli/rely.js ${verifyArgv(relative(process.cwd(), kept) || kept, r.engine, timeoutS, run.solver).join(' ')}\n`);
      }
      if (done % 100 === 0 || done === count) io.err(`fuzz: ${done}/${count} cases, ${failed.length} failure(s), ${fmtS(performance.now() - k.t0)}\n`);
      // A long run leaves its numbers so far behind it, should it be stopped.
      if (done % 250 === 0 && done < count) report(k, sofar, false);
    },
  });
  io.out(report(k, results, true));
  return failed.length ? 1 : 0;
}

/**
 * The benchmark runner behind `rely bench`: every program of the manifest
 * (benchmarks/expected.json) under every configuration, each run a fresh
 * `rely verify --json` process under the time limit, its verdict checked against
 * the manifest. Results go to JSON, CSV and a Markdown table laid out like the
 * paper's Table 1 (bench-report.ts), and for Simple(n) a scaling plot with fitted
 * growth (scaling-report.ts).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { join, resolve as resolvePath } from 'node:path';
import { findZ3 } from '../solver/z3-native.js';

/** The repository root: one level up from benchmarks/, two from dist/benchmarks/. */
export const ROOT = fileURLToPath(['../', '../../'].map((rel) => new URL(rel, import.meta.url)).find((u) => existsSync(new URL('package.json', u)))!);

export type Expected = 'safe' | 'unsafe';

/** One program of benchmarks/expected.json. */
export interface ManifestEntry {
  readonly file: string;
  readonly name: string;
  /** table1: the paper's Table 1; scaling: Simple(n); extra: the §2 examples and mutants; hard: beyond Table 1; svcomp-style: SV-COMP's concurrency shapes, each with a task .yml; c-data: C data as programs use it; pthreads: the pthread, semaphore and atomic library calls; svcomp-tasks: SV-COMP's own tasks (`rely bench --tasks DIR`). */
  readonly suite: 'table1' | 'scaling' | 'extra' | 'hard' | 'svcomp-style' | 'c-data' | 'pthreads' | 'svcomp-tasks' | 'liveness' | 'ag';
  /** Arguments of this program's runs beside the configuration's (a liveness property: --ltl, --fairness). */
  readonly args?: readonly string[];
  /** Creates threads in a loop without constant bounds (any number of them). */
  readonly parameterized?: boolean;
  readonly expected: Expected;
  readonly modularProofExists: boolean | null;
  /** Fast enough for the CI regression run. */
  readonly ci?: boolean;
  readonly threader?: {
    readonly withBias: { readonly verdict: string; readonly modular: boolean; readonly timeS: number | null };
    readonly noBias: { readonly verdict: string; readonly modular: boolean; readonly timeS: number | null };
  };
  readonly loc: number;
  readonly note: string;
}

export function loadManifest(): ManifestEntry[] {
  return JSON.parse(readFileSync(join(ROOT, 'benchmarks/expected.json'), 'utf8')) as ManifestEntry[];
}

export type Suite = 'table1' | 'scaling' | 'extra' | 'hard' | 'svcomp-style' | 'c-data' | 'pthreads' | 'liveness' | 'ag' | 'ci' | 'all';

/**
 * Suites that measure how much C rely reads: there a program it cannot read (a located
 * `unsupported:` or syntax error, exit 2) is an UNKNOWN, as SV-COMP scores it and
 * `rely svcomp` answers, not a failed run; elsewhere it stays an error.
 */
const MEASURES_READING: ReadonlySet<ManifestEntry['suite']> = new Set(['c-data', 'pthreads', 'svcomp-tasks']);

/** The reason of such an UNKNOWN begins with this, then the message without its location. */
export const CANNOT_READ = 'cannot read: ';

/** n of the program named `Simple(n)`, null for any other name (its mutants included). */
export function simpleN(name: string): number | null {
  const m = /^Simple\((\d+)\)$/.exec(name);
  return m ? Number(m[1]) : null;
}

/**
 * The entries of a suite, in manifest order. The scaling suite also takes every
 * Simple(n) filed elsewhere (Simple(4) is an extra program, and the curve needs n = 4
 * too; a second entry for the same file would make its name ambiguous in the results),
 * ordered by n.
 */
export function suiteOf(entries: readonly ManifestEntry[], suite: Suite): ManifestEntry[] {
  if (suite === 'all') return [...entries];
  if (suite === 'ci') return entries.filter((e) => e.ci);
  if (suite === 'scaling') {
    const n = (e: ManifestEntry) => simpleN(e.name) ?? Infinity;
    return entries.filter((e) => e.suite === 'scaling' || simpleN(e.name) !== null).sort((a, b) => n(a) - n(b));
  }
  return entries.filter((e) => e.suite === suite);
}

/** A way to run `rely verify`: a column of the table. */
export interface Config {
  /** Column key, e.g. `aret-modular-spacer`. */
  readonly key: string;
  readonly label: string;
  readonly args: readonly string[];
}

export interface ConfigChoice {
  readonly bias: readonly ('modular' | 'none')[];
  readonly engines: readonly string[];
  readonly hornSolvers: readonly string[];
}

/**
 * The columns: the portfolio (auto) first, as the default engine (the speed-ups are
 * its); the ARET engine under each bias with the first Horn solver, each further Horn
 * solver with the bias; and every other engine once (learn twice: its two-way split and
 * the generalized decomposition).
 */
export function configs(c: ConfigChoice): Config[] {
  const out: Config[] = [];
  const [first, ...more] = c.hornSolvers;
  if (c.engines.includes('auto')) out.push({ key: 'auto', label: 'auto', args: ['--engine', 'auto'] });
  const aret = (b: string, h: string) => ['--engine', 'aret', '--bias', b, '--horn-solver', h];
  if (c.engines.includes('aret')) {
    for (const b of c.bias) out.push({ key: `aret-${b}-${first}`, label: `${b === 'modular' ? 'with bias' : 'no bias'}${first === 'spacer' ? '' : ` (${first})`}`, args: aret(b, first) });
    for (const h of more) out.push({ key: `aret-${c.bias[0]}-${h}`, label: `${c.bias[0] === 'modular' ? 'with bias' : 'no bias'} (${h})`, args: aret(c.bias[0], h) });
  }
  for (const e of c.engines.filter((x) => x !== 'aret' && x !== 'auto')) {
    out.push({ key: e, label: e, args: ['--engine', e] });
    // Cobleigh's generalized decomposition beside rely's two-way split.
    if (e === 'learn') out.push({ key: 'learn-generalized', label: 'learn (generalized)', args: ['--engine', 'learn', '--generalized'] });
  }
  return out;
}

export interface RunResult {
  readonly program: string;
  readonly config: string;
  /** safe | unsafe | unknown, or error (a crash, bad exit code or unreadable output). */
  readonly verdict: 'safe' | 'unsafe' | 'unknown' | 'error';
  readonly reason: string | null;
  readonly modular: boolean | null;
  readonly timeMs: number;
  /** Wall time of the process, start-up and parsing included. */
  readonly wallMs: number;
  readonly iterations: number | null;
  readonly predicates: number | null;
  /** States explored, by the explicit-state engines (null for the others). */
  readonly states: number | null;
  /** Guarantee entries (environment transitions) found by the thread-modular explicit engine. */
  readonly guarantee: number | null;
  /** The largest state space any one check held, by the learn engine (Cobleigh's memory measure). */
  readonly largestCheck: number | null;
  /** A definite verdict other than the manifest's. */
  readonly wrong: boolean;
  readonly hornAnsweredBy: { linear: number; spacer: number } | null;
  /** The engine whose verdict it is (a portfolio's lane; null without a verdict). */
  readonly decidedBy: string | null;
}

interface VerifyJson {
  verdict: 'safe' | 'unsafe' | 'unknown';
  reason: string | null;
  modular: boolean | null;
  timeMs: number;
  iterations?: number;
  predicates?: number;
  decidedBy?: string | null;
  stats?: { horn?: { answeredBy: { linear: number; spacer: number } }; states?: number; guarantee?: number | null; largestCheck?: number };
}

/** One `rely verify --json` process; killed 30 s past its own time limit. */
function runOne(e: ManifestEntry, c: Config, timeoutS: number, solver: string): Promise<RunResult> {
  const args = [join(ROOT, 'cli/rely.js'), 'verify', resolvePath(ROOT, e.file), '--json', '--timeout', String(timeoutS), '--solver', solver, ...(e.args ?? []), ...c.args];
  const t0 = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), (timeoutS + 30) * 1000);
    child.on('close', (code) => {
      clearTimeout(killer);
      const wallMs = performance.now() - t0;
      const base = { program: e.name, config: c.key, wallMs, iterations: null, predicates: null, states: null, guarantee: null, largestCheck: null, hornAnsweredBy: null, decidedBy: null };
      let j: VerifyJson | undefined;
      try {
        j = code === 0 || code === 1 || code === 3 ? (JSON.parse(out) as VerifyJson) : undefined;
      } catch {
        j = undefined;
      }
      if (!j) {
        const why = err.trim().split('\n')[0] || `exit code ${code}`;
        const located = /^[^\n]+?:\d+:\d+: (.+)$/.exec(why);
        if (code === 2 && located && MEASURES_READING.has(e.suite)) return resolve({ ...base, verdict: 'unknown', reason: CANNOT_READ + located[1], modular: null, timeMs: wallMs, wrong: false });
        return resolve({ ...base, verdict: 'error', reason: why, modular: null, timeMs: wallMs, wrong: false });
      }
      resolve({
        ...base,
        verdict: j.verdict,
        reason: j.reason,
        modular: j.modular ?? null,
        // An UNKNOWN before any engine ran (the deadline passed while reading) has no time of its own.
        timeMs: j.timeMs ?? wallMs,
        iterations: j.iterations ?? null,
        predicates: j.predicates ?? null,
        states: j.stats?.states ?? null,
        guarantee: j.stats?.guarantee ?? null,
        largestCheck: j.stats?.largestCheck ?? null,
        hornAnsweredBy: j.stats?.horn?.answeredBy ?? null,
        decidedBy: j.decidedBy ?? null,
        wrong: j.verdict !== 'unknown' && j.verdict !== e.expected,
      });
    });
  });
}

export interface BenchOptions {
  readonly entries: readonly ManifestEntry[];
  readonly configs: readonly Config[];
  readonly timeoutS: number;
  readonly jobs: number;
  readonly solver: string;
  /** After each run, with the count done so far. */
  readonly onResult?: (r: RunResult, done: number, total: number) => void;
}

/** Runs every (program, configuration) pair, `jobs` at a time; results in manifest order. */
export async function runBench(o: BenchOptions): Promise<RunResult[]> {
  const work = o.entries.flatMap((e) => o.configs.map((c) => ({ e, c })));
  const results: RunResult[] = new Array(work.length);
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    while (next < work.length) {
      const k = next++;
      results[k] = await runOne(work[k].e, work[k].c, o.timeoutS, o.solver);
      o.onResult?.(results[k], ++done, work.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, o.jobs) }, worker));
  return results;
}

/** Where and with what the run happened, for the results header. */
export interface Machine {
  readonly date: string;
  readonly cpus: number;
  readonly cpuModel: string;
  readonly memoryGiB: number;
  readonly node: string;
  readonly solver: string;
  readonly z3: string;
}

export function machine(solver: string): Machine {
  const z3 = findZ3();
  const native = z3 ? spawnSync(z3, ['--version'], { encoding: 'utf8' }).stdout.trim() : 'none';
  const backend = solver === 'wasm' || (solver === 'auto' && !z3) ? 'wasm (z3-solver npm package)' : `native (${native})`;
  return {
    date: new Date().toISOString(),
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    solver: backend,
    z3: native,
  };
}

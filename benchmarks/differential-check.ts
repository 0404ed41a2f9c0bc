/**
 * The differential check of one generated program (generate-programs.ts): explored
 * exhaustively, then decided by each configuration of the engine registry (every
 * engine with its defaults; the ARET engine once per bias and Horn solver); a verdict
 * that contradicts exploration is a soundness bug. test/benchmarks/differential.slow.test.ts and
 * `rely bench --suite differential` (differential-suite.ts) run it, and DiffSummary
 * counts what they saw, per configuration.
 */
import { pino } from 'pino';
import { compileProgram } from '../frontend/index.js';
import { InputError } from '../program/diagnostics.js';
import type { Program } from '../program/program.js';
import { Budget } from '../core/budget.js';
import { explore } from '../engines/state-space/explore.js';
import type { SolverChoice } from '../solver/select.js';
import { ENGINES, engineNamed, type AnyEngine } from '../engines/registry.js';
import { generateProgram } from './generate-programs.js';

export type Expected = 'safe' | 'unsafe';

/** One column of the differential check: an engine of the registry and its options. */
export interface DiffConfig {
  /** The engine's name, or `aret-<bias>-<horn solver>`. */
  readonly key: string;
  readonly engine: string;
  /** Overrides of the engine's defaults. */
  readonly options: Readonly<Record<string, unknown>>;
}

const ARET_VARIANTS: readonly DiffConfig[] = (['modular', 'none'] as const).flatMap((bias) =>
  (['spacer', 'linear'] as const).map((hornSolver) => ({ key: `aret-${bias}-${hornSolver}`, engine: 'aret', options: { bias, hornSolver } })),
);

/**
 * Options of the differential check beside an engine's defaults: BMC searches until the
 * time limit by default, and proves nothing, so every safe program would cost it the
 * whole limit; the generated programs' runs are far shorter than 64 steps.
 */
const DIFF_OPTIONS: Readonly<Record<string, Readonly<Record<string, unknown>>>> = { bmc: { maxDepth: 64 } };

/** Every configuration: each engine of the registry, the ARET engine once per bias and Horn solver. */
export const ALL_CONFIGS: readonly DiffConfig[] = ENGINES.flatMap((e) => (e.name === 'aret' ? ARET_VARIANTS : [{ key: e.name, engine: e.name, options: DIFF_OPTIONS[e.name] ?? {} }]));

/** The configurations `names` picks: an engine's name (aret: its four variants) or a configuration's key; undefined: all. */
export function diffConfigs(names?: readonly string[]): DiffConfig[] {
  if (!names) return [...ALL_CONFIGS];
  return names.flatMap((n) => {
    const picked = ALL_CONFIGS.filter((c) => c.key === n || c.engine === n);
    if (picked.length === 0) throw new Error(`no engine or configuration named '${n}' (${ALL_CONFIGS.map((c) => c.key).join(', ')})`);
    return picked;
  });
}

/** An engine's declared defaults (a `--no-…` flag defaults to true), as `rely verify` runs it, with `overrides`. */
export function engineDefaults(e: AnyEngine, overrides: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  return { ...Object.fromEntries(Object.entries(e.options).map(([k, o]) => [k, o.flags.startsWith('--no-') ? true : o.default])), ...overrides };
}

export interface RunResult {
  readonly config: string;
  readonly verdict: 'safe' | 'unsafe' | 'unknown' | 'exception';
  /** UNKNOWN's reason, or the exception's message. */
  readonly reason?: string;
  readonly reasonClass?: string;
  readonly timeMs: number;
  /** The engine said safe while an error is reachable, or unsafe while no run errs. */
  readonly contradiction: boolean;
}

export interface ProgramCheck {
  readonly seed: number;
  readonly index: number;
  readonly source: string;
  /** Why the program was not checked (frontend rejection, inexact exploration). */
  readonly skipped?: string;
  readonly expected?: Expected;
  readonly exploreMs: number;
  readonly runs: RunResult[];
}

export interface CheckOptions {
  readonly configs: readonly DiffConfig[];
  /** Each run's time limit. */
  readonly timeoutMs: number;
  /** The SMT back end of every engine that has one (default auto). */
  readonly solver?: SolverChoice;
  /** The generator's extended programs (arrays, calls, nondet values, loops, `%`). */
  readonly extended?: boolean;
  /** With them, C data: structs, a union, run-time indices, pointers to cells and structs. */
  readonly data?: boolean;
  /** With them, the synchronisation library and atomics: condition variables, rwlocks, a barrier, a semaphore, trylock, a spinlock, atomic counters. */
  readonly sync?: boolean;
}

/** A short class for an UNKNOWN reason: the engines' reasons start with what stopped them. */
export function reasonClass(reason: string): string {
  const r = reason.toLowerCase();
  if (r.includes('timeout') || r.includes('time limit')) return 'timeout';
  if (r.includes('out of memory')) return 'out of memory';
  if (r.startsWith('no verdict after')) return 'iterations';
  if (r.startsWith('horn solver:')) return 'horn-unknown';
  if (r.startsWith('solver: unknown')) return 'solver-unknown';
  if (r.includes('taught no new predicate')) return 'stuck';
  if (r.startsWith('proof check failed')) return 'proof-check-failed';
  if (r.includes('does not replay')) return 'replay-failed';
  if (r.startsWith('internal')) return 'internal';
  // Otherwise the reason's head: up to its first colon, parenthesis or digit, at most five words.
  return r.split(/[:(;,0-9]/)[0].trim().split(/\s+/).slice(0, 5).join(' ') || 'other';
}

const silent = pino({ level: 'silent' });

/** Explores program `index` of `seed` exhaustively, then decides it with each configuration and compares. */
export async function checkProgram(seed: number, index: number, opts: CheckOptions): Promise<ProgramCheck> {
  const source = generateProgram(seed, index, { extended: opts.extended, data: opts.data, sync: opts.sync });
  const file = `gen-${seed}-${index}.c`;
  const lowered = new Map<AnyEngine['lowering'], Program>();
  const program = (lowering: AnyEngine['lowering']): Program => {
    if (!lowered.has(lowering)) lowered.set(lowering, compileProgram(source, file, { calls: lowering }));
    return lowered.get(lowering)!;
  };
  let p: Program;
  try {
    p = program('inline');
  } catch (e) {
    if (e instanceof InputError) return { seed, index, source, skipped: `frontend: ${e.message}`, exploreMs: 0, runs: [] };
    throw e;
  }
  const x = explore(p);
  if (!x.complete || x.usedNondetRange)
    return { seed, index, source, skipped: x.complete ? 'exploration used the nondet range' : 'exploration incomplete', exploreMs: x.timeMs, runs: [] };
  const expected: Expected = x.errorReachable ? 'unsafe' : 'safe';
  const runs: RunResult[] = [];
  for (const c of opts.configs) runs.push(await runConfig(c, program, expected, opts));
  return { seed, index, source, expected, exploreMs: x.timeMs, runs };
}

/** One configuration on the program, as `rely verify` runs it (the registry's defaults, a fresh budget). */
async function runConfig(c: DiffConfig, program: (lowering: AnyEngine['lowering']) => Program, expected: Expected, opts: CheckOptions): Promise<RunResult> {
  const engine = engineNamed(c.engine)!;
  const options = engineDefaults(engine, { ...c.options, ...('solver' in engine.options ? { solver: opts.solver ?? 'auto' } : {}) });
  const t0 = performance.now();
  try {
    const { verdict: v } = await engine.run(program(engine.lowering), options, { budget: new Budget({ deadline: t0 + opts.timeoutMs }), log: silent });
    return {
      config: c.key,
      verdict: v.verdict,
      reason: v.verdict === 'unknown' ? v.reason : undefined,
      reasonClass: v.verdict === 'unknown' ? reasonClass(v.reason) : undefined,
      timeMs: performance.now() - t0,
      contradiction: (v.verdict === 'safe' && expected === 'unsafe') || (v.verdict === 'unsafe' && expected === 'safe'),
    };
  } catch (e) {
    // An engine crash is not a verdict: never a contradiction, but a failure of the run all the same.
    return { config: c.key, verdict: 'exception', reason: (e as Error).stack ?? String(e), reasonClass: 'exception', timeMs: performance.now() - t0, contradiction: false };
  }
}

/** The report of a contradiction: enough to reproduce it (seed, index, configuration, source). */
export function contradictionReport(c: ProgramCheck, r: RunResult): string {
  return (
    `CONTRADICTION seed ${c.seed} program ${c.index} ${r.config}: the engine says ${r.verdict}, ` +
    `exhaustive exploration says ${c.expected === 'unsafe' ? 'error reachable' : 'no error in any run'}\n` +
    `reproduce: rely bench --suite differential --seed ${c.seed} --from ${c.index} --count 1 --engine ${r.config}\n` +
    `--- program ---\n${c.source}`
  );
}

/** One configuration's counts. */
export interface ConfigCounts {
  runs: number;
  agreeSafe: number;
  agreeUnsafe: number;
  readonly unknown: Map<string, number>;
  contradictions: number;
  exceptions: number;
  timeMs: number;
}

/** Running counts over checked programs, per configuration, and the summary. */
export class DiffSummary {
  programs = 0;
  skipped = 0;
  readonly skipReasons = new Map<string, number>();
  expectedSafe = 0;
  expectedUnsafe = 0;
  /** Explored but not decided by any configuration (the caller's time budget ran out). */
  unverified = 0;
  readonly perConfig = new Map<string, ConfigCounts>();
  readonly contradictions: string[] = [];
  readonly exceptions: string[] = [];
  private readonly t0 = performance.now();

  add(c: ProgramCheck): void {
    this.programs++;
    if (c.skipped) {
      this.skipped++;
      const k = c.skipped.split(':')[0];
      this.skipReasons.set(k, (this.skipReasons.get(k) ?? 0) + 1);
      return;
    }
    if (c.expected === 'safe') this.expectedSafe++;
    else this.expectedUnsafe++;
    if (c.runs.length === 0) this.unverified++;
    for (const r of c.runs) {
      const k = this.counts(r.config);
      k.runs++;
      k.timeMs += r.timeMs;
      if (r.contradiction) {
        k.contradictions++;
        this.contradictions.push(contradictionReport(c, r));
      } else if (r.verdict === 'safe') k.agreeSafe++;
      else if (r.verdict === 'unsafe') k.agreeUnsafe++;
      else {
        k.unknown.set(r.reasonClass!, (k.unknown.get(r.reasonClass!) ?? 0) + 1);
        if (r.verdict === 'exception') {
          k.exceptions++;
          this.exceptions.push(`seed ${c.seed} program ${c.index} ${r.config}: ${r.reason}`);
        }
      }
    }
  }

  private counts(config: string): ConfigCounts {
    let k = this.perConfig.get(config);
    if (!k) this.perConfig.set(config, (k = { runs: 0, agreeSafe: 0, agreeUnsafe: 0, unknown: new Map(), contradictions: 0, exceptions: 0, timeMs: 0 }));
    return k;
  }

  /** All runs' unknowns (exceptions included). */
  static unknowns(k: ConfigCounts): number {
    return [...k.unknown.values()].reduce((a, b) => a + b, 0);
  }

  static classes(k: ConfigCounts): string {
    return [...k.unknown.entries()].sort((a, b) => b[1] - a[1]).map(([c, n]) => `${c} ${n}`).join(', ');
  }

  /** What was generated and explored. */
  programsLine(seed: number): string {
    const skips = [...this.skipReasons.entries()].map(([k, n]) => `${k} ${n}`).join(', ');
    return (
      `differential seed ${seed}: ${this.programs} programs (${this.expectedSafe} safe, ${this.expectedUnsafe} unsafe by exploration, ` +
      `${this.skipped} skipped${skips ? `: ${skips}` : ''}${this.unverified ? `, ${this.unverified} not verified: time budget` : ''})`
    );
  }

  line(seed: number): string {
    const all = [...this.perConfig.values()];
    const sum = (f: (k: ConfigCounts) => number): number => all.reduce((a, k) => a + f(k), 0);
    return (
      `${this.programsLine(seed)}, ${sum((k) => k.runs)} runs: agree-safe ${sum((k) => k.agreeSafe)}, agree-unsafe ${sum((k) => k.agreeUnsafe)}, ` +
      `unknown ${sum(DiffSummary.unknowns)}, contradictions ${this.contradictions.length}, exceptions ${this.exceptions.length}; ` +
      `engines ${(sum((k) => k.timeMs) / 1000).toFixed(1)} s, total ${((performance.now() - this.t0) / 1000).toFixed(1)} s`
    );
  }

  /** Per configuration: runs, agreements, UNKNOWN (rate and reasons), contradictions, exceptions, mean time (Markdown). */
  table(): string {
    const rows = [...this.perConfig.entries()].map(([config, k]) => {
      const unknown = DiffSummary.unknowns(k);
      const rate = k.runs ? ((100 * unknown) / k.runs).toFixed(1) : '—';
      return `| ${config} | ${k.runs} | ${k.agreeSafe} | ${k.agreeUnsafe} | ${unknown} (${rate} %) | ${DiffSummary.classes(k) || '—'} | ${k.contradictions} | ${k.exceptions} | ${k.runs ? (k.timeMs / k.runs).toFixed(0) : '—'} ms |`;
    });
    return ['| configuration | runs | agree SAFE | agree UNSAFE | UNKNOWN | UNKNOWN by reason | contradictions | exceptions | mean time |', '| --- | --- | --- | --- | --- | --- | --- | --- | --- |', ...rows].join('\n');
  }
}

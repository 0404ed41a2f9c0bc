/**
 * The differential check of one generated program (generate-programs.ts): explored
 * exhaustively, then verified by the ARET engine under each bias (and, when asked, by
 * the default portfolio); a verdict that contradicts exploration is a soundness bug. test/differential.test.ts and
 * benchmarks/differential.ts run it, and DiffSummary counts what they saw.
 */
import { compileProgram } from '../frontend/index.js';
import { InputError } from '../frontend/diagnostics.js';
import type { Program } from '../frontend/program.js';
import { Budget } from '../core/budget.js';
import { explore } from '../explicit/explore.js';
import { verify, type Verdict } from '../aret/verify.js';
import type { Bias } from '../aret/refine.js';
import type { HornSolverChoice } from '../horn/solve.js';
import type { SmtSolver } from '../solver/smt.js';
import { createSolver } from '../solver/select.js';
import { engineNamed } from '../engines/registry.js';
import { pino } from 'pino';
import { generateProgram } from './generate-programs.js';

export type Expected = 'safe' | 'unsafe';

export interface RunResult {
  /** The ARET engine's bias, or `auto`: the portfolio. */
  readonly config: Bias | 'auto';
  readonly verdict: Verdict['verdict'] | 'exception';
  /** UNKNOWN's reason, or the exception's message. */
  readonly reason?: string;
  readonly reasonClass?: string;
  readonly iterations?: number;
  readonly timeMs: number;
  /** verify said safe while an error is reachable, or unsafe while no run errs. */
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
  readonly solver: SmtSolver;
  readonly biases: readonly Bias[];
  readonly timeoutMs: number;
  readonly maxIterations?: number;
  /** REFINE's Horn solver (default spacer). */
  readonly hornSolver?: HornSolverChoice;
  /** Also run the portfolio (`--engine auto`, its defaults), with its own solvers. */
  readonly auto?: boolean;
}

/** A short class for an UNKNOWN reason (the reasons come from aret/verify.ts and aret/refine.ts). */
export function reasonClass(reason: string): string {
  if (reason.startsWith('timeout')) return 'timeout';
  if (reason.startsWith('no verdict after')) return 'iterations';
  if (reason.startsWith('Horn solver:')) return 'horn-unknown';
  if (reason.startsWith('solver: unknown')) return 'solver-unknown';
  if (reason.includes('taught no new predicate')) return 'stuck';
  if (reason.startsWith('proof check failed')) return 'proof-check-failed';
  if (reason.startsWith('a counterexample from SMT does not replay')) return 'replay-failed';
  if (reason.startsWith('internal')) return 'internal';
  return 'other';
}

/** Explores program `index` of `seed` exhaustively, then verifies it with each bias and compares. */
export async function checkProgram(seed: number, index: number, opts: CheckOptions): Promise<ProgramCheck> {
  const source = generateProgram(seed, index);
  let p: Program;
  try {
    p = compileProgram(source, `gen-${seed}-${index}.c`);
  } catch (e) {
    if (e instanceof InputError) return { seed, index, source, skipped: `frontend: ${e.message}`, exploreMs: 0, runs: [] };
    throw e;
  }
  const x = explore(p);
  if (!x.complete || x.usedNondetRange)
    return { seed, index, source, skipped: x.complete ? 'exploration used the nondet range' : 'exploration incomplete', exploreMs: x.timeMs, runs: [] };
  const expected: Expected = x.errorReachable ? 'unsafe' : 'safe';
  const runs: RunResult[] = [];
  for (const bias of opts.biases) {
    const t0 = performance.now();
    let v: Verdict;
    try {
      v = await verify(p, opts.solver, {
        bias,
        hornSolver: opts.hornSolver,
        maxIterations: opts.maxIterations ?? 50,
        budget: new Budget({ deadline: performance.now() + opts.timeoutMs }),
        hornTimeoutMs: opts.timeoutMs,
        checker: () => createSolver('auto'),
      });
    } catch (e) {
      // An engine crash is not a verdict: reported, never a contradiction.
      runs.push({ config: bias, verdict: 'exception', reason: (e as Error).stack ?? String(e), reasonClass: 'exception', timeMs: performance.now() - t0, contradiction: false });
      continue;
    }
    const contradiction = (v.verdict === 'safe' && expected === 'unsafe') || (v.verdict === 'unsafe' && expected === 'safe');
    runs.push({
      config: bias,
      verdict: v.verdict,
      reason: v.verdict === 'unknown' ? v.reason : undefined,
      reasonClass: v.verdict === 'unknown' ? reasonClass(v.reason) : undefined,
      iterations: v.stats.iterations,
      timeMs: performance.now() - t0,
      contradiction,
    });
  }
  if (opts.auto) runs.push(await checkAuto(p, expected, opts.timeoutMs));
  return { seed, index, source, expected, exploreMs: x.timeMs, runs };
}

/** The portfolio on `p`, as `rely verify` runs it (the registry's defaults). */
async function checkAuto(p: Program, expected: Expected, timeoutMs: number): Promise<RunResult> {
  const auto = engineNamed('auto')!;
  const options = Object.fromEntries(Object.entries(auto.options).map(([k, o]) => [k, k === 'maxIterations' ? 50 : o.flags.startsWith('--no-') ? true : o.default]));
  const t0 = performance.now();
  try {
    const { verdict: v } = await auto.run(p, options, { budget: new Budget({ deadline: t0 + timeoutMs }), log: pino({ level: 'silent' }) });
    return {
      config: 'auto',
      verdict: v.verdict,
      reason: v.verdict === 'unknown' ? v.reason : undefined,
      reasonClass: v.verdict === 'unknown' ? reasonClass(v.reason) : undefined,
      timeMs: performance.now() - t0,
      contradiction: (v.verdict === 'safe' && expected === 'unsafe') || (v.verdict === 'unsafe' && expected === 'safe'),
    };
  } catch (e) {
    return { config: 'auto', verdict: 'exception', reason: (e as Error).stack ?? String(e), reasonClass: 'exception', timeMs: performance.now() - t0, contradiction: false };
  }
}

/** The report of a contradiction: enough to reproduce it (seed, index, bias, source). */
export function contradictionReport(c: ProgramCheck, r: RunResult): string {
  return (
    `CONTRADICTION seed ${c.seed} program ${c.index} ${r.config === 'auto' ? 'engine auto' : `bias ${r.config}`}: verify says ${r.verdict}, ` +
    `exhaustive exploration says ${c.expected === 'unsafe' ? 'error reachable' : 'no error in any run'}\n` +
    `reproduce: node dist/benchmarks/differential.js --seed ${c.seed} --from ${c.index} --count 1 ${r.config === 'auto' ? '--auto' : `--bias ${r.config}`}\n` +
    `--- program ---\n${c.source}`
  );
}

/** Running counts over checked programs, and the summary line. */
export class DiffSummary {
  programs = 0;
  skipped = 0;
  readonly skipReasons = new Map<string, number>();
  expectedSafe = 0;
  expectedUnsafe = 0;
  /** Explored but not verified (the caller's time budget ran out). */
  unverified = 0;
  runs = 0;
  agreeSafe = 0;
  agreeUnsafe = 0;
  readonly unknown = new Map<string, number>();
  readonly contradictions: string[] = [];
  readonly exceptions: string[] = [];
  verifyMs = 0;
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
      this.runs++;
      this.verifyMs += r.timeMs;
      if (r.contradiction) this.contradictions.push(contradictionReport(c, r));
      else if (r.verdict === 'safe') this.agreeSafe++;
      else if (r.verdict === 'unsafe') this.agreeUnsafe++;
      else {
        this.unknown.set(r.reasonClass!, (this.unknown.get(r.reasonClass!) ?? 0) + 1);
        if (r.verdict === 'exception') this.exceptions.push(`seed ${c.seed} program ${c.index} ${r.config}: ${r.reason}`);
      }
    }
  }

  line(seed: number): string {
    const unknown = [...this.unknown.values()].reduce((a, b) => a + b, 0);
    const classes = [...this.unknown.entries()].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ');
    const skips = [...this.skipReasons.entries()].map(([k, n]) => `${k} ${n}`).join(', ');
    return (
      `differential seed ${seed}: ${this.programs} programs (${this.expectedSafe} safe, ${this.expectedUnsafe} unsafe by exploration, ` +
      `${this.skipped} skipped${skips ? `: ${skips}` : ''}${this.unverified ? `, ${this.unverified} not verified: time budget` : ''}), ` +
      `${this.runs} verify runs: ` +
      `agree-safe ${this.agreeSafe}, agree-unsafe ${this.agreeUnsafe}, unknown ${unknown}${classes ? ` (${classes})` : ''}, ` +
      `contradictions ${this.contradictions.length}; verify ${(this.verifyMs / 1000).toFixed(1)} s, total ${((performance.now() - this.t0) / 1000).toFixed(1)} s`
    );
  }
}

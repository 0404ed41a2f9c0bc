/** Shared test helpers: compile C text, explore it, check formulas with z3, run the CLI. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { init, killThreads } from 'z3-solver';
import { main, type Io } from '../cli/main.js';
import { compileProgram, type FrontendOptions } from '../frontend/index.js';
import type { Program } from '../program/program.js';
import { explore, type ExploreOptions, type ExploreResult } from '../engines/state-space/explore.js';
import { smtSymbol, toSmt, varsOf, type Term } from '../solver/formula.js';
import { SmtSolver } from '../solver/smt.js';
import { NativeBackend, findZ3 } from '../solver/z3-native.js';
import { WasmBackend } from '../solver/z3-wasm.js';

export const PRELUDE = '#include <pthread.h>\nextern void reach_error(void);\n';

export function lower(src: string, opts: FrontendOptions = {}): Program {
  return compileProgram(PRELUDE + src, 'test.c', opts);
}

export function run(src: string, opts: ExploreOptions & FrontendOptions = {}): ExploreResult {
  return explore(lower(src, opts), opts);
}

type Z3 = Awaited<ReturnType<typeof init>>;
let z3: Promise<Z3> | undefined;

/** Whether `formula` is valid over the integers (its negation is unsat), checked by z3. */
export async function valid(formula: Term): Promise<boolean> {
  return validSmt([...varsOf(formula)], toSmt(formula));
}

/** Whether `a ⇔ ∃ bound. b` is valid. */
export async function validIffExists(a: Term, bound: string[], b: Term): Promise<boolean> {
  const free = [...new Set([...varsOf(a), ...varsOf(b)])].filter((v) => !bound.includes(v));
  const q = `(exists (${bound.map((v) => `(${smtSymbol(v)} Int)`).join(' ')}) ${toSmt(b)})`;
  return validSmt(free, `(= ${toSmt(a)} ${q})`);
}

async function validSmt(vars: string[], formula: string): Promise<boolean> {
  const decls = vars.map((v) => `(declare-const ${smtSymbol(v)} Int)`).join('\n');
  const r = await checkSmt(`${decls}\n(assert (not ${formula}))`);
  if (r === 'unknown') throw new Error('z3 returned unknown');
  return r === 'unsat';
}

/** Satisfiability of an SMT-LIB 2 script (declarations and assertions), by z3. */
export async function checkSmt(script: string): Promise<'sat' | 'unsat' | 'unknown'> {
  z3 ??= init();
  const api = await z3;
  const ctx = api.Context('main');
  const s = new ctx.Solver();
  s.fromString(script);
  return s.check();
}

export async function stopZ3(): Promise<void> {
  if (z3) await killThreads((await z3).em);
}

/** The CLI in-process: exit code and what it wrote to stdout and stderr. */
export async function rely(argv: string[], io: Partial<Io> = {}): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (s) => (out += s), err: (s) => (err += s), ...io });
  return { code, out, err };
}

/**
 * `agree(name, src, safe)`: the explorer (exhaustive) and three engines (aret and
 * explicit-global, with monolithic for a SAFE and bmc for an UNSAFE program; or the
 * `engines` given) each give the expected verdict; the programs are written to a fresh
 * folder named after `prefix`. `nondetCells`: the program reads values that are any int (uninitialised memory), so
 * the explorer's "no error" is only within its range and the explicit engine cannot
 * prove SAFE: SAFE is then the ARET engine's word by default (the monolithic Spacer
 * lane times out on such programs today).
 */
export function verdictsAgree(prefix: string, opts: { nondetCells?: boolean; explorer?: false } = {}): (name: string, src: string, safe: boolean, engines?: readonly string[]) => Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return async (name, src, safe, engines = safe ? (opts.nondetCells ? ['aret'] : ['aret', 'monolithic', 'explicit-global']) : ['aret', 'bmc', 'explicit-global']) => {
    // `explorer: false`: a program the explorer cannot hold (arrays of run-time size); the expected verdict is the test's.
    if (opts.explorer !== false) {
      const r = run(src);
      expect(r.errorReachable, `${name}: explorer`).toBe(!safe);
      if (safe && !opts.nondetCells) expect(r.complete && !r.usedNondetRange, `${name}: explorer exhaustive`).toBe(true);
    }
    const file = join(dir, `${name}.c`);
    writeFileSync(file, PRELUDE + src);
    for (const engine of engines) {
      const out = await rely(['verify', '--engine', engine, '--json', '--timeout', '30', file]);
      expect(JSON.parse(out.out).verdict, `${name}: ${engine}`).toBe(safe ? 'safe' : 'unsafe');
    }
  };
}

/** A construct's SAFE program and the mutation `from|to` that makes it UNSAFE: [name, what it shows, program, mutation]. */
export type MutationCase = readonly [name: string, what: string, safe: string, mutation: string];

/** One test per case: the program is SAFE and its mutation UNSAFE, by `agree` (verdictsAgree). */
export function agreeOnMutations(cases: readonly MutationCase[], agree: (name: string, src: string, safe: boolean) => Promise<void>, timeoutMs?: number): void {
  for (const [name, what, src, mutation] of cases) {
    const [from, to] = mutation.split('|');
    it(`${name}: ${what}`, async () => {
      expect(src).toContain(from);
      await agree(name, src, true);
      await agree(`${name}-bug`, src.replace(from, to), false);
    }, timeoutMs);
  }
}

/** One test per case [name, program, line, message]: `rely parse` (or `verify`) refuses it with exit 2 and one `file:line:col: unsupported:` line matching the message. */
export function refusedCases(command: 'parse' | 'verify', prefix: string, cases: readonly (readonly [name: string, src: string, line: number, message: RegExp])[]): void {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const [name, src, line, message] of cases)
    it(`${name}: exit 2 and one located line`, async () => {
      const file = join(dir, `${name}.c`);
      writeFileSync(file, src);
      const r = await rely([command, file]);
      expect(r.code).toBe(2);
      expect(r.err.trimEnd()).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${line}:\\d+: unsupported: `));
      expect(r.err).toMatch(message);
      expect(r.err.trimEnd().split('\n')).toHaveLength(1);
    });
}

/**
 * The two SMT back ends as [name, a new solver, whether it runs here] (native only with a z3
 * binary), and `open`, whose solvers are closed after the file's tests.
 */
export function smtBackends(): { backends: [string, () => SmtSolver, boolean][]; open: (make: () => SmtSolver) => SmtSolver } {
  const z3 = findZ3() !== undefined;
  const opened: SmtSolver[] = [];
  afterAll(async () => {
    for (const s of opened) await s.close();
  });
  return {
    backends: [
      ['wasm', () => new SmtSolver(new WasmBackend()), true],
      ['native', () => new SmtSolver(new NativeBackend()), z3],
    ],
    open: (make) => {
      const s = make();
      opened.push(s);
      return s;
    },
  };
}

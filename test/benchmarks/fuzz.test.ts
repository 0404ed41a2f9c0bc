/**
 * Fuzzing: the classifier, the generator's reproducibility, and a regression test for
 * each crash the campaigns found. A small seeded campaign is in fuzz.slow.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { classify } from '../../benchmarks/fuzz.js';
import { fuzzCases } from '../../benchmarks/fuzz-gen.js';
import { indexRanges } from '../../benchmarks/suite-run.js';
import { PRELUDE, lower, rely } from '../helpers.js';
import { checkProof } from '../../engines/aret/proof.js';
import { InvalidSolution, solveClauses } from '../../engines/aret/horn/solve.js';
import { SolverUnknown, Timeout } from '../../core/errors.js';
import { checkInvariant } from '../../engines/monolithic/proof.js';
import { and } from '../../solver/formula.js';
import type { SmtSolver } from '../../solver/smt.js';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'rely-fuzz-test-'));
const file = (name: string, src: string): string => {
  const f = join(dir, name);
  writeFileSync(f, src);
  return f;
};

describe('the fuzz generator', () => {
  it('is a function of (seed, index): the same case twice, another seed another case', () => {
    const g = fuzzCases();
    const a = g(42, 17);
    expect(g(42, 17)).toEqual(a);
    expect(fuzzCases()(42, 17)).toEqual(a);
    expect(g(43, 17).text).not.toBe(a.text);
  });

  it('draws generated programs and mutated bundled ones', () => {
    const g = fuzzCases();
    const origins = Array.from({ length: 40 }, (_, i) => g(1, i).origin.split(':')[0]);
    expect(origins).toContain('generated');
    expect(origins).toContain('mutated');
  });
});

/**
 * `rely verify` through cli/rely.js (its watchdog included) with --timeout 2: the run must end
 * by itself, answered or refused, not be stopped by the watchdog 10 s past the deadline.
 */
const withinTimeout = (f: string, ...args: string[]): void => {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['cli/rely.js', 'verify', f, '--timeout', '2', ...args], { encoding: 'utf8', timeout: 120_000 });
  const s = (performance.now() - t0) / 1000;
  expect([0, 1, 2, 3]).toContain(r.status);
  expect(r.stdout).not.toContain('the run did not stop');
  // 2 s, the start of node and the grammar, and a margin for a loaded machine.
  expect(s).toBeLessThan(2 + 8);
};

describe('the record of what a run covered', () => {
  it('names the checked indices as ranges, in order, whatever order they finished in', () => {
    expect(indexRanges([470, 450, 451, 452, 471, 500, 469])).toBe('450..452, 469..471, 500');
    expect(indexRanges([])).toBe('');
  });
});

describe('the fuzz classifier', () => {
  const f = '/tmp/x.c';
  it('accepts verdicts with warnings and one located refusal', () => {
    expect(classify(f, 0, 'SAFE\n', `${f}:3:4: warning: something\n`).outcome).toBe('ok');
    expect(classify(f, 2, '', `${f}:3:4: error: expected ';'\n`).outcome).toBe('bad-input-ok');
    expect(classify(f, 2, '', `${f}:3:4: unsupported: operator '^' (bit operations and shifts are not modelled)\n`).outcome).toBe('bad-input-ok');
  });
  it('rejects internal errors, stack traces, engine errors and unlocated or multi-line refusals', () => {
    expect(classify(f, 4, '', 'rely: internal error: boom\n').outcome).toBe('internal-error');
    expect(classify(f, 0, 'SAFE\n', 'TypeError: x is undefined\n    at f (file:///a.js:1:2)\n').outcome).toBe('stack-trace');
    expect(classify(f, 3, 'UNKNOWN\n', '{"level":50,"msg":"invariant check failed"}\n').outcome).toBe('engine-error');
    expect(classify(f, 2, '', 'error: no location\n').outcome).toBe('bad-message');
    expect(classify(f, 2, '', `${f}:1:1: error: one\n${f}:2:1: error: two\n`).outcome).toBe('bad-message');
    // A verdict's text naming an error label is no stack trace.
    expect(classify(f, 1, 'UNSAFE\n  1. t0 ERROR: reach_error()\n', '').outcome).toBe('ok');
  });
});

describe('crashes the campaigns found', () => {
  // A divisor that is zero at run time: the frontend checks it, and zero is undefined
  // behaviour that reaches the error location, as an array index out of bounds does
  // (neither a division by zero in the explicit engines and aret's replay, a RangeError,
  // nor a quotient the SMT engines let be anything, a counterexample that does not replay).
  const DIV0 = `${PRELUDE}int x = 0;\nint y = 5;\nvoid *t(void *a) { y = y % x; return 0; }\nint main(void) { pthread_t h; pthread_create(&h, 0, t, 0); pthread_join(h, 0); return 0; }\n`;
  for (const engine of ['explicit-global', 'explicit-modular', 'aret', 'bmc', 'auto']) {
    it(`a remainder by a global that is zero: UNSAFE with --engine ${engine}, no internal error`, async () => {
      const r = await rely(['verify', file(`div0-${engine}.c`, DIV0), '--engine', engine, '--timeout', '60']);
      expect(r.err).not.toMatch(/internal error/);
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/^UNSAFE/);
    });
  }

  it('a division by a nonzero divisor known only at run time stays SAFE; by a local that may be zero, UNSAFE', async () => {
    const safe = `${PRELUDE}int x = 2;\nint y = 8;\nvoid *t(void *a) { x = 4; return 0; }\nint main(void) { pthread_t h; pthread_create(&h, 0, t, 0); y = y / x; if (y != 4 && y != 2) reach_error(); return 0; }\n`;
    const s = await rely(['verify', file('div-safe.c', safe), '--engine', 'explicit-global']);
    expect(s.code).toBe(0);
    const local = `${PRELUDE}extern int __VERIFIER_nondet_int(void);\nint y = 8;\nint main(void) { int d = __VERIFIER_nondet_int(); if (d < 0 || d > 2) return 0; y = y / d; return 0; }\n`;
    const u = await rely(['verify', file('div-local.c', local), '--engine', 'explicit-global']);
    expect(u.err).not.toMatch(/internal error/);
    expect(u.code).toBe(1);
  });

  it('a constant zero divisor reaches the error location where the division is evaluated, not elsewhere', async () => {
    const f = file('div-const.c', `${PRELUDE}int y = 8;\nint main(void) { y = y % 0; return 0; }\n`);
    const r = await rely(['verify', f]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/remainder by zero \(undefined behaviour\)/);
    const guarded = file('div-guarded.c', `${PRELUDE}int y = 8, d;\nint main(void) { y = d == 0 ? 1 : y / d; return 0; }\n`);
    expect((await rely(['verify', guarded])).code).toBe(0);
  });

  // `pthread_join();` is located; its missing first argument is never read (a TypeError: an internal error).
  it('pthread_join with no arguments: a located error', async () => {
    const f = file('join0.c', `${PRELUDE}int main(void) { pthread_join(); return 0; }\n`);
    const r = await rely(['verify', f]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`${f}:3:18: error: 'pthread_join' takes 2 argument(s), given 0\n`);
  });

  // A straight run of 3,000 steps is too much work for one block even when cut at every
  // branch: such code falls back to small blocks, and the frontend's PathExplosion never
  // escapes as an internal error. Through cli/rely.js: the nesting needs its stack.
  it('a thread body with 3,000 nested if (1): answered, no internal error', () => {
    const f = file('if1x3000.c', `${PRELUDE}int x = 0;\nvoid *t(void *a) { x = 1; ${'if (1) '.repeat(3000)}; x = 2; return 0; }\nint main(void) { pthread_t h; pthread_create(&h, 0, t, 0); if (x == 3) reach_error(); return 0; }\n`);
    const r = spawnSync(process.execPath, ['cli/rely.js', 'verify', f, '--engine', 'explicit-global', '--timeout', '60'], { encoding: 'utf8', timeout: 120_000 });
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.status).toBe(0);
  }, 120_000);

  // Small blocks fold an atomic section into one step, and its branches multiply: a
  // section past 4,096 paths runs step by step under a ghost flag (program/blocks.ts;
  // test/frontend/atomic-sections.test.ts) and is decided.
  it('an atomic section with 2^13 paths: decided, no internal error', async () => {
    const ifs = Array.from({ length: 13 }, (_, i) => `  if (x == ${i}) y = y + ${i + 1};`).join('\n');
    const f = file('atomic-paths.c', `${PRELUDE}int x, y;\nvoid *t(void *a) {\n  __VERIFIER_atomic_begin();\n${ifs}\n  __VERIFIER_atomic_end();\n  return 0;\n}\nint main(void) { pthread_t h; pthread_create(&h, 0, t, 0); x = 1; if (y == 100) reach_error(); return 0; }\n`);
    const r = await rely(['verify', f, '--timeout', '60']);
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    expect(r.out.split('\n')[0]).toBe('SAFE');
  }, 60_000);

  // Statements nested 10,001 deep without brackets are one block item: their heads are
  // read one at a time by the recursive-descent parser (frontend/parse/statements.ts),
  // which looks at the deadline at each statement (ohm-js, matching them in one go at
  // about 0.5 ms of CPU per level, could not look at the clock).
  it('10,001 nested while (0) statements: answered or refused within the time limit', () => {
    const body = `${'while (0) '.repeat(10_001)}x = 1;`;
    withinTimeout(file('nested-while.c', `${PRELUDE}int x;\nvoid *t(void *a) {\n  ${body}\n  return 0;\n}\nint main(void) { pthread_t h; pthread_create(&h, 0, t, 0); if (x == 2) reach_error(); return 0; }\n`));
  }, 120_000);

  // Nested ?: grow superlinearly (explicit-global: 100 deep 2.5 s of CPU, 300 deep 11 s,
  // 600 deep 66 s). 600 deep takes the frontend alone 15 s of CPU: the large block has a
  // path per arm, each with a temporary per level, so its frame equalities (emit in
  // program/blocks.ts) are O(n²) interned terms. The frontend looks at the deadline
  // between paths (ReadingTimeout), so the run ends at it. The slowness stays (the
  // generator draws at most 60 nested ?:).
  it('600 nested ?: answered within the time limit', () => {
    const e = `${'x == 1 ? 1 : ('.repeat(600)}0${')'.repeat(600)}`;
    withinTimeout(file('nested-ternary.c', `${PRELUDE}int x, y;\nvoid *t(void *a) {\n  y = ${e};\n  return 0;\n}\nint main(void) { pthread_t h; pthread_create(&h, 0, t, 0); x = 1; if (y == 2) reach_error(); return 0; }\n`), '--engine', 'explicit-global');
  }, 120_000);

  // chiron-single-2.c with `#define N '\xff'`: arrays of 255 cells indexed by loop
  // counters in a loop over all 255. The frontend takes about 4 s of CPU, nearly all in
  // the large blocks' paths, and looks at the deadline there.
  it('chiron-single-2.c with N = 255: answered within --timeout', () => {
    const src = readFileSync('benchmarks/programs/ag/chiron-single-2.c', 'utf8').replace('#define N 2 ', "#define N '\\xff' ");
    withinTimeout(file('chiron-255.c', src));
  }, 120_000);

  // A query's late timer may cancel native z3's next command (`push canceled`):
  // solver/z3-native.ts restarts the process with the stack replayed, and the check is
  // UNKNOWN: timeout. test/cli/limits.test.ts tests it with a proxy z3 that cancels a push.
});

describe('a Horn solution whose validation is left undecided', () => {
  // A check of Spacer's solution that runs out of time leaves it undecided, which is not
  // invalid: the run's UNKNOWN, not an internal error.
  const solver = (check: 'unknown' | 'sat') =>
    ({
      horn: async () => ({ status: 'sat', solution: new Map() }),
      check: async () => (check === 'unknown' ? { status: 'unknown', reason: 'timeout' } : { status: 'sat' }),
    }) as unknown as SmtSolver;
  const sys = { relations: [], clauses: [] };
  const opts = { hornSolver: 'spacer', timeoutMs: 10, fallbacks: {} } as const;

  it('throws SolverUnknown with the reason', async () => {
    await expect(solveClauses(sys, false, solver('unknown'), { ...opts, fallbacks: {} })).rejects.toEqual(new SolverUnknown('timeout'));
  });

  it('a solution the check refutes is still an InvalidSolution', async () => {
    await expect(solveClauses(sys, false, solver('sat'), { ...opts, fallbacks: {} })).rejects.toBeInstanceOf(InvalidSolution);
  });
});

describe("aret's proof check cut short", () => {
  // The portfolio's aret lane may re-check its proof as the run's time runs out: an
  // obligation left undecided when the run's time is up is a timeout, not a failed check.
  const p = lower('int x = 0;\nint main(void) { x = 1; return 0; }\n');
  const proof = { reach: p.threads.map(() => and()), env: p.threads.map(() => and()), modular: true };
  const checker = (answer: () => boolean | 'unknown') => ({ entails: async () => answer(), close: async () => {} }) as unknown as SmtSolver;

  it('an undecided obligation after the deadline is a Timeout', async () => {
    let late = false;
    const check = checkProof(p, proof, checker(() => ((late = true), 'unknown')), () => {
      if (late) throw new Timeout();
    });
    await expect(check).rejects.toBeInstanceOf(Timeout);
  });

  it('an undecided obligation within the time is still a failed check', async () => {
    expect(await checkProof(p, proof, checker(() => 'unknown'), () => {})).toMatch(/undecided$/);
  });
});

describe('a certificate check left undecided', () => {
  // The monolithic lane's invariant re-check may come back unknown — the portfolio stopped
  // the lane and closed its checker ("initiation undecided (z3 closed)"), or the run's time
  // ran out ("consecution … undecided (timeout)"): the solver's UNKNOWN, not an internal error.
  const p = lower('int x = 0;\nint main(void) { x = 1; return 0; }\n');
  const checker = (reason: string) => ({ check: async () => ({ status: 'unknown', reason }), close: async () => {} }) as unknown as SmtSolver;

  it('throws SolverUnknown with the reason (timeout: the engines report UNKNOWN: timeout)', async () => {
    await expect(checkInvariant(p, { kind: 'invariant', invariant: and() }, checker('timeout'))).rejects.toBeInstanceOf(SolverUnknown);
    await expect(checkInvariant(p, { kind: 'invariant', invariant: and() }, checker('z3 closed'))).rejects.toThrow(/z3 closed/);
  });
});

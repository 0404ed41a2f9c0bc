/**
 * The monolithic baseline (`rely verify --engine monolithic`, `rely emit-chc`):
 * SAFE only with an invariant a fresh solver re-checked, UNSAFE only with a trace the
 * interpreter replayed; the check rejects a wrong invariant; the certificate and the
 * emitted Horn files are answered by native z3 (sat for safe programs, unsat for
 * unsafe ones, in both encodings). Only programs Spacer settles in about a second.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProgram } from '../../../frontend/index.js';
import { FALSE, TRUE } from '../../../solver/formula.js';
import { createSolver } from '../../../solver/select.js';
import { findZ3 } from '../../../solver/z3-native.js';
import { proofObligations } from '../../../engines/aret/proof.js';
import { Budget } from '../../../core/budget.js';
import { reachEnvPremises } from '../../../core/reach-env-rule.js';
import { productSystem, reachEnvSystem } from '../../../engines/monolithic/encode.js';
import { checkInvariant } from '../../../engines/monolithic/proof.js';
import { verifyMonolithic } from '../../../engines/monolithic/verify.js';
import { rely } from '../../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'rely-mono-'));
const LOCKID = 'benchmarks/programs/lockid.c';
const DEKKER_BROKEN = 'benchmarks/programs/dekker-broken.c';

const z3 = findZ3();
const Z3_SKIP = 'no z3 binary on PATH and RELY_Z3 unset (apt-get install z3)';
if (!z3) console.warn(`monolithic tests: native z3 checks skipped: ${Z3_SKIP}`);

/** z3's answers to a script, one per check-sat (echo lines dropped). */
function z3Run(file: string): string[] {
  const r = spawnSync(z3!, [file], { encoding: 'utf8', timeout: 30_000 });
  expect(r.stderr).toBe('');
  return r.stdout.trimEnd().split('\n').filter((l) => !/: expect unsat$/.test(l));
}

const CASES: [file: string, verdict: 'safe' | 'unsafe'][] = [
  ['benchmarks/programs/lockbit.c', 'safe'],
  [LOCKID, 'safe'],
  ['benchmarks/programs/peterson.c', 'safe'],
  [DEKKER_BROKEN, 'unsafe'],
  ['benchmarks/programs/peterson-broken.c', 'unsafe'],
  ['test/fixtures/lockid-nolock.c', 'unsafe'],
  ['test/fixtures/even-mod.c', 'safe'],
];

describe('rely verify --engine monolithic', () => {
  for (const [file, verdict] of CASES)
    it(`${file}: ${verdict === 'safe' ? 'SAFE with a checked invariant' : 'UNSAFE with a replayed trace'}`, async () => {
      const r = await rely(['verify', '--engine', 'monolithic', '--json', file]);
      expect(r.err).toBe('');
      expect(r.code).toBe(verdict === 'safe' ? 0 : 1);
      const j = JSON.parse(r.out);
      expect(j).toMatchObject({
        file,
        verdict,
        reason: null,
        engine: 'monolithic',
        modular: null,
        bias: null,
        hornSolver: null,
        proofChecked: verdict === 'safe',
        traceReplayed: verdict === 'unsafe',
      });
      expect(j.stats.solver.hornQueries).toBe(1);
      if (verdict === 'safe') expect(j.stats.invariant.atoms).toBeGreaterThan(0);
      else {
        // Not the shortest trace: longer than every depth shown error-free, at most twice the depth that found it.
        expect(j.counterexample.length).toBeGreaterThan(j.stats.unrolledSteps);
        expect(j.counterexample.length).toBeLessThanOrEqual(Math.max(2, 2 * j.stats.unrolledSteps));
        expect(j.counterexample.at(-1).steps.map((s: { text: string }) => s.text).join(' ')).toMatch(/ERROR:/);
      }
    });

  it('text output names the proof and the trace', async () => {
    const safe = await rely(['verify', '--engine', 'monolithic', LOCKID]);
    expect(safe.out.split('\n')[0]).toBe('SAFE');
    expect(safe.out).toMatch(/^proof: one inductive invariant of the product program, checked by a fresh (native|wasm) solver$/m);
    expect(safe.out).toMatch(/engine: monolithic, 3 Horn clauses over one relation of \d+ variables/);
    const unsafe = await rely(['verify', '--engine', 'monolithic', 'test/fixtures/lockid-nolock.c']);
    expect(unsafe.out).toMatch(/^UNSAFE\nthread thr\d reaches its error location at test\/fixtures\/lockid-nolock\.c:(17|23)\ntrace \(3 steps, replayed in the interpreter\):/);
  });

  it('a deadline already passed: UNKNOWN: timeout', async () => {
    // (Through the CLI a tiny --timeout ends while the file is read: test/cli/verify.test.ts.)
    const solver = createSolver();
    try {
      const v = await verifyMonolithic(loadProgram(LOCKID), solver, { checker: () => createSolver(), budget: new Budget({ deadline: performance.now() - 1 }) });
      expect(v.verdict === 'unknown' && v.reason).toBe('timeout');
    } finally {
      await solver.close();
    }
  });

  it('`%` by a variable: UNKNOWN, unsupported for Spacer, located (the bmc lane of the default engine still hunts bugs there)', async () => {
    const r = await rely(['verify', '--engine', 'monolithic', 'benchmarks/programs/hard/gcd-sub-rem.c']);
    expect(r.code).toBe(3);
    expect(r.out.split('\n')[0]).toMatch(/^UNKNOWN: unsupported: nonlinear arithmetic at benchmarks\/programs\/hard\/gcd-sub-rem\.c:\d+:\d+ \(.*%.*\): Spacer takes linear clauses only$/);
  });

  it('`%` by a variable in the ARET\'s refinement clauses: UNKNOWN, unsupported, located at the transition', async () => {
    for (const [solver, name] of [['spacer', 'Spacer'], ['linear', 'SOLVELINEARHC']]) {
      const r = await rely(['verify', '--engine', 'aret', '--horn-solver', solver, 'test/fixtures/nonlinear-rem.c']);
      expect(r.code).toBe(3);
      expect(r.out.split('\n')[0]).toMatch(new RegExp(`^UNKNOWN: unsupported: nonlinear arithmetic at test/fixtures/nonlinear-rem\\.c:13:\\d+ \\(.*%.*\\): ${name} takes linear clauses only$`));
    }
  });

  it('`%` and `/` by constants go to Spacer as quotients: even-step.c is SAFE (it timed out), halve-bounded.c\'s answer with an existential is read (it was an internal error)', async () => {
    const even = await rely(['verify', '--engine', 'monolithic', '--timeout', '60', 'test/fixtures/even-step.c']);
    expect(even.out.split('\n')[0]).toBe('SAFE');
    for (const engine of ['monolithic', 'aret']) {
      const half = await rely(['verify', '--engine', engine, '--timeout', '60', 'test/fixtures/halve-bounded.c']);
      expect([engine, half.out.split('\n')[0], half.err]).toEqual([engine, 'SAFE', '']);
    }
  }, 150_000);

  it('bad --engine: exit 2', async () => {
    const r = await rely(['verify', '--engine', 'product', LOCKID]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/Allowed choices are auto, aret, bmc, monolithic/);
  });

  it('the invariant check rejects what is not an inductive invariant, naming the clause', async () => {
    const p = loadProgram(LOCKID);
    const solver = createSolver();
    try {
      const v = await verifyMonolithic(p, solver, { checker: () => createSolver() });
      if (v.verdict !== 'safe') throw new Error(`lockid: ${v.verdict}`);
      expect(await checkInvariant(p, v.proof, createSolver())).toBeUndefined();
      expect(await checkInvariant(p, { kind: 'invariant', invariant: TRUE }, createSolver())).toBe('safety does not hold');
      expect(await checkInvariant(p, { kind: 'invariant', invariant: FALSE }, createSolver())).toBe('initiation does not hold');
    } finally {
      await solver.close();
    }
  });

  it('the encodings: one consecution clause for Spacer, one check per transition; REACHENV clauses are CS1–CS5', () => {
    const p = loadProgram(LOCKID);
    const n = p.threads.reduce((k, th) => k + th.transitions.length, 0);
    expect(productSystem(p).clauses.map((c) => c.name)).toEqual(['initiation', 'consecution (any transition of any thread)', 'safety']);
    expect(productSystem(p, true).clauses).toHaveLength(n + 2);
    const sys = reachEnvSystem(p);
    expect(sys.relations.map((r) => r.name)).toEqual(['R[main]', 'E[main]', 'R[thr1]', 'E[thr1]', 'R[thr2]', 'E[thr2]']);
    // CS2 and CS4 per thread (ρ_i the disjunction of its transitions), as in Fig. 5.
    expect(sys.clauses.map((c) => c.name)).toEqual([
      ...['main', 'thr1', 'thr2'].flatMap((t) => {
        const others = ['main', 'thr1', 'thr2'].filter((o) => o !== t);
        return [`CS1 (thread ${t})`, `CS3 (thread ${t})`, `CS2 (thread ${t})`, ...others.map((o) => `CS4 (${t} into E of ${o})`)];
      }),
      'CS5',
    ]);
    expect(sys.clauses.at(-1)!.body).toHaveLength(3); // CS5: one atom per thread
    // The per-transition premises are the ones the ARET engine's proofs are checked against.
    const proof = { reach: p.threads.map(() => TRUE), env: p.threads.map(() => TRUE), modular: true };
    const u = { reach: (i: number) => proof.reach[i], reachPost: (i: number) => proof.reach[i], env: (i: number) => proof.env[i] };
    expect(reachEnvPremises(p, u).map((c) => c.name)).toEqual(proofObligations(p, proof).map((o) => o.name));
  });
});

describe('rely emit-chc', () => {
  it('writes SMT-LIB 2 HORN to stdout; bad input is a located error (exit 2)', async () => {
    const r = await rely(['emit-chc', LOCKID]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^; rely constrained Horn clauses \(monolithic encoding\) for benchmarks\/programs\/lockid\.c\n/);
    expect(r.out).toMatch(/^\(set-logic HORN\)$/m);
    expect(r.out.trimEnd().endsWith('(check-sat)')).toBe(true);

    const bad = join(dir, 'bad.c');
    writeFileSync(bad, 'int main() {\n  int x = ;\n}\n');
    const b = await rely(['emit-chc', '--encoding', 'reachenv', bad]);
    expect(b.code).toBe(2);
    expect(b.out).toBe('');
    expect(b.err).toBe(`${bad}:2:11: error: syntax error: unexpected ';'\n`);
    expect((await rely(['emit-chc', '--encoding', 'cs', LOCKID])).code).toBe(2);
  });

  describe.skipIf(!z3)('answered by native z3', () => {
    for (const encoding of ['monolithic', 'reachenv'])
      for (const [file, answer] of [
        [LOCKID, 'sat'],
        [DEKKER_BROKEN, 'unsat'],
      ])
        it(`${encoding} ${file}: ${answer}`, async () => {
          const out = join(dir, `${encoding}-${file.replace(/\W/g, '_')}.smt2`);
          const r = await rely(['emit-chc', '--encoding', encoding, file, '-o', out]);
          expect(r).toMatchObject({ code: 0, out: '', err: '' });
          expect(readFileSync(out, 'utf8')).toMatch(`(${encoding} encoding)`);
          expect(z3Run(out)).toEqual([answer]);
        });

    it('rely verify --engine monolithic --proof: every obligation of the certificate answers unsat', async () => {
      const proof = join(dir, 'invariant.smt2');
      const r = await rely(['verify', '--engine', 'monolithic', '--proof', proof, LOCKID]);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(`certificate: ${proof} (check it with: z3 ${proof}; every answer must be unsat)`);
      const p = loadProgram(LOCKID);
      const answers = z3Run(proof);
      expect(answers).toHaveLength(productSystem(p, true).clauses.length);
      expect(new Set(answers)).toEqual(new Set(['unsat']));
    });
  });
});

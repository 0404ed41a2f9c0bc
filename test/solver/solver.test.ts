/**
 * The solver layer against both back ends: satisfiability, models, entailment,
 * push/pop, timeouts, and Horn queries including the paper's HC_1–HC_4 (§2), whose
 * solutions are checked to make every clause valid. The native half is skipped,
 * with the reason printed, when no z3 binary is available. The rewriting of C division
 * in Horn clauses, checked by quantified queries, is in solver.slow.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { add, and, cdiv, crem, eq, evaluate, ge, gt, le, lt, mkVar, mul, not, num, show, varsOf, type Term } from '../../solver/formula.js';
import { inlineRelations, sexprToTerm, type RelationDef } from '../../solver/sexpr.js';
import { solutionObligations, type HornClause, type HornResult, type HornSystem } from '../../solver/horn.js';
import { SmtSolver } from '../../solver/smt.js';
import { NativeBackend, findZ3 } from '../../solver/z3-native.js';
import { smtBackends } from '../helpers.js';
import { WasmBackend } from '../../solver/z3-wasm.js';

const z3 = findZ3();
// Skip reason for every native-only block below: without a z3 binary there is no
// native back end to test (CI installs Debian's z3, so CI runs them).
const NATIVE_SKIP = 'no z3 binary on PATH and RELY_Z3 unset (apt-get install z3)';
if (!z3) console.warn(`solver tests: native half skipped: ${NATIVE_SKIP}`);

const { backends, open } = smtBackends();

const x = mkVar('x');
const y = mkVar('y');
const v = (n: string): Term => mkVar(n);

// ---- the paper's §2 clause sets over V = (lock, pc1, pc2); a = p = 0, b = q = 1.
const V = ['lock', 'pc1', 'pc2'];
const P = ["lock'", "pc1'", "pc2'"];
const at = (rel: string, vars = V) => ({ rel, args: vars.map(v) });
const init = and(eq(v('pc1'), num(0)), eq(v('pc2'), num(0)), eq(v('lock'), num(0)));
const errF = and(eq(v('pc1'), num(1)), eq(v('pc2'), num(1)));
const take = (me: string, other: string, k: number) =>
  and(eq(v('lock'), num(0)), eq(v("lock'"), num(k)), eq(v(me), num(0)), eq(v(`${me}'`), num(1)), eq(v(`${other}'`), v(other)));
const rho1 = take('pc1', 'pc2', 1);
const rhoBit2 = take('pc2', 'pc1', 1);
const rhoId2 = take('pc2', 'pc1', 2);
const keep = (...names: string[]) => and(...names.map((n) => eq(v(`${n}'`), v(n))));
const states = (names: string[]) => names.map((name) => ({ name, params: V }));

function hc1(rho2: Term): HornSystem {
  const clauses: HornClause[] = [
    { body: [], constraint: init, head: at('m1') },
    { body: [at('m1')], constraint: rho1, head: at('m2', P) },
    { body: [], constraint: init, head: at('n1') },
    { body: [at('n1')], constraint: rho2, head: at('n2', P) },
    { body: [at('m2'), at('n2')], constraint: errF },
  ];
  return { relations: states(['m1', 'm2', 'n1', 'n2']), clauses };
}

/** HC_2: HC_1 plus the environment transitions e1, e2 and the states m3, n3. */
function hc2(): HornSystem {
  const base = hc1(rhoBit2).clauses.slice(0, 4);
  const clauses: HornClause[] = [
    ...base,
    { body: [at('m1')], constraint: rho1, head: { rel: 'e1', args: [...V, ...P].map(v) } },
    { body: [at('n2'), { rel: 'e1', args: [...V, ...P].map(v) }], constraint: keep('pc2'), head: at('n3', P) },
    { body: [at('n1')], constraint: rhoBit2, head: { rel: 'e2', args: [...V, ...P].map(v) } },
    { body: [at('m2'), { rel: 'e2', args: [...V, ...P].map(v) }], constraint: keep('pc1'), head: at('m3', P) },
    { body: [at('m3'), at('n3')], constraint: errF },
  ];
  const trans = ['e1', 'e2'].map((name) => ({ name, params: [...V, ...P] }));
  return { relations: [...states(['m1', 'm2', 'm3', 'n1', 'n2', 'n3']), ...trans], clauses };
}

/** HC_4: HC_3 (LockId) with the modular restriction: m_i over (lock, pc1), n_i over (lock, pc2). */
function hc4(): HornSystem {
  const own = (rel: string, pc: string, primedArgs = false) => ({
    rel,
    args: (primedArgs ? ["lock'", `${pc}'`] : ['lock', pc]).map(v),
  });
  const clauses: HornClause[] = [
    { body: [], constraint: init, head: own('m1', 'pc1') },
    { body: [own('m1', 'pc1')], constraint: rho1, head: own('m2', 'pc1', true) },
    { body: [], constraint: init, head: own('n1', 'pc2') },
    { body: [own('n1', 'pc2')], constraint: rhoId2, head: own('n2', 'pc2', true) },
    { body: [own('m2', 'pc1'), own('n2', 'pc2')], constraint: errF },
  ];
  return {
    relations: [
      { name: 'm1', params: ['lock', 'pc1'] },
      { name: 'm2', params: ['lock', 'pc1'] },
      { name: 'n1', params: ['lock', 'pc2'] },
      { name: 'n2', params: ['lock', 'pc2'] },
    ],
    clauses,
  };
}

/** n + 1 pigeons in n holes, pairwise distinct: unsat, and slow for SMT solvers. */
function pigeonhole(n: number): Term {
  const p = Array.from({ length: n + 1 }, (_, i) => v(`p${i}`));
  const parts: Term[] = p.map((q) => and(ge(q, num(1)), le(q, num(n))));
  for (let i = 0; i < p.length; i++) for (let j = i + 1; j < p.length; j++) parts.push(not(eq(p[i], p[j])));
  return and(...parts);
}

/** LockBit's HC_4-style modular clauses have no solution (Table 1: no modular proof). */
function hc4LockBit(): HornSystem {
  const sys = hc4();
  const clauses = sys.clauses.map((c, i) => (i === 3 ? { ...c, constraint: rhoBit2 } : c));
  return { ...sys, clauses };
}

async function expectValidSolution(s: SmtSolver, sys: HornSystem, r: HornResult): Promise<void> {
  expect(r.status).toBe('sat');
  if (r.status !== 'sat') return;
  for (const ob of solutionObligations(sys, r.solution)) expect((await s.check([ob])).status).toBe('unsat');
}

for (const [name, make, available] of backends) {
  // The native entry is skipped without native z3 (NATIVE_SKIP); wasm always runs.
  describe.skipIf(!available)(`solver back end: ${name}`, () => {
    it('sat, unsat, and models that satisfy the formula', async () => {
      const s = open(make);
      expect((await s.check([gt(x, num(3)), lt(x, num(3))])).status).toBe('unsat');
      const f = and(eq(add(x, y), num(10)), le(num(7), x), lt(y, num(0)));
      const m = await s.model([f], ['x', 'y']);
      expect(m.status).toBe('sat');
      expect(evaluate(f, (n) => m.model!.get(n)!)).toBe(true);
    });

    it('entailment, and the cache answers a repeated query', async () => {
      const s = open(make);
      expect(await s.entails(and(ge(x, num(1)), eq(y, add(x, num(1)))), ge(y, num(2)))).toBe(true);
      expect(await s.entails(ge(x, num(1)), ge(x, num(2)))).toBe(false);
      const hits = s.stats.cacheHits;
      await s.entails(ge(x, num(1)), ge(x, num(2)));
      expect(s.stats.cacheHits).toBe(hits + 1);
      expect(s.stats.queries).toBeGreaterThanOrEqual(3);
    });

    it('push / assert / check / pop', async () => {
      const s = open(make);
      await s.push();
      await s.assert(and(ge(x, num(0)), le(x, num(5))));
      expect((await s.check([gt(x, num(5))])).status).toBe('unsat');
      expect((await s.check([eq(x, num(5))])).status).toBe('sat');
      await s.pop();
      expect((await s.check([gt(x, num(5))])).status).toBe('sat');
    });

    it('checkEach answers as one check per formula would, caches them, and leaves no assertion behind', async () => {
      const s = open(make);
      const base = and(ge(x, num(0)), le(x, num(5)), eq(y, add(x, num(1))));
      const extras = [gt(x, num(5)), eq(y, num(3)), lt(y, num(1)), ge(mkVar('fresh'), y)];
      const want = [];
      for (const e of extras) want.push((await s.check([base, e])).status);
      expect(want).toEqual(['unsat', 'sat', 'unsat', 'sat']);
      const t = open(make);
      expect((await t.checkEach(base, extras)).map((r) => r.status)).toEqual(want);
      const hits = t.stats.cacheHits;
      expect((await t.checkEach(base, [extras[1], gt(y, num(6))])).map((r) => r.status)).toEqual(['sat', 'unsat']);
      expect(t.stats.cacheHits).toBe(hits + 1);
      expect((await t.check([gt(x, num(5))])).status).toBe('sat'); // the base was popped
    });

    it("C division and remainder truncate toward zero", async () => {
      const s = open(make);
      const f = and(eq(x, num(-7)), eq(y, cdiv(x, num(2))), eq(v('r'), crem(x, num(2))));
      const m = await s.model([f], ['y', 'r']);
      expect(m.model!.get('y')).toBe(-3n);
      expect(m.model!.get('r')).toBe(-1n);
    });

    it('a query past its timeout is unknown(timeout)', async () => {
      const s = open(make);
      const r = await s.check([pigeonhole(9)], { timeoutMs: 300 });
      expect(r).toEqual({ status: 'unknown', reason: 'timeout' });
      // The solver still answers afterwards.
      expect((await s.check([gt(x, num(1))])).status).toBe('sat');
    });

    it("HC_1 (LockBit, first refinement) has a solution that makes every clause valid", async () => {
      const s = open(make);
      const sys = hc1(rhoBit2);
      await expectValidSolution(s, sys, await s.horn(sys));
    });

    it('HC_2 (LockBit with environment transitions) has a valid solution', async () => {
      const s = open(make);
      const sys = hc2();
      await expectValidSolution(s, sys, await s.horn(sys));
    });

    it('HC_3 (LockId) and the modular HC_4 have valid solutions; LockBit has no modular one', async () => {
      const s = open(make);
      const sys3 = hc1(rhoId2);
      await expectValidSolution(s, sys3, await s.horn(sys3));
      const sys4 = hc4();
      const r4 = await s.horn(sys4);
      await expectValidSolution(s, sys4, r4);
      expect((await s.horn(hc4LockBit())).status).toBe('unsat');
    });

    it('a real counterexample makes the clauses unsatisfiable', async () => {
      const s = open(make);
      // Thread 1 takes the lock, then thread 2's step applies as an environment step.
      const path = (rho2: Term): HornSystem => ({
        relations: states(['m1', 'm2', 'm3']),
        clauses: [
          { body: [], constraint: init, head: at('m1') },
          { body: [at('m1')], constraint: rho1, head: at('m2', P) },
          { body: [at('m2')], constraint: rho2, head: at('m3', P) },
          { body: [at('m3')], constraint: errF },
        ],
      });
      const unguarded = and(eq(v("lock'"), num(1)), eq(v('pc2'), num(0)), eq(v("pc2'"), num(1)), keep('pc1'));
      expect((await s.horn(path(unguarded))).status).toBe('unsat');
      await expectValidSolution(s, path(rhoBit2), await s.horn(path(rhoBit2)));
    });
  });
}

// Skipped without native z3 (NATIVE_SKIP): agreement needs both back ends.
describe.skipIf(!z3)('back ends agree', () => {
  it('on satisfiability and Horn status over the corpus', async () => {
    const w = open(() => new SmtSolver(new WasmBackend()));
    const n = open(() => new SmtSolver(new NativeBackend()));
    const formulas = [
      and(gt(x, num(3)), lt(x, num(3))),
      and(eq(add(x, y), num(10)), le(num(7), x)),
      and(eq(mul(num(2), x), add(y, num(1))), eq(y, num(4))),
      not(eq(crem(x, num(3)), num(0))),
    ];
    for (const f of formulas) expect((await w.check([f])).status).toBe((await n.check([f])).status);
    for (const sys of [hc1(rhoBit2), hc2(), hc1(rhoId2), hc4(), hc4LockBit()])
      expect((await w.horn(sys)).status).toBe((await n.horn(sys)).status);
  });
});

// Skipped without native z3 (NATIVE_SKIP): there is no process to kill.
describe.skipIf(!z3)('native process', () => {
  it('restarts after z3 dies, replaying declarations and the push/assert stack', async () => {
    const backend = new NativeBackend();
    const s = open(() => new SmtSolver(backend));
    await s.push();
    await s.assert(and(ge(x, num(0)), le(x, num(5))));
    expect((await s.check([gt(x, num(5))])).status).toBe('unsat');
    const pid = backend.pid!;
    process.kill(pid, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 200));
    // The next query runs in a new process that has the same assertions.
    expect((await s.check([gt(x, num(5))])).status).toBe('unsat');
    expect(backend.pid).not.toBe(pid);
    expect((await s.check([eq(x, num(5))])).status).toBe('sat');
    await s.pop();
    expect((await s.check([gt(x, num(5))])).status).toBe('sat');
  });
});

// Skipped without native z3 (NATIVE_SKIP): there is no process to kill.
describe.skipIf(!z3)('native process crash', () => {
  it('a query in flight when z3 dies fails (SolverFailed: the engines\' UNKNOWN), and the next one is answered', async () => {
    const backend = new NativeBackend();
    const s = open(() => new SmtSolver(backend));
    await s.check([gt(x, num(0))]);
    const pending = s.check([pigeonhole(9)], { timeoutMs: 10_000 });
    setTimeout(() => process.kill(backend.pid!, 'SIGKILL'), 100);
    await expect(pending).rejects.toThrow(/^solver: z3 exited \(signal SIGKILL\) during a query$/);
    expect((await s.check([gt(x, num(1))])).status).toBe('sat');
  });
});

describe('process lifetime', () => {
  it('a program that used the solvers, with a timed-out query, exits on its own', () => {
    const script = `
      import { createSolver } from './dist/solver/select.js';
      import { and, eq, ge, le, not, mkVar, num } from './dist/solver/formula.js';
      const p = Array.from({ length: 10 }, (_, i) => mkVar('p' + i));
      const parts = p.map((q) => and(ge(q, num(1)), le(q, num(9))));
      for (let i = 0; i < 10; i++) for (let j = i + 1; j < 10; j++) parts.push(not(eq(p[i], p[j])));
      for (const kind of ${JSON.stringify(z3 ? ['wasm', 'native'] : ['wasm'])}) {
        const s = createSolver(kind);
        console.log(kind, (await s.check([and(...parts)], { timeoutMs: 200 })).status);
        await s.close();
      }`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/wasm unknown/);
  });
});

describe('reading Horn answers', () => {
  it("reads SMT-LIB's Euclidean mod and div by a constant as C's % and / compute them", () => {
    const x = mkVar('x');
    for (const k of [-5, -3, -2, -1, 1, 2, 3, 7]) {
      const mod = sexprToTerm(['mod', 'x', k < 0 ? ['-', String(-k)] : String(k)]);
      const div = sexprToTerm(['div', 'x', k < 0 ? ['-', String(-k)] : String(k)]);
      expect(varsOf(mod)).toEqual(new Set([x.name]));
      for (let a = -12; a <= 12; a++) {
        // SMT-LIB: a = k·div + mod with 0 ≤ mod < |k|.
        const m = ((a % Math.abs(k)) + Math.abs(k)) % Math.abs(k);
        expect(evaluate(mod, () => BigInt(a)), `mod ${a} ${k}`).toBe(BigInt(m));
        expect(evaluate(div, () => BigInt(a)), `div ${a} ${k}`).toBe(BigInt((a - m) / k));
      }
    }
    expect(() => sexprToTerm(['mod', 'x', 'y'])).toThrow(/unsupported: 'mod' or 'div' by a non-constant/);
    expect(() => sexprToTerm(['div', 'x', '0'])).toThrow(/by zero/);
  });

  it('inlines a relation that Spacer defines through another', () => {
    const defs = new Map<string, RelationDef>([
      ['R', { params: ['a'], body: ['and', ['S', ['+', 'a', '1']], ['>', 'a', '0']] }],
      ['S', { params: ['a'], body: ['<', 'a', '5'] }],
    ]);
    const out = inlineRelations(defs, new Set(['R', 'S', 'T']));
    expect(out.get('R')).toEqual(['and', ['let', [['a', ['+', 'a', '1']]], ['<', 'a', '5']], ['>', 'a', '0']]);
    expect(show(sexprToTerm(out.get('R')!))).toBe('(a <= 3) && (a >= 1)');
  });
});

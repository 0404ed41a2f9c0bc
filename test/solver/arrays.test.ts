/**
 * Arrays from Int to Int (objects of run-time size) through the solver layer, on both
 * back ends: satisfiability with select/store/const, models of array variables read
 * back as ArrayValues (checked by evaluating the formula on them), Horn systems with
 * array-sorted relation parameters (solutions checked clause by clause), reading
 * z3's array terms back into the IR, and counterexample paths over an array
 * variable replayed by the interpreter. The native half is skipped without z3.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  add,
  and,
  constArray,
  constArrayValue,
  eq,
  evaluate,
  ge,
  le,
  lt,
  mkVar,
  not,
  num,
  select,
  selectValue,
  showValue,
  store,
  storeValue,
  valuesEqual,
  type Term,
  type Value,
} from '../../solver/formula.js';
import { hornToSmtLib, solutionObligations, type HornSystem } from '../../solver/horn.js';
import { parseSExprs, sexprToTerm, sexprToValue, showSExpr, showSmt, withoutArrayExists, type SExpr } from '../../solver/sexpr.js';
import { SmtSolver, type Backend, type Model } from '../../solver/smt.js';
import { NativeBackend, findZ3 } from '../../solver/z3-native.js';
import type { Program, Transition } from '../../program/program.js';
import { obligationsSmt2 } from '../../core/certificate.js';
import { smtBackends } from '../helpers.js';
import { concretePath } from '../../core/path.js';
import { holdsIn, replay } from '../../core/replay.js';
import { findErrorTrace } from '../../core/unroll.js';

const z3 = findZ3();
if (!z3) console.warn('solver-arrays tests: native half skipped: no z3 binary on PATH and RELY_Z3 unset');

const { backends, open } = smtBackends();

const A = mkVar('A[]');
const B = mkVar('B[]');
const C = mkVar('C[]');
const i = mkVar('i');
const j = mkVar('j');
const arr = (rest: bigint, at: [bigint, bigint][] = []): Value => at.reduce((a, [k, v]) => storeValue(a, k, v), constArrayValue(rest));

/** The model satisfies `f`: every variable of f was asked for and the formula evaluates to true on the model. */
const satisfies = (f: Term, m: Model | undefined): boolean =>
  evaluate(f, (n) => {
    const v = m?.get(n);
    if (v === undefined) throw new Error(`model lacks ${n}`);
    return v;
  }) === true;

/** Inv(A[], i): A = 0 everywhere, i = 0; each step sets A[i] = 1 while i < 4 (the wasm build's Spacer needs seconds for a deeper counterexample); at i >= 4, A[3] = 1. */
function fillSystem(bad: Term): HornSystem {
  const A1 = mkVar("A[]'");
  const i1 = mkVar("i'");
  const inv = (a: Term, k: Term) => ({ rel: 'Inv', args: [a, k] });
  return {
    relations: [{ name: 'Inv', params: ['A[]', 'i'] }],
    clauses: [
      { body: [], constraint: and(eq(i, num(0)), eq(A, constArray(num(0)))), head: inv(A, i) },
      { body: [inv(A, i)], constraint: and(lt(i, num(4)), eq(A1, store(A, i, num(1))), eq(i1, add(i, num(1)))), head: inv(A1, i1) },
      { body: [inv(A, i)], constraint: and(ge(i, num(4)), bad) },
    ],
  };
}

for (const [name, make, available] of backends) {
  describe.skipIf(!available)(`arrays on the ${name} back end`, () => {
    it('decides formulas with select, store and const', async () => {
      const s = open(make);
      // Read over write: B = A[i := 5] gives B[i] = 5, and B[j] = A[j] for j ≠ i.
      expect((await s.check([eq(B, store(A, i, num(5))), not(eq(select(B, i), num(5)))])).status).toBe('unsat');
      expect((await s.check([eq(B, store(A, i, num(5))), not(eq(i, j)), not(eq(select(B, j), select(A, j)))])).status).toBe('unsat');
      expect((await s.check([eq(B, store(A, i, num(5))), not(eq(select(B, j), select(A, j)))])).status).toBe('sat');
      expect((await s.check([eq(C, constArray(num(4))), not(eq(select(C, i), num(4)))])).status).toBe('unsat');
      // Extensionality: arrays that differ somewhere.
      expect((await s.check([not(eq(A, B)), eq(select(A, i), select(B, i))])).status).toBe('sat');
      expect(await s.entails(eq(A, B), eq(select(A, i), select(B, i)))).toBe(true);
    });

    it('gives array variables ArrayValues in models, which satisfy the formula', async () => {
      const s = open(make);
      const f = and(eq(select(A, num(3)), num(7)), eq(select(A, num(5)), num(-2)), eq(B, store(A, i, num(9))), eq(i, num(4)), eq(C, constArray(num(4))));
      const r = await s.model([f], ['A[]', 'B[]', 'C[]', 'i']);
      expect(r.status).toBe('sat');
      expect(satisfies(f, r.model)).toBe(true);
      const a = r.model!.get('A[]')!;
      expect(typeof a).toBe('object');
      expect(selectValue(a as Exclude<Value, bigint>, 3n)).toBe(7n);
      expect(valuesEqual(r.model!.get('C[]')!, constArrayValue(4n))).toBe(true);
      expect(r.model!.get('i')).toBe(4n);
      // The same through a fresh context (the unrolling's query).
      const fresh = await s.modelFresh([f], ['A[]', 'B[]', 'C[]', 'i']);
      expect(fresh.status).toBe('sat');
      expect(satisfies(f, fresh.model)).toBe(true);
    });

    it('declares array variables asserted under push', async () => {
      const s = open(make);
      await s.push();
      await s.assert(eq(select(mkVar('P[]'), num(0)), num(1)));
      const q = and(eq(mkVar('Q[]'), store(mkVar('P[]'), num(1), num(2))), eq(select(mkVar('Q[]'), num(0)), j));
      const r = await s.model([q], ['P[]', 'Q[]', 'j']);
      expect(r.status).toBe('sat');
      expect(r.model!.get('j')).toBe(1n);
      expect(satisfies(and(q, eq(select(mkVar('P[]'), num(0)), num(1))), r.model)).toBe(true);
      expect((await s.check([not(eq(select(mkVar('P[]'), num(0)), num(1)))])).status).toBe('unsat');
      await s.pop();
    });

    it('solves Horn clauses over an array-sorted parameter, its solution valid', async () => {
      const s = open(make);
      const sys = fillSystem(not(eq(select(A, num(3)), num(1))));
      const r = await s.horn(sys, { timeoutMs: 30000 });
      expect(r.status).toBe('sat');
      if (r.status !== 'sat') return;
      const check = open(make);
      for (const ob of solutionObligations(sys, r.solution)) expect((await check.check([ob])).status).toBe('unsat');
      // A[3] is 1 once i passes 3: asking for 0 there has no solution.
      expect((await s.horn(fillSystem(eq(select(A, num(3)), num(1))), { timeoutMs: 30000 })).status).toBe('unsat');
    });

    it('replays a counterexample path over an array variable', async () => {
      const s = open(make);
      const p = arrayProgram();
      const [write, read] = p.threads[0].transitions;
      const trace = await concretePath(p, [write, read], s);
      expect(Array.isArray(trace)).toBe(true);
      const steps = trace as Exclude<typeof trace, null | { unknown: string }>;
      expect(steps.map((st) => st.transition)).toEqual([0, 1]);
      const shown = steps[0].values.find(([v]) => v === 'A[]');
      expect(shown && typeof shown[1] === 'object' && showValue(shown[1])).toMatch(/: 7, …: 0\]$/);
      // The unrolling (BMC) finds and replays the same run.
      const bmc = await findErrorTrace(p, s, { checkTime: () => {}, queryTimeoutMs: () => 30000, maxDepth: 4 });
      expect(bmc?.map((st) => st.transition)).toEqual([0, 1]);
    });
  });
}

describe.skipIf(!z3)('quantifier elimination over an array parameter (native)', () => {
  it('declares the parameter as an array and reads the answer over it', async () => {
    const backend = new NativeBackend();
    try {
      const names = new Map([['x!0', A]]);
      const arraySort = ['(Array Int Int)'];
      // Spacer's existentials come back as `eliminate` asks; the private method is the one its Horn answers go through.
      const even = await backend['eliminate'](parseSExprs('(exists ((q Int)) (= (select x!0 0) (* 2 q)))')[0], ['x!0'], arraySort);
      const t = sexprToTerm(even, names);
      const val = (a: Value) => (n: string) => (n === 'A[]' ? a : 0n);
      expect([evaluate(t, val(arr(0n, [[0n, 4n]]))), evaluate(t, val(arr(0n, [[0n, -3n]])))]).toEqual([true, false]);
    } finally {
      await backend.close();
    }
  });
});

describe.skipIf(!z3)('native process restart with arrays', () => {
  it('replays array declarations and the stack after z3 dies', async () => {
    const backend = new NativeBackend();
    const s = open(() => new SmtSolver(backend));
    await s.push();
    await s.assert(eq(B, store(A, i, num(5))));
    expect((await s.check([not(eq(select(B, i), num(5)))])).status).toBe('unsat');
    const pid = backend.pid!;
    process.kill(pid, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 200));
    expect((await s.check([not(eq(select(B, i), num(5)))])).status).toBe('unsat');
    expect(backend.pid).not.toBe(pid);
    await s.pop();
  });
});

describe.skipIf(!z3)('certificate scripts over an array variable (native)', () => {
  it('declares arrays with their sort, and z3 checks the obligations', () => {
    const p = arrayProgram();
    const [t0] = p.threads[0].transitions;
    const script = obligationsSmt2(p, new Map(), [{ name: 'write then read', premise: t0.formula, conclusion: eq(select(mkVar("A[]'"), i), num(7)) }], ['; test']);
    expect(script).toContain("(declare-const |A[]'| (Array Int Int))");
    const out = spawnSync(z3!, ['-in'], { input: script, encoding: 'utf8' });
    expect(out.stdout.trim().split(/\s+/)).toEqual(['write', 'then', 'read:', 'expect', 'unsat', 'unsat']);
  });
});

/**
 * One thread: `A[i] = 7` (t0), then the error when `A[i] == 7` (t1); A starts 0 everywhere, i is any.
 */
function arrayProgram(): Program {
  const pc = mkVar('pc');
  const pos = { file: 'arrays.c', line: 1, col: 1 };
  const trans = (id: number, from: number, to: number, atoms: Term[], writes: string[]): Transition => ({
    id,
    thread: 0,
    from,
    to,
    formula: and(...atoms),
    atoms,
    aux: [],
    writes,
    pos,
    steps: [{ pos, text: id === 0 ? 'A[i] = 7;' : 'assert(A[i] != 7);' }],
    atomic: false,
    linear: true,
  });
  const A1 = mkVar("A[]'");
  const t0 = trans(0, 0, 1, [eq(pc, num(0)), eq(mkVar("pc'"), num(1)), eq(A1, store(A, i, num(7))), eq(mkVar("i'"), i)], ['pc', 'A[]']);
  const t1 = trans(1, 1, 2, [eq(pc, num(1)), eq(mkVar("pc'"), num(2)), eq(select(A, i), num(7)), eq(A1, A), eq(mkVar("i'"), i)], ['pc']);
  const info = (n: string, role: 'user' | 'pc', owner: number | null) => [n, { name: n, owner, role, unsigned: false, bool: false, cname: n }] as const;
  return {
    file: 'arrays.c',
    vars: new Map([info('pc', 'pc', 0), info('A[]', 'user', null), info('i', 'user', null)]),
    globals: ['A[]', 'i'],
    threads: [
      {
        index: 0,
        name: 'main',
        fn: 'main',
        pc: 'pc',
        locals: ['pc'],
        locations: [
          { pc: 0, kind: 'entry' },
          { pc: 1, kind: 'block' },
          { pc: 2, kind: 'error' },
        ],
        entryPc: 0,
        errorPc: 2,
        startedAtInit: true,
        transitions: [t0, t1],
      },
    ],
    init: and(eq(pc, num(0)), eq(A, constArray(num(0)))),
    err: eq(pc, num(2)),
    warnings: [],
  };
}

describe('arrays in the interpreter (replay over ArrayValues)', () => {
  const p = arrayProgram();
  const [t0, t1] = p.threads[0].transitions;
  const state = (pcv: bigint, a: Value, iv: bigint) => new Map<string, Value>([['pc', pcv], ['A[]', a], ['i', iv]]);

  it('holdsIn reads and compares arrays', () => {
    expect(holdsIn(p, p.init, state(0n, arr(0n), 5n))).toBe(true);
    expect(holdsIn(p, p.init, state(0n, arr(0n, [[1n, 2n]]), 5n))).toBe(false);
    expect(holdsIn(p, t0.formula, state(0n, arr(0n), 5n), state(1n, arr(0n, [[5n, 7n]]), 5n))).toBe(true);
    expect(holdsIn(p, t0.formula, state(0n, arr(0n), 5n), state(1n, arr(0n, [[4n, 7n]]), 5n))).toBe(false);
  });

  it('accepts the run that writes and reads A[i], and rejects one whose write went elsewhere', () => {
    const states = [state(0n, arr(0n), 5n), state(1n, arr(0n, [[5n, 7n]]), 5n), state(2n, arr(0n, [[5n, 7n]]), 5n)];
    const steps = [t0, t1].map((transition) => ({ transition, aux: new Map() }));
    const out = replay(p, { states, steps });
    expect('trace' in out).toBe(true);
    const wrong = [states[0], state(1n, arr(0n, [[6n, 7n]]), 5n), state(2n, arr(0n, [[6n, 7n]]), 5n)];
    expect(replay(p, { states: wrong, steps })).toEqual({ failure: 'step 1 (t0) is not a transition of the program' });
  });
});

describe('reading z3 array terms', () => {
  it('reads select, store and const back into the IR', () => {
    const u = sexprToTerm(parseSExprs('(and (<= (select |A[]| i) 4) (= |B[]| (store |A[]| 1 (- 5))) (= |C[]| ((as const (Array Int Int)) 0)))')[0]);
    expect(u).toBe(and(le(select(A, i), num(4)), eq(B, store(A, num(1), num(-5))), eq(C, constArray(num(0)))));
    expect(u.kind === 'app' && u.args[2].kind === 'app' && u.args[2].args[0].sort).toBe('array');
  });

  it('prints array terms back as SMT-LIB (the quantifier elimination request)', () => {
    const text = '(exists ((q Int)) (and (= |A[]| (store ((as const (Array Int Int)) 0) q 1)) (= |B[]| (_ as-array k!0))))';
    expect(showSmt(parseSExprs(text)[0])).toBe(text);
  });

  it('reads values: store chains over a constant array, later stores winning', () => {
    expect(valuesEqual(sexprToValue(parseSExprs('(store (store ((as const (Array Int Int)) 2) 3 7) 3 (- 2))')[0]), arr(2n, [[3n, -2n]]))).toBe(true);
    // A store of the default value is no exception to it.
    expect(valuesEqual(sexprToValue(parseSExprs('(store ((as const (Array Int Int)) 0) 4 0)')[0]), arr(0n))).toBe(true);
    expect(sexprToValue(parseSExprs('(- 12)')[0])).toBe(-12n);
  });

  it('rejects quantifiers, lambdas and as-array with a SyntaxError', () => {
    for (const text of ['(forall ((x Int)) (= (select A x) 0))', '(exists ((B (Array Int Int))) (= A B))', '(lambda ((x Int)) (ite (<= 11 x) 3 1))', '(= A (_ as-array k!0))'])
      expect(() => sexprToTerm(parseSExprs(text)[0])).toThrow(SyntaxError);
    expect(() => sexprToValue(parseSExprs('(lambda ((x!1 Int)) (ite (<= 11 x!1) 3 1))')[0])).toThrow(SyntaxError);
  });

  it('a Horn answer the IR cannot read is unknown, not an error', async () => {
    const backend: Backend = {
      name: 'native',
      push: async () => {},
      pop: async () => {},
      assert: async () => {},
      check: async () => ({ status: 'unknown', reason: 'unused' }),
      checkFresh: async () => ({ status: 'unknown', reason: 'unused' }),
      horn: async () => {
        sexprToTerm(parseSExprs('(forall ((x Int)) (>= (select |A[]| x) 0))')[0]);
        return { status: 'unsat' };
      },
      close: async () => {},
    };
    const r = await new SmtSolver(backend).horn(fillSystem(eq(i, i)));
    expect(r.status).toBe('unknown');
  });

  it('declares array parameters and clause variables with the array sort in Horn scripts', () => {
    const text = hornToSmtLib(fillSystem(not(eq(select(A, num(3)), num(1)))));
    expect(text).toContain('(declare-fun Inv ((Array Int Int) Int) Bool)');
    expect(text).toContain("(|A[]'| (Array Int Int))");
    expect(text).toContain('(i Int)');
  });
});

describe("Spacer's `exists` over arrays read back (withoutArrayExists)", () => {
  const decls = '(declare-const A (Array Int Int)) (declare-const i Int) (declare-const k Int)';
  const eliminated = (text: string): string => showSExpr(withoutArrayExists(parseSExprs(text)[0]));
  /**
   * The answer is equivalent to the quantified formula, checked without quantifiers (z3
   * answers unknown on them): the body, its binders free, implies the answer at the
   * witnesses `ofAnswer` for the answer's binders; the answer, its binders free, implies
   * the body at the witnesses `ofBody`.
   */
  const equivalent = (text: string, ofBody: Record<string, string>, ofAnswer: Record<string, string> = {}): void => {
    if (!z3) return;
    const unquantified = (e: SExpr): { decls: string; body: string } => {
      if (Array.isArray(e) && e[0] === '!') return unquantified(e[1]);
      if (!Array.isArray(e) || e[0] !== 'exists') return { decls: '', body: showSExpr(e) };
      const decls = (e[1] as SExpr[][]).map(([n, sort]) => `(declare-const ${showSExpr(n)} ${showSExpr(sort)})`).join(' ');
      return { decls, body: unquantified(e[2]).body };
    };
    const at = (body: string, w: Record<string, string>): string =>
      Object.keys(w).length ? `(let (${Object.entries(w).map(([x, v]) => `(${x} ${v})`).join(' ')}) ${body})` : body;
    const q = unquantified(parseSExprs(text)[0]);
    const r = unquantified(withoutArrayExists(parseSExprs(text)[0]));
    for (const script of [
      `${decls} ${q.decls} (assert ${q.body}) (assert (not ${at(r.body, ofAnswer)})) (check-sat)`,
      `${decls} ${r.decls} (assert ${r.body}) (assert (not ${at(q.body, ofBody)})) (check-sat)`,
    ])
      expect(spawnSync(z3, ['-in'], { input: script, encoding: 'utf8' }).stdout.trim(), script).toBe('unsat');
  };
  it('a chain of stores over X becomes the cells it fixes (a later store at the same index wins)', () => {
    const text = '(exists ((X (Array Int Int))) (! (and (= A (store (store X 0 1) i 7)) (>= i 1)) :weight 0))';
    expect(eliminated(text)).toBe('(and (=> (and (distinct 0 i)) (= (select A 0) 1)) (= (select A i) 7) (>= i 1))');
    equivalent(text, { X: 'A' });
  });
  it('two binders, one defined through the other, inside a let', () => {
    const text = '(exists ((X (Array Int Int)) (Y (Array Int Int))) (let ((d (store X k 2))) (and (= A (store d 0 1)) (= d (store Y k 2)))))';
    expect(eliminated(text)).not.toContain('exists');
    equivalent(text, { X: 'A', Y: 'A' });
  });
  it('a store that reads X at its own index: the read is a fresh integer', () => {
    const text = '(exists ((X (Array Int Int))) (= A (store X k (+ 1 (select X k)))))';
    expect(eliminated(text)).toBe('(exists ((X!read Int)) (and (= (select A k) (+ 1 X!read))))');
    equivalent(text, { X: '(store A k X!read)' }, { 'X!read': '(select X k)' });
  });
  it('an array used beyond one definition, or an integer binder, stays quantified (the caller reads it as unknown)', () => {
    for (const text of ['(exists ((X (Array Int Int))) (and (= A (store X 0 1)) (= (select X 1) 2)))', '(exists ((j Int)) (= (select A j) 1))'])
      expect(eliminated(text)).toBe(showSExpr(parseSExprs(text)[0]));
  });
});

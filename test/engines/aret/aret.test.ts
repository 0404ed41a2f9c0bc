/**
 * The ARET engine: the paper's §2 examples, our protocols and their broken
 * mutants under both bias settings, and the engine's exact shortcuts checked against
 * the solver. Every SAFE must come with a proof re-checked against CS1–CS5 on the
 * whole program, every UNSAFE with a trace the interpreter replayed.
 *
 * Refinement rounds against the paper (§2: LockBit 3 rounds, LockId 3 with bias):
 * ours take more, for two reasons. (1) REFINE reads predicates off Spacer's
 * solutions, which describe states almost exactly (x = 0 ∧ lock = 1 ∧ …) rather than
 * the paper's minimal ones (lock = 1), so the first rounds teach facts that later
 * rounds do not need, and each round removes one error tuple. (2) Our C versions have
 * a critical section that writes and checks x (C cannot name the other thread's pc),
 * so the error needs the extra predicates on x. The round counts also depend on z3's
 * choice of model and solution, which follows term ids (the order in which formulas
 * were built in the process); the bounds below hold for every order we saw.
 */
import { describe, expect, it } from 'vitest';
import { loadProgram } from '../../../frontend/index.js';
import { verify } from '../../../engines/aret/verify.js';
import { modularProofExcluded, provableGroups } from '../../../engines/aret/modular-precheck.js';
import { coneOfInfluence } from '../../../program/slice.js';
import { Budget } from '../../../core/budget.js';
import { checkProof, liftProof, proofOf } from '../../../engines/aret/proof.js';
import { AbstractionMemo, PredicateSet, cube, cubeImplies } from '../../../engines/aret/abstraction.js';
import { abstReachEnv, findErrorTuple } from '../../../engines/aret/reach-env.js';
import { mkHornClauses } from '../../../engines/aret/horn-clauses.js';
import { predsOf } from '../../../engines/aret/refine.js';
import { add, and, eq, gt, le, lt, mkVar, not, num, or, show, varsOf, type Term } from '../../../solver/formula.js';
import { constantValues } from '../../../engines/aret/value-sets.js';
import { run, solver } from './run.js';

describe('ARET engine on the paper examples (modular bias)', () => {
  for (const [file, modular, maxRounds] of [
    ['lockbit', false, 20],
    ['lockid', true, 12],
    ['lockbitcnt', false, 20],
  ] as const)
    it(`${file}: safe, ${modular ? 'modular' : 'non-modular'} proof, checked`, async () => {
      const v = await run(`benchmarks/programs/${file}.c`, 'modular');
      expect(v.verdict).toBe('safe');
      if (v.verdict === 'safe') {
        expect(v.proof.modular).toBe(modular);
        expect(v.proofChecked).toBe(true);
      }
      expect(v.stats.iterations).toBeLessThanOrEqual(maxRounds);
    }, 180_000);

  it('lockid: the modular proof knows what Fig. 4 says (lock = 1 while thread 1 holds it, lock = 2 for thread 2)', async () => {
    const p = loadProgram('benchmarks/programs/lockid.c');
    const v = await verify(p, solver(), { bias: 'modular', maxIterations: 100, checker: solver });
    expect(v.verdict).toBe('safe');
    if (v.verdict !== 'safe') return;
    const check = solver();
    for (const [name, id] of [['thr1', 1], ['thr2', 2]] as const) {
      const i = p.threads.findIndex((t) => t.name === name);
      // Locations 1 and 2 lie between take_lock and the end of the critical section.
      for (const pc of [1, 2]) expect(await check.entails(and(v.proof.reach[i], eq(mkVar(`${name}.pc`), num(pc))), eq(mkVar('lock'), num(id)))).toBe(true);
      const own = new Set([...p.globals, ...p.threads[i].locals]);
      expect([...varsOf(v.proof.reach[i])].every((x) => own.has(x))).toBe(true);
    }
  }, 180_000);

  it('lockid without the bias: still safe (the paper finds a non-modular proof there)', async () => {
    const v = await run('benchmarks/programs/lockid.c', 'none');
    expect(v.verdict).toBe('safe');
    expect(v.stats.refinements.modular).toBe(0);
  }, 180_000);
});

describe('protocols and their broken mutants, both bias settings', () => {
  // maxRounds: twice the most refinement rounds seen under either bias (they vary with z3's term order).
  const cases: [file: string, expected: 'safe' | 'unsafe', maxRounds: number][] = [
    ['dekker', 'safe', 16],
    ['dekker-broken', 'unsafe', 16],
    ['peterson', 'safe', 22],
    ['peterson-broken', 'unsafe', 22],
    ['simple4', 'safe', 14],
    ['simple4-broken', 'unsafe', 14],
    ['rwlock-broken', 'unsafe', 18],
    ['lockid-nolock', 'unsafe', 12],
  ];
  // Simple(4) has no joins, as the paper's Simple(n): joins would make the threads'
  // ghost done flags globals, which the unbiased Spacer solutions describe with the
  // other threads' locations, ~40 predicates a round without a verdict.
  for (const bias of ['modular', 'none'] as const)
    for (const [file, expected, maxRounds] of cases)
      it(`${file} (bias ${bias}): ${expected}`, async () => {
        const path = file === 'lockid-nolock' ? `test/fixtures/${file}.c` : `benchmarks/programs/${file}.c`;
        const v = await run(path, bias);
        expect(v.verdict).toBe(expected);
        if (v.verdict === 'safe') expect(v.proofChecked).toBe(true);
        if (v.verdict === 'unsafe') {
          expect(v.traceReplayed).toBe(true);
          expect(v.trace.length).toBeGreaterThan(0);
        }
        expect(v.stats.iterations, 'refinement rounds').toBeLessThanOrEqual(maxRounds);
      }, 180_000);

  // Without the bias the unbiased solutions teach every thread the others' locations
  // and data, and each thread's ARET grows toward the product. Since ABSTREACHENV
  // skips disjoint pairs of a state and an environment step, plain unbiased Spacer
  // refinement proves it, in 34 rounds and about 670–820 s: inside the paper's
  // 15-minute limit, far past this suite's budget, so it runs with RELY_SLOW=1.
  // Seeded with the predicates a proof needs, ABSTREACHENV proves it at once (the
  // rwlock test below).
  // (Splitting the clauses into control and data, the paper's §8, with monotonic
  // control refinement learned every location in every pair; §8 refines control
  // non-monotonically, [13], which rely lacks.)
  it.skipIf(!process.env.RELY_SLOW)('rwlock (bias none): safe — slow (34 rounds, ~670–820 s with Spacer); runs with RELY_SLOW=1', async () => {
    const v = await run('benchmarks/programs/rwlock.c', 'none', 'spacer', { budget: new Budget({ deadline: performance.now() + 1_800_000 }) });
    expect(v.verdict).toBe('safe');
    if (v.verdict === 'safe') expect(v.proofChecked).toBe(true);
  }, 1_900_000);

  // Known gap: Table 1's two hardest rows with the bias, by the ARET alone. The default
  // engine decides both (explicit-global, well under 1 s); the ARET times out even at
  // 120 s. Both have no modular proof (the precheck reaches an error), every refinement
  // is unbiased, and Spacer's solutions are point values: the others' locations one a
  // round, tickets and counters one value a round (Bakery 16 rounds, 242 predicates,
  // 10.4k ARET states at 120 s; QRCU 11 rounds, 476 predicates, 20k states). The
  // docs/engines.md's "Where the ARET's refinement goes" has the rounds and what was tried.
  for (const file of ['bakery', 'qrcu'])
    it.skip(`known gap: ${file} (bias modular) by the ARET alone — times out at 120 s`, async () => {
      const v = await run(`benchmarks/programs/${file}.c`, 'modular', 'spacer', { budget: new Budget({ deadline: performance.now() + 180_000 }) });
      expect(v.verdict).toBe('safe');
    }, 200_000);
});

describe('ARET engine resource limits', () => {
  it('a heap past its limit ends the run as UNKNOWN (out of memory), not in a V8 abort', async () => {
    const v = await run('benchmarks/programs/lockbit.c', 'modular', 'spacer', { budget: new Budget({ heapLimitBytes: 1 }) });
    expect(v.verdict).toBe('unknown');
    if (v.verdict === 'unknown') expect(v.reason).toMatch(/^out of memory: \d+ MB of heap in use, past the run's limit of 0 MB/);
  });
});

describe('SOLVELINEARHC as the refinement solver (--horn-solver linear)', () => {
  // maxRounds: twice the most refinement rounds seen (they vary with z3's term order).
  for (const [file, expected, maxRounds] of [
    ['lockbit', 'safe', 26],
    ['lockid', 'safe', 22],
    ['lockbitcnt', 'safe', 26],
    ['dekker', 'safe', 116],
    ['peterson', 'safe', 98],
    ['simple4', 'safe', 22],
    ['dekker-broken', 'unsafe', 56],
    ['peterson-broken', 'unsafe', 76],
    ['simple4-broken', 'unsafe', 10],
  ] as const)
    it(`${file}: ${expected}, refinements answered by the Farkas solver`, async () => {
      const v = await run(`benchmarks/programs/${file}.c`, 'modular', 'linear');
      expect(v.verdict).toBe(expected);
      if (v.verdict === 'safe') {
        expect(v.proofChecked).toBe(true);
        expect(v.stats.horn.answeredBy.linear).toBeGreaterThan(0);
      }
      if (v.verdict === 'unsafe') expect(v.traceReplayed).toBe(true);
      expect(v.stats.iterations, 'refinement rounds').toBeLessThanOrEqual(maxRounds);
    }, 180_000);

  it('lockid: the modular proof again, with the lock predicates of Fig. 4', async () => {
    const v = await run('benchmarks/programs/lockid.c', 'modular', 'linear');
    expect(v.verdict === 'safe' && v.proof.modular).toBe(true);
  }, 180_000);

});

describe('PredicateSet.enumerates', () => {
  it('is true for a new constant of a shape the set holds six constants of, and only then', () => {
    const ps = new PredicateSet();
    const io = mkVar('pendingIo');
    ps.add([0, 1, 2, 3, 4].map((k) => eq(io, num(k))));
    expect(ps.enumerates(eq(io, num(5)))).toBe(false); // five so far
    ps.add([eq(io, num(5)), le(io, num(9))]);
    expect(ps.enumerates(eq(io, num(6)))).toBe(true);
    expect(ps.enumerates(eq(io, num(5)))).toBe(false); // not new
    expect(ps.enumerates(le(io, num(3)))).toBe(false); // `<=` is another shape, with one constant
    expect(ps.enumerates(eq(mkVar('stopped'), num(6)))).toBe(false);
  });
});

describe('all values of a variable that only holds constants (value-sets.ts)', () => {
  const FILE = 'test/fixtures/constant-values.c';
  it('are its initial value, the constants written to it and the values of the variables copied into it', () => {
    const values = constantValues(loadProgram(FILE));
    expect(values.get('s')).toEqual([0n, 1n, 2n, 3n]);
    expect([...values.get('t')!].sort()).toEqual([0n, 5n]); // t = five, five = 5
    expect(values.has('u')).toBe(false); // u = s + 1
  });

  it('are learned together: a set that learns one value of s in a round learns all four in it (with --no-all-values, not)', async () => {
    const rounds = async (allValues: boolean): Promise<Map<string, Set<string>>[]> => {
      const out: Map<string, Set<string>>[] = [];
      const v = await run(FILE, 'modular', 'spacer', {
        allValues,
        onRefined: (r) => {
          const sets = new Map<string, Set<string>>();
          for (const l of r.learned) {
            const m = show(l.predicate).match(/^s = (\d+)$/);
            if (m) (sets.get(l.where) ?? sets.set(l.where, new Set()).get(l.where)!).add(m[1]);
          }
          out.push(sets);
        },
      });
      expect(v.verdict).toBe('safe');
      return out;
    };
    const together = (rs: Map<string, Set<string>>[]): boolean => rs.every((sets) => [...sets.values()].every((ks) => ks.size === 4));
    const withValues = await rounds(true);
    expect(withValues.some((sets) => sets.size > 0)).toBe(true);
    expect(together(withValues)).toBe(true);
    expect(together(await rounds(false))).toBe(false);
  });
});

describe('ABSTREACHENV', () => {
  it('the shortcuts (frame, box, equalities an implied one excludes, disjoint environment steps) compute the same ARET as asking the solver for every predicate', async () => {
    const p = loadProgram('benchmarks/programs/lockbitcnt.c');
    // Predicates as refinement finds them (both threads' views, env transitions).
    const preds = [le(mkVar('lock'), num(0)), eq(mkVar('lock'), num(1)), eq(mkVar('thr2.pc'), num(0)), eq(mkVar('thr2.pc'), num(2)), le(num(1), mkVar('thr1.cnt'))];
    const pairs = new Map<string, PredicateSet>();
    const abs = {
      state: p.threads.map(() => {
        const ps = new PredicateSet();
        ps.add(preds);
        return ps;
      }),
      transition: (i: number, j: number) => {
        const k = `${i}>${j}`;
        if (!pairs.has(k)) {
          const ps = new PredicateSet();
          // Equalities before the step, and one of the target's location (thr2's, when the target is thr2).
          ps.add([eq(mkVar('lock'), num(0)), eq(mkVar("lock'"), num(1)), eq(mkVar('thr2.pc'), num(2))]);
          pairs.set(k, ps);
        }
        return pairs.get(k)!;
      },
    };
    const shape = (a: Awaited<ReturnType<typeof abstReachEnv>>) => ({
      states: a.states.map((ss) => ss.map((s) => `${s.pc}:${s.cube.ids.join(',')}`).sort()),
      env: a.env.map((es) => es.map((e) => e.cube.ids.join(',')).sort()),
    });
    const fast = shape(await abstReachEnv(p, abs, solver()));
    const slow = shape(await abstReachEnv(p, abs, solver(), { noShortcuts: true }));
    expect(fast).toEqual(slow);
    expect(fast.states.flat().length).toBeGreaterThan(p.threads.length);
    // The memo of a round before the last refinement grew some sets: what it still
    // answers (the sets that did not grow) gives the same ARET as computing afresh.
    const memo = new AbstractionMemo();
    // Sets are remembered from their third stable round on.
    for (let round = 1; round <= 3; round++) expect(shape(await abstReachEnv(p, abs, solver(), { memo }))).toEqual(fast);
    const before = fast;
    abs.state[1].add([le(mkVar('thr1.cnt'), num(2))]);
    abs.transition(1, 2).add([eq(mkVar("thr1.cnt'"), mkVar('thr1.cnt'))]);
    const after = shape(await abstReachEnv(p, abs, solver(), { memo }));
    expect(after).toEqual(shape(await abstReachEnv(p, abs, solver())));
    expect(after).not.toEqual(before);
    // Four threads whose views track each other's locations and the lock: most pairs
    // of a state and an environment step are disjoint there.
    const rw = loadProgram('benchmarks/programs/rwlock.c');
    const where = rw.threads.flatMap((th) => [1, 2].map((l) => eq(mkVar(th.pc), num(l))));
    const lock = [eq(mkVar('w'), num(0)), eq(mkVar('r'), num(0)), eq(mkVar('r'), num(1))];
    const rwPairs = new Map<string, PredicateSet>();
    const rwAbs = {
      state: rw.threads.map(() => {
        const ps = new PredicateSet();
        ps.add([...where, ...lock]);
        return ps;
      }),
      transition: (i: number, j: number) => {
        const k = `${i}>${j}`;
        if (!rwPairs.has(k)) {
          const ps = new PredicateSet();
          ps.add([...where, ...lock, eq(mkVar("w'"), num(1)), eq(mkVar(`${rw.threads[j].pc}'`), num(1))]);
          rwPairs.set(k, ps);
        }
        return rwPairs.get(k)!;
      },
    };
    expect(shape(await abstReachEnv(rw, rwAbs, solver()))).toEqual(shape(await abstReachEnv(rw, rwAbs, solver(), { noShortcuts: true })));
  }, 60_000);
});

describe('the modular precheck (thread-modular model checking)', () => {
  it('excludes a modular proof where its fixpoint reaches an error, and only there', () => {
    for (const [file, excluded] of [
      ['rwlock', true],
      ['lockbit', true],
      ['dekker', true],
      ['lockid', false],
      ['fig4-fixed', false],
      ['simple4', false],
    ] as const)
      expect([file, modularProofExcluded(coneOfInfluence(loadProgram(`benchmarks/programs/${file}.c`)).program)]).toEqual([file, excluded]);
  });

  it('where none exists, finds the finest groups of threads whose thread-modular fixpoint has no error', () => {
    const groups = (file: string) => {
      const p = coneOfInfluence(loadProgram(`benchmarks/programs/${file}.c`)).program;
      return provableGroups(p)?.map((g) => g.map((k) => p.threads[k].name));
    };
    expect(groups('rwlock')).toEqual([['writer1', 'writer2'], ['reader', 'reader#2']]);
    expect(groups('rwlock-broken')).toBeUndefined(); // its error is real
    expect(groups('dekker')).toBeUndefined(); // two threads: the only group is the product
  });

  it('the grouped clauses: a state unknown over the globals and its group\'s locals, an environment unknown over the globals and its mates\' locals', async () => {
    const p = coneOfInfluence(loadProgram('benchmarks/programs/rwlock.c')).program;
    const groups = provableGroups(p)!;
    const abs = { state: p.threads.map(() => new PredicateSet()), transition: () => new PredicateSet() };
    const aret = await abstReachEnv(p, abs, solver());
    const tuple = (await findErrorTuple(p, aret, solver()))!;
    const sys = mkHornClauses(p, tuple, { name: 'grouped', groups });
    const reader = p.threads.findIndex((t) => t.name === 'reader');
    const byId = new Map<string, number>([...aret.states.flat().map((s) => [`s${s.id}`, s.thread] as const), ...aret.env.flat().map((e) => [`e${e.id}`, e.target] as const)]);
    const readers = ['reader.pc', 'reader.l', 'reader#2.pc', 'reader#2.l'];
    let checked = 0;
    for (const r of sys.relations) {
      if (byId.get(r.name) !== reader) continue;
      checked++;
      const want = r.name.startsWith('s') ? [...p.globals, ...readers] : [...p.globals, 'reader#2.pc', 'reader#2.l'].flatMap((v) => [v, `${v}'`]);
      expect([...r.params].sort()).toEqual(want.sort());
    }
    expect(checked).toBeGreaterThan(1);
  });

  it('lockbit under the modular bias: every refinement unbiased, and the paper\'s own REFINE again with the precheck off', async () => {
    const v = await run('benchmarks/programs/lockbit.c', 'modular');
    expect(v.verdict).toBe('safe');
    expect(v.stats.modularExcluded).toBe(true);
    expect(v.stats.refinements.modular).toBe(0);
    const w = await run('benchmarks/programs/lockbit.c', 'modular', 'spacer', { modularPrecheck: false });
    expect(w.verdict).toBe('safe');
    expect(w.stats.modularExcluded).toBe(false);
    expect(w.stats.refinements.modular).toBeGreaterThan(0);
  }, 180_000);
});

describe('rwlock: a small proof that refinement without the bias takes 34 rounds to reach (the RELY_SLOW test above)', () => {
  it('predicates that know where the other reader (the other writer) is express a proof: no error tuple, a small ARET, a proof that checks', async () => {
    const whole = loadProgram('benchmarks/programs/rwlock.c');
    const slice = coneOfInfluence(whole);
    const p = slice.program;
    const th = (name: string) => p.threads.findIndex((t) => t.name === name);
    const [w1, w2, r1, r2] = ['writer1', 'writer2', 'reader', 'reader#2'].map(th);
    const partner = new Map([[w1, w2], [w2, w1], [r1, r2], [r2, r1]]);
    const v = (name: string) => mkVar(name);
    const pc = (k: number, post = false) => v(post ? `${p.threads[k].pc}'` : p.threads[k].pc);
    const everywhere = (k: number, post = false) => p.threads[k].locations.map((l) => eq(pc(k, post), num(l.pc)));
    const counts = [eq(v('w'), num(0)), eq(v('w'), num(1)), eq(v('r'), num(0)), eq(v('r'), num(1)), eq(v('r'), num(2))];
    const pairs = new Map<string, PredicateSet>();
    const set = (preds: Term[]) => {
      const s = new PredicateSet();
      s.add(preds);
      return s;
    };
    const abs = {
      // P_i: where i's partner is, the lock's counters, and for a reader what it read.
      state: p.threads.map((t, i) => set([...everywhere(partner.get(i)!), ...counts, ...(t.fn === 'reader' ? [eq(v(`${t.name}.l`), v('x')), eq(v('x'), v('y'))] : [])])),
      // P_j▷i: the counters before and after, the data, and where i's partner goes (or that it stays).
      transition: (j: number, i: number) => {
        const k = `${j}>${i}`;
        if (!pairs.has(k)) {
          const moves = partner.get(i) === j ? [...everywhere(j), ...everywhere(j, true)] : [eq(pc(partner.get(i)!, true), pc(partner.get(i)!))];
          const data = [eq(v("x'"), v('x')), eq(v("y'"), v('y')), eq(v("y'"), v("x'"))];
          const steps = [eq(v("w'"), v('w')), eq(v("w'"), num(0)), eq(v("w'"), num(1)), eq(v("r'"), v('r')), eq(v("r'"), add(v('r'), num(1))), eq(v("r'"), add(v('r'), num(-1)))];
          pairs.set(k, set([...counts, ...steps, ...data, ...moves]));
        }
        return pairs.get(k)!;
      },
    };
    const aret = await abstReachEnv(p, abs, solver());
    expect(await findErrorTuple(p, aret, solver())).toBeNull();
    expect(aret.states.flat().length).toBeLessThan(300);
    const proof = liftProof(whole, slice, proofOf(p, aret));
    expect(proof.modular).toBe(false);
    expect(await checkProof(whole, proof, solver())).toBeUndefined();
  });
});

describe('proof check', () => {
  it('rejects a proof that is not inductive, and one that does not exclude the error', async () => {
    const p = loadProgram('benchmarks/programs/lockbit.c');
    const n = p.threads.length;
    // R_i = φ_init is not closed under the threads' own or environment steps (CS2/CS3 fail).
    const tooStrong = { reach: Array(n).fill(p.init), env: Array(n).fill(and()), modular: false };
    expect(await checkProof(p, tooStrong, solver())).toMatch(/^CS[23] /);
    // R_i = true is inductive but admits the error (CS5 fails).
    const tooWeak = { reach: Array(n).fill(and()), env: Array(n).fill(and()), modular: false };
    expect(await checkProof(p, tooWeak, solver())).toBe('CS5 does not hold');
  });
});

describe('abstraction helpers', () => {
  it('cube implication is a subset test', () => {
    const [a, b, c] = [le(mkVar('x'), num(1)), eq(mkVar('y'), num(2)), gt(mkVar('z'), num(0))];
    expect(cubeImplies(cube([a, b, c]), cube([c, a]))).toBe(true);
    expect(cubeImplies(cube([a]), cube([a, b]))).toBe(false);
    expect(cubeImplies(cube([a]), cube([]))).toBe(true);
  });

  it('PredsOf splits negated equalities into their strict sides', () => {
    const x = mkVar('x');
    const preds = predsOf(and(not(eq(x, num(5))), or(le(x, num(9)), eq(mkVar('y'), x))));
    expect(preds).toContain(lt(x, num(5)));
    expect(preds).toContain(gt(x, num(5)));
    expect(preds).toContain(le(x, num(9)));
    expect(preds).toContain(eq(mkVar('y'), x));
  });
});

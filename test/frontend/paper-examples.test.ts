/**
 * The paper's §2/§6 examples LockBit (Fig. 1), LockId (Fig. 3) and LockBitCnt (Fig. 12)
 * written in the C dialect lower to transitions equivalent to the paper's ρ's — checked
 * by z3 (validity of ρ_paper ⇔ ρ_ours), not by comparing strings.
 *
 * Differences from the paper, by construction: the C versions also have main (thread 0,
 * whose only transition is local), and a critical section that writes and checks the
 * global x (C cannot name another thread's pc, so φ_err is an assertion). The paper's
 * ρ's therefore gain the frame x' = x and main.pc' = main.pc, and our transitions after
 * the lock are extra.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { loadProgram } from '../../frontend/index.js';
import { fullFormula, type Program, type Transition } from '../../program/program.js';
import { add, and, eq, ge, mkVar, not, num, or, type Term } from '../../solver/formula.js';
import { checkSmt, stopZ3, valid, validIffExists } from '../helpers.js';
import { programSmt2 } from '../../program/print.js';

afterAll(stopZ3);

const v = (n: string): Term => mkVar(n);
const iff = (a: Term, b: Term): Term => and(or(not(a), b), or(not(b), a));
const unchanged = (...names: string[]): Term => and(...names.map((n) => eq(v(`${n}'`), v(n))));

function load(name: string): Program {
  return loadProgram(`benchmarks/programs/${name}.c`);
}

/** The thread's transition leaving its entry (the paper's first statement of the thread). */
function fromEntry(p: Program, thread: string): Transition {
  const th = p.threads.find((t) => t.name === thread)!;
  const ts = th.transitions.filter((t) => t.from === th.entryPc);
  expect(ts).toHaveLength(1);
  return ts[0];
}

/** ρ_i of Fig. 1/3: lock = 0 ∧ lock' = k ∧ pc_i = a ∧ pc_i' = b ∧ ρ_j^= (plus our frames). */
function takeLock(me: string, other: string, k: number, a: number, b: number): Term {
  return and(
    eq(v('lock'), num(0)),
    eq(v("lock'"), num(k)),
    eq(v(`${me}.pc`), num(a)),
    eq(v(`${me}.pc'`), num(b)),
    unchanged(`${other}.pc`, 'x', 'main.pc'),
  );
}

describe('paper §2 examples lower to the paper\'s transitions', () => {
  for (const [file, k2] of [
    ['lockbit', 1],
    ['lockid', 2],
  ] as const) {
    it(`${file}: ρ1, ρ2 and φ_init`, async () => {
      const p = load(file);
      expect(p.threads.map((t) => t.name)).toEqual(['main', 'thr1', 'thr2']);
      const r1 = fromEntry(p, 'thr1');
      const r2 = fromEntry(p, 'thr2');
      expect(await valid(iff(fullFormula(p, r1), takeLock('thr1', 'thr2', 1, 0, r1.to)))).toBe(true);
      expect(await valid(iff(fullFormula(p, r2), takeLock('thr2', 'thr1', k2, 0, r2.to)))).toBe(true);
      // φ_init = (pc1 = a ∧ pc2 = p ∧ lock = 0), plus x = 0 and main's pc.
      const init = and(eq(v('thr1.pc'), num(0)), eq(v('thr2.pc'), num(0)), eq(v('lock'), num(0)), eq(v('x'), num(0)), eq(v('main.pc'), num(0)));
      expect(await valid(iff(p.init, init))).toBe(true);
      // Negative control: the check does tell different transitions apart.
      expect(await valid(iff(fullFormula(p, r2), takeLock('thr2', 'thr1', k2 + 1, 0, r2.to)))).toBe(false);
    });
  }

  it('lockbitcnt: the entry transition of thread 1 is ρ0 ; ρ1 (local ρ0 merged by large blocks)', async () => {
    const p = load('lockbitcnt');
    const r = fromEntry(p, 'thr1');
    // ρ0 = (pc1 = x ∧ pc1' = a ∧ lock = lock' ∧ cnt + 1 = cnt' ∧ 1 ≤ cnt' ∧ ρ2^=)
    // ρ1 = (pc1 = a ∧ pc1' = b ∧ lock = 0 ∧ lock' = 1 ∧ cnt = cnt' ∧ ρ2^=)
    // ρ0 ∘ ρ1 with the intermediate state eliminated by hand: the composition keeps
    // lock = 0 (ρ1's guard on the unchanged lock), cnt' = cnt + 1, 1 ≤ cnt + 1.
    const cnt = v('thr1.cnt');
    const rho01 = and(
      eq(v('thr1.pc'), num(0)),
      eq(v("thr1.pc'"), num(r.to)),
      eq(v('lock'), num(0)),
      eq(v("lock'"), num(1)),
      eq(v("thr1.cnt'"), add(cnt, num(1))),
      ge(add(cnt, num(1)), num(1)),
      unchanged('thr2.pc', 'x', 'main.pc'),
    );
    expect(await valid(iff(fullFormula(p, r), rho01))).toBe(true);
    // The same, as the relational composition itself: ours ⇔ ∃ mid. ρ0(V, mid) ∧ ρ1(mid, V').
    const rho0 = and(eq(v('thr1.pc'), num(0)), eq(v('m.pc'), num(99)), eq(v('m.lock'), v('lock')), eq(v('m.cnt'), add(cnt, num(1))), ge(v('m.cnt'), num(1)));
    const rho1 = and(eq(v('m.pc'), num(99)), eq(v("thr1.pc'"), num(r.to)), eq(v('m.lock'), num(0)), eq(v("lock'"), num(1)), eq(v("thr1.cnt'"), v('m.cnt')));
    const frame = unchanged('thr2.pc', 'x', 'main.pc');
    expect(await validIffExists(fullFormula(p, r), ['m.pc', 'm.lock', 'm.cnt'], and(rho0, rho1, frame))).toBe(true);
    // Negative control: dropping ρ0's guard changes nothing here (cnt starts at 0) but
    // requiring cnt' ≥ 2 must be told apart.
    expect(await validIffExists(fullFormula(p, r), ['m.pc', 'm.lock', 'm.cnt'], and(rho0, rho1, frame, ge(v("thr1.cnt'"), num(2))))).toBe(false);
    // φ_init = (pc1 = x ∧ pc2 = p ∧ lock = 0 ∧ cnt = 0)
    const init = and(eq(v('thr1.pc'), num(0)), eq(v('thr2.pc'), num(0)), eq(v('lock'), num(0)), eq(cnt, num(0)), eq(v('x'), num(0)), eq(v('main.pc'), num(0)));
    expect(await valid(iff(p.init, init))).toBe(true);
    // ρ2 as in LockBit.
    const r2 = fromEntry(p, 'thr2');
    expect(await valid(iff(fullFormula(p, r2), and(takeLock('thr2', 'thr1', 1, 0, r2.to), unchanged('thr1.cnt'))))).toBe(true);
  });

  it('each thread of the paper examples has exactly one transition writing lock', () => {
    for (const f of ['lockbit', 'lockid', 'lockbitcnt']) {
      const p = load(f);
      for (const th of p.threads.slice(1)) expect(th.transitions.filter((t) => t.writes.includes('lock'))).toHaveLength(1);
    }
  });

  it('the SMT-LIB emission is accepted by z3 and means what the IR means', async () => {
    const p = load('lockbit');
    const smt = programSmt2(p);
    expect(await checkSmt(`${smt}(assert init)`)).toBe('sat');
    expect(await checkSmt(`${smt}(assert (and init err))`)).toBe('unsat');
    const t = fromEntry(p, 'thr1');
    // The entry transition fires from init and lands outside init.
    expect(await checkSmt(`${smt}(assert (and init |t${t.id}|))`)).toBe('sat');
  });
});

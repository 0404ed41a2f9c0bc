/**
 * The box decision procedure (engines/aret/box.ts) replaces solver queries in the abstract
 * post, so it must agree with z3 exactly: on random conjunctions of bounds and
 * offset equalities, satisfiability and every tested implication are compared with
 * the solver's answer, whether the box is built at once or as the meet of two boxes. Atoms outside the box form must make it decline (null).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Box } from '../../../engines/aret/box.js';
import { add, and, eq, le, lt, mkVar, mul, not, num, type Term } from '../../../solver/formula.js';
import { createSolver } from '../../../solver/select.js';
import { mulberry32 } from '../../../benchmarks/prng.js';

const solver = createSolver('auto');
afterAll(() => solver.close());

const vars = ['a', 'b', 'c', "a'", "b'"].map((v) => mkVar(v));

function boxAtom(r: () => number): Term {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const k = num(Math.floor(r() * 7) - 3);
  const [x, y] = [pick(vars), pick(vars)];
  switch (Math.floor(r() * 4)) {
    case 0:
      return eq(x, add(y, k)); // offset equality (or a bound when x = y)
    case 1:
      return le(x, k);
    case 2:
      return le(k, mul(num(2), x)); // a scaled bound
    default:
      return eq(x, k);
  }
}

describe('Box', () => {
  const SEED = 20261122;
  it(`agrees with the solver on 1000 random conjunctions (seed ${SEED})`, async () => {
    const r = mulberry32(SEED);
    let decided = 0;
    for (let n = 0; n < 1000; n++) {
      const atoms = Array.from({ length: 1 + Math.floor(r() * 5) }, () => boxAtom(r));
      // Half the time the box is built in two steps (a state's box meets a step's).
      const k = r() < 0.5 ? 0 : Math.floor(r() * atoms.length);
      const [first, second] = [Box.of(atoms.slice(0, k)), Box.of(atoms.slice(k))];
      const box = first === null || second === null ? null : first === 'unsat' || second === 'unsat' ? 'unsat' : first.meet(second);
      expect(box, `conjunction ${n}`).not.toBeNull();
      const sat = (await solver.check([and(...atoms)])).status === 'sat';
      expect(box !== 'unsat', `satisfiability of conjunction ${n}`).toBe(sat);
      if (box === 'unsat' || box === null) continue;
      for (let q = 0; q < 4; q++) {
        const p = q % 2 ? boxAtom(r) : le(add(vars[q], mul(num(-1), vars[q + 1])), num(Math.floor(r() * 5) - 2));
        const implied = (await solver.check([...atoms, not(p)])).status === 'unsat';
        expect(box.implies(p), `conjunction ${n}, predicate ${q}`).toBe(implied);
        decided++;
      }
    }
    expect(decided).toBeGreaterThan(1500);
  });

  it('declines atoms that relate two classes by an inequality, and non-linear ones', () => {
    const [a, b] = vars;
    expect(Box.of([lt(a, b)])).toBeNull();
    expect(Box.of([eq(mul(a, b), num(1))])).toBeNull();
    const box = Box.of([eq(a, num(1))]);
    expect(box === null || box === 'unsat' ? null : box.implies(eq(mul(a, b), num(1)))).toBeNull();
  });
});

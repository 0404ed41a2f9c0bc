/**
 * C division by a constant in Horn clauses: the rewriting into a quotient and a remainder
 * is equivalent, checked by z3 on quantified formulas. The other solver tests are in
 * solver.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { add, and, cdiv, crem, eq, le, mkVar, num, show, varsOf } from '../../solver/formula.js';
import { withQuotients, type HornSystem } from '../../solver/horn.js';
import { validIffExists } from '../helpers.js';

describe('C division by a constant in Horn clauses (withQuotients)', () => {
  it('replaces e / k and e % k by a quotient and a remainder: the same clause for every value of e', async () => {
    const [x, y] = [mkVar('x'), mkVar('y')];
    for (const k of [-3, 2, 5]) {
      const c = and(eq(y, add(cdiv(x, num(k)), crem(x, num(k)))), le(crem(add(x, y), num(k)), num(0)));
      const sys: HornSystem = { relations: [{ name: 'R', params: ['x'] }], clauses: [{ body: [], constraint: c, head: { rel: 'R', args: [x] } }] };
      const rewritten = withQuotients(sys).clauses[0].constraint;
      const fresh = [...varsOf(rewritten)].filter((v) => v !== 'x' && v !== 'y');
      expect(fresh.sort()).toEqual(['q!1', 'q!2', 'r!1', 'r!2']);
      expect(show(rewritten)).not.toMatch(/[/%]/);
      expect(await validIffExists(c, fresh, rewritten), `k = ${k}`).toBe(true);
    }
  });
});

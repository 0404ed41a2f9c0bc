/** The formula IR: hash-consing, normalisation, substitution, evaluation, printing. */
import { describe, expect, it } from 'vitest';
import {
  FALSE,
  TRUE,
  add,
  and,
  cdiv,
  crem,
  eq,
  evaluate,
  ge,
  isLinear,
  le,
  lt,
  mkVar,
  mul,
  not,
  num,
  or,
  prime,
  show,
  sub,
  substitute,
  toSmt,
  varsOf,
} from '../../solver/formula.js';

const x = mkVar('x');
const y = mkVar('y');

describe('formula IR', () => {
  it('hash-conses: equal terms are the same object', () => {
    expect(add(x, num(1))).toBe(add(num(1), x));
    expect(eq(x, y)).toBe(eq(y, x));
    expect(le(add(x, x), num(4))).toBe(le(x, num(2)));
    expect(and(eq(x, num(1)), TRUE)).toBe(eq(x, num(1)));
  });

  it('normalises linear atoms over the integers', () => {
    expect(lt(x, num(3))).toBe(le(x, num(2)));
    expect(ge(x, y)).toBe(le(sub(y, x), num(0)));
    expect(le(mul(num(2), x), num(3))).toBe(le(x, num(1))); // 2x <= 3 ⇔ x <= 1
    expect(eq(mul(num(2), x), num(3))).toBe(FALSE);
    expect(le(num(1), num(2))).toBe(TRUE);
    expect(not(le(x, num(2)))).toBe(le(num(3), x));
    expect(and(eq(x, num(1)), FALSE)).toBe(FALSE);
    expect(or(eq(x, num(1)), TRUE)).toBe(TRUE);
  });

  it('substitutes, primes and collects variables', () => {
    const t = and(eq(mkVar("x'"), add(x, num(1))), le(y, x));
    expect(substitute(t, new Map([['x', num(2)]]))).toBe(and(eq(mkVar("x'"), num(3)), le(y, num(2))));
    expect([...varsOf(prime(le(x, y)))].sort()).toEqual(["x'", "y'"]);
  });

  it('evaluates with C division semantics (truncation toward zero)', () => {
    const val = (n: string) => (n === 'x' ? -7n : 2n);
    expect(evaluate(cdiv(x, y), val)).toBe(-3n);
    expect(evaluate(crem(x, y), val)).toBe(-1n);
    expect(evaluate(and(le(x, y), eq(y, num(2))), val)).toBe(true);
  });

  it('marks non-linear terms', () => {
    expect(isLinear(le(add(x, mul(num(3), y)), num(1)))).toBe(true);
    expect(isLinear(le(mul(x, y), num(1)))).toBe(false);
    expect(isLinear(le(cdiv(x, num(2)), num(1)))).toBe(true);
    expect(isLinear(le(cdiv(x, y), num(1)))).toBe(false);
  });

  it('prints readable text and SMT-LIB', () => {
    expect(show(eq(mkVar("x'"), add(x, num(1))))).toBe("x' = x + 1");
    expect(show(le(num(0), x))).toBe('x >= 0');
    // C's precedence: `(x + 1) % 2`, not `x + 1 % 2`.
    expect(show(crem(add(x, num(1)), num(2)))).toBe('(x + 1) % 2');
    expect(show(cdiv(x, mul(num(2), mkVar('y'))))).toBe('x / (2*y)');
    expect(toSmt(eq(mkVar("x'"), num(-1)))).toBe("(= |x'| (- 1))");
    expect(toSmt(cdiv(x, num(2)))).toMatch(/^\(ite \(>= x 0\) \(div x 2\)/);
  });
});

describe('SMT-LIB symbols', () => {
  it("a variable named like one of SMT-LIB's functions is quoted; other names stay as written", async () => {
    const { smtSymbol } = await import('../../solver/formula.js');
    expect(smtSymbol('select')).toBe('|select|');
    expect(smtSymbol('div')).toBe('|div|');
    expect(smtSymbol('selected')).toBe('selected');
    expect(smtSymbol('f#2.x')).toBe('|f#2.x|');
  });

  it('a term read back from the solver is printed with its quotes (they are dropped when it is parsed)', async () => {
    const { parseSExprs, showSmt } = await import('../../solver/sexpr.js');
    const [e] = parseSExprs("(exists ((|select| Int) (x!1 Int)) (and (<= |select| |a[0]|) (= x!1 (- 2)) (let ((a!1 (+ |select| 1))) (> a!1 0))))");
    expect(showSmt(e)).toBe("(exists ((|select| Int) (|x!1| Int)) (and (<= |select| |a[0]|) (= |x!1| (- 2)) (let ((|a!1| (+ |select| 1))) (> |a!1| 0))))");
  });
});

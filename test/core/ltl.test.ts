/**
 * LTL formulas (core/ltl.ts) and their Büchi automata (core/buchi.ts): the parser and
 * its located errors, small automata and the lasso semantics. Generated formulas
 * against the semantics and against SPIN are in ltl.slow.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { LtlSyntaxError, holdsOnLasso, parseLtl, showLtl, toNnf, type Lasso } from '../../core/ltl.js';
import { acceptsLasso, buchiOf } from '../../core/buchi.js';

const errorOf = (src: string): { col: number; message: string } => {
  try {
    parseLtl(src);
  } catch (e) {
    if (e instanceof LtlSyntaxError) return { col: e.col, message: e.message };
    throw e;
  }
  throw new Error(`no error for ${src}`);
};

describe('LTL parser', () => {
  it('precedence: -> loosest, then ||, &&, U and R, prefix operators tightest; atoms are C conditions as written', () => {
    expect(showLtl(parseLtl('G (x == 0 -> F y != 1)'))).toBe('G (x == 0 -> F y != 1)');
    expect(showLtl(parseLtl('p && q || r -> s'))).toBe('(((p && q) || r) -> s)');
    expect(showLtl(parseLtl('a U b && c R d'))).toBe('((a U b) && (c R d))');
    expect(showLtl(parseLtl('a U b U c'))).toBe('(a U (b U c))');
    expect(showLtl(parseLtl('G F at(worker#2, cs)'))).toBe('G F at(worker#2, cs)');
    expect(showLtl(parseLtl('!X x + (y * 2) >= 3'))).toBe('! X x + (y * 2) >= 3');
    expect(parseLtl('G true')).toEqual({ op: 'G', arg: { op: 'true' } });
  });

  it('malformed formulas: the message and the column in the formula', () => {
    expect(errorOf('G (x == 0')).toEqual({ col: 10, message: "expected ')' at the end" });
    expect(errorOf('x == 0 &&')).toEqual({ col: 10, message: 'the formula ends where a formula was expected' });
    expect(errorOf('G && p')).toEqual({ col: 3, message: "unexpected '&&'" });
    expect(errorOf('p q')).toEqual({ col: 3, message: "expected an operator or a connective before 'q'" });
    expect(errorOf('F p )')).toEqual({ col: 5, message: "unexpected ')'" });
    expect(errorOf('G x == $')).toEqual({ col: 8, message: "unexpected character '$'" });
  });
});

describe('LTL to Büchi (GPVW tableau, degeneralized)', () => {
  it('small automata: G p has one state besides the initial one, F p three, G F p accepts exactly the lassos with p on the cycle', () => {
    const ba = (s: string) => buchiOf(toNnf(parseLtl(s)));
    expect(ba('G p').size).toBe(2);
    expect(ba('F p').size).toBe(4); // GPVW's nodes {p}, {true U p, X(true U p)} and the empty one after p

    const gfp = ba('G F p');
    const P = new Set(['p']);
    const none = new Set<string>();
    expect(acceptsLasso(gfp, { stem: [P, P], cycle: [none] })).toBe(false);
    expect(acceptsLasso(gfp, { stem: [none], cycle: [none, P] })).toBe(true);
  });

  it('the lasso semantics itself: U is least (p U q needs q), R greatest (false R p is G p), X reads the cycle around', () => {
    const P = new Set(['p']);
    const Q = new Set(['q']);
    const holds = (s: string, w: Lasso) => holdsOnLasso(toNnf(parseLtl(s)), w);
    expect(holds('p U q', { stem: [], cycle: [P] })).toBe(false);
    expect(holds('p U q', { stem: [P, P], cycle: [Q] })).toBe(true);
    expect(holds('G p', { stem: [P], cycle: [P] })).toBe(true);
    expect(holds('X X q', { stem: [], cycle: [P, Q] })).toBe(false);
    expect(holds('X X X q', { stem: [], cycle: [P, Q] })).toBe(true);
  });
});

/**
 * Conditions as control flow: `&&`, `||` and `!` become branching, and a comparison
 * becomes single-atom assume edges (`!=` is split into `<` and `>`). A condition used
 * as a value goes through a 0/1 temporary.
 */
import type { Expr } from '../ast.js';
import { FALSE, TRUE, and, eq, ge, gt, le, lt, not, num, or, type Term } from '../../solver/formula.js';
import { unsupported } from '../diagnostics.js';
import type { ThreadBuilder } from './builder.js';
import { castType } from './declared-types.js';
import { commonType, convertTo, exprType } from './integers.js';
import { comparedPointers, pointee, pointerValue } from './pointers.js';
import { BOOL } from '../types.js';

type Rel = (a: Term, b: Term) => [Term[], Term[]];

/** For each comparison: the atoms of "holds", and those of "fails". */
export const REL: Record<string, Rel> = {
  '==': (a, b) => [[eq(a, b)], [lt(a, b), gt(a, b)]],
  '!=': (a, b) => [[lt(a, b), gt(a, b)], [eq(a, b)]],
  '<': (a, b) => [[lt(a, b)], [ge(a, b)]],
  '<=': (a, b) => [[le(a, b)], [gt(a, b)]],
  '>': (a, b) => [[gt(a, b)], [le(a, b)]],
  '>=': (a, b) => [[ge(a, b)], [lt(a, b)]],
};

/** Emits edges from the current location to `t` when `e` holds and to `f` otherwise (none to a negative one). */
export function branch(b: ThreadBuilder, e: Expr, t: number, f: number, blocking = false): void {
  if (e.k === 'binary' && (e.op === '&&' || e.op === '||')) {
    const mid = b.cfg.newLoc(e.right.pos);
    if (e.op === '&&') branch(b, e.left, mid, f, blocking);
    else branch(b, e.left, t, mid, blocking);
    b.cur = mid;
    branch(b, e.right, t, f, blocking);
    return;
  }
  if (e.k === 'unary' && e.op === '!') return branch(b, e.arg, f, t, blocking);
  if (e.k === 'cast' && castType(b.L.typeEnv, e).k === 'int') return branch(b, e.arg, t, f, blocking);
  if (e.k === 'comma') {
    e.exprs.slice(0, -1).forEach((x) => b.effect(x));
    return branch(b, e.exprs[e.exprs.length - 1], t, f, blocking);
  }
  const rel = e.k === 'binary' ? REL[e.op] : undefined;
  let yes: Term[];
  let no: Term[];
  if (e.k === 'binary' && rel && (pointee(b, e.left) || pointee(b, e.right))) {
    [yes, no] = rel(...comparedPointers(b, e.left, e.right, e.op, e.pos));
  } else if (e.k === 'binary' && rel) {
    // Both sides convert to their common type: `u > -1` compares u with UINT_MAX.
    const t = commonType(exprType(b, e.left), exprType(b, e.right));
    const l = convertTo(b, b.rvalue(e.left), t, e.pos);
    const r = convertTo(b, b.rvalue(e.right), t, e.pos);
    [yes, no] = rel(l, r);
  } else {
    const v = pointee(b, e) ? pointerValue(b, e).term : b.rvalue(e);
    [yes, no] = REL['!='](v, num(0));
  }
  const from = b.cur;
  if (t >= 0)
    for (const c of yes) {
      b.cur = from;
      b.assume(c, t, e.pos, blocking);
    }
  if (f >= 0)
    for (const c of no) {
      b.cur = from;
      b.assume(c, f, e.pos, blocking);
    }
  b.cur = b.cfg.newLoc();
}

/** The 0/1 value of a condition, through a temporary. */
export function boolValue(b: ThreadBuilder, e: Expr): Term {
  const c = b.L.constant(e);
  if (c !== undefined) return num(c !== 0n ? 1n : 0n);
  const tmp = b.fresh('bool', BOOL);
  b.diamond(
    (t, f) => branch(b, e, t, f),
    e.pos,
    () => b.assign(tmp, num(1), e.pos, ''),
    () => b.assign(tmp, num(0), e.pos, ''),
  );
  return b.read(tmp, e.pos);
}

/**
 * A side-effect-free condition as one formula rather than as control flow. `&&`, `||`
 * and `!` become and, or and not, as `branch` reads them; each comparison (or value
 * compared with 0) is lowered by `branch` itself (C's conversions and `!=` included)
 * and holds when a path of its edges to the true target has all its atoms hold. (One
 * formula of the whole condition's paths would repeat what follows a failed operand
 * of `||` once per way of failing it: exponential in the number of operands.)
 * Anything that is not a pure condition (a call, an assignment, a value that needs a
 * temporary) is unsupported here.
 */
export function conditionFormula(b: ThreadBuilder, e: Expr): Term {
  if (e.k === 'binary' && (e.op === '&&' || e.op === '||')) {
    const l = conditionFormula(b, e.left);
    const r = conditionFormula(b, e.right);
    return e.op === '&&' ? and(l, r) : or(l, r);
  }
  if (e.k === 'unary' && e.op === '!') return not(conditionFormula(b, e.arg));
  const start = b.cur;
  const t = b.cfg.newLoc();
  const f = b.cfg.newLoc();
  branch(b, e, t, f);
  const memo = new Map<number, Term>([[t, TRUE], [f, FALSE]]);
  const holds = (loc: number): Term => {
    let h = memo.get(loc);
    if (h === undefined) {
      h = or(
        ...b.cfg.out[loc].map((edge) => {
          if (edge.action.kind === 'skip') return holds(edge.to);
          if (edge.action.kind !== 'assume') return unsupported(e.pos, 'not a side-effect-free condition');
          return and(edge.action.cond, holds(edge.to));
        }),
      );
      memo.set(loc, h);
    }
    return h;
  };
  return holds(start);
}

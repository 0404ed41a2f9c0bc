/**
 * Conditions as control flow: `&&`, `||` and `!` become branching, and a comparison
 * becomes single-atom assume edges (`!=` is split into `<` and `>`). A condition used
 * as a value goes through a 0/1 temporary; inside an atomic section a side-effect-free
 * one (and a `?:` of such values) becomes an if-then-else term instead (pureValue).
 */
import type { Expr } from '../ast.js';
import { FALSE, TRUE, add, and, cdiv, crem, eq, ge, gt, ite, le, lt, mkVar, mul, neg, not, num, or, sub, type Term } from '../../solver/formula.js';
import { unsupported } from '../../program/diagnostics.js';
import type { ThreadBuilder } from './builder.js';
import { castType } from './declared-types.js';
import { commonType, convertTo, exprType } from './integers.js';
import { comparedPointers, pointee, pointerValue } from './pointers.js';
import { isThreadValue, threadValue } from './thread-ids.js';
import { BOOL, type IntType } from '../types.js';
import { conversion, wraps } from './conversion.js';

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
  } else if (e.k === 'binary' && (e.op === '==' || e.op === '!=') && (isThreadValue(b, e.left) || isThreadValue(b, e.right))) {
    // pthread_t values (an `unsigned long` in glibc) are equal as pthread_equal says.
    [yes, no] = REL[e.op](threadValue(b, e.left), threadValue(b, e.right));
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
  if (b.atomicDepth > 0) {
    const f = pureCondition(b, e);
    if (f) return ite(f, num(1), num(0));
  }
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

/**
 * A side-effect-free value as one term, `?:` and conditions used as values becoming
 * if-then-else terms rather than branches; undefined for anything else, which the
 * caller lowers as control flow: a call, an assignment, a pointer or an array cell (a
 * run-time index is a case split), a division by a variable (its undefined behaviour
 * must reach the error location), a conversion that needs cases. It reads variables
 * and constants only and emits no edge. Used inside atomic sections only: outside
 * one, each read of a global is its own step (another thread may write between the
 * test and the value read), and thread-local branches fold into one block anyway.
 */
export function pureValue(b: ThreadBuilder, e: Expr): Term | undefined {
  const c = b.L.constant(e);
  if (c !== undefined) return num(c);
  if (pointee(b, e)) return undefined;
  switch (e.k) {
    case 'id': {
      if (b.L.enumConstant(e.name) !== undefined && !b.scopes.some((s) => s.has(e.name))) return num(b.L.enumConstant(e.name)!);
      const x = b.lookup(e.name, e.pos);
      if (x.k === 'const') return num(x.value);
      return x.k === 'var' && x.type.k === 'int' ? mkVar(x.name) : undefined;
    }
    case 'unary':
      if (e.op === '+') return pureValue(b, e.arg);
      if (e.op === '-') return inType(b, pureValue(b, e.arg), exprType(b, e), neg);
      return e.op === '!' ? bit(pureCondition(b, e)) : undefined;
    case 'binary': {
      if (REL[e.op] || e.op === '&&' || e.op === '||') return bit(pureCondition(b, e));
      const t = exprType(b, e);
      const l = inType(b, pureValue(b, e.left), t);
      const r = inType(b, pureValue(b, e.right), t);
      if (!l || !r) return undefined;
      if (e.op === '/' || e.op === '%') return r.kind === 'int' && r.value !== 0n ? (e.op === '/' ? cdiv(l, r) : crem(l, r)) : undefined;
      const op = { '+': add, '-': sub, '*': mul }[e.op as '+' | '-' | '*'];
      return op ? inType(b, op(l, r), t) : undefined;
    }
    case 'cond': {
      const f = pureCondition(b, e.test);
      const t = exprType(b, e);
      const x = inType(b, pureValue(b, e.then), t);
      const y = inType(b, pureValue(b, e.else), t);
      return f && x && y ? ite(f, x, y) : undefined;
    }
    case 'cast': {
      const t = castType(b.L.typeEnv, e);
      if (t.k !== 'int') return undefined;
      return t.bool ? bit(pureCondition(b, e.arg)) : inType(b, pureValue(b, e.arg), t);
    }
  }
  return undefined;
}

/** A side-effect-free condition as one formula (see pureValue), read as `branch` reads it; undefined otherwise. */
export function pureCondition(b: ThreadBuilder, e: Expr): Term | undefined {
  if (e.k === 'binary' && (e.op === '&&' || e.op === '||')) {
    const l = pureCondition(b, e.left);
    const r = pureCondition(b, e.right);
    return l && r && (e.op === '&&' ? and(l, r) : or(l, r));
  }
  if (e.k === 'unary' && e.op === '!') {
    const c = pureCondition(b, e.arg);
    return c && not(c);
  }
  if (e.k === 'cast' && castType(b.L.typeEnv, e).k === 'int') return pureCondition(b, e.arg);
  const rel = e.k === 'binary' ? REL[e.op] : undefined;
  if (e.k === 'binary' && rel) {
    if (pointee(b, e.left) || pointee(b, e.right)) return undefined;
    const t = commonType(exprType(b, e.left), exprType(b, e.right));
    const l = inType(b, pureValue(b, e.left), t);
    const r = inType(b, pureValue(b, e.right), t);
    return l && r && (e.op === '!=' ? not(eq(l, r)) : rel(l, r)[0][0]);
  }
  const v = pureValue(b, e);
  return v && not(eq(v, num(0)));
}

const bit = (c: Term | undefined): Term | undefined => c && ite(c, num(1), num(0));

/** `f(v)` converted to type t as convertTo does, or undefined when that conversion would branch. */
function inType(b: ThreadBuilder, v: Term | undefined, t: IntType, f: (v: Term) => Term = (x) => x): Term | undefined {
  if (!v) return undefined;
  const x = f(v);
  if (t.bool) return undefined;
  if (!wraps(t)) return x;
  const c = conversion(b.L.varType.bind(b.L), x, t);
  return 'exact' in c ? c.exact : undefined;
}

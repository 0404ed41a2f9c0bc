/**
 * Expressions: their values as terms over IR variables, and their side effects as
 * edges emitted before the value is used. Assignments, `++`/`--`, `?:` and calls in
 * the middle of an expression go through temporaries (inside an atomic section a
 * side-effect-free `?:` is an if-then-else term instead); a nondeterministic value
 * assigned directly becomes one havoc of the target.
 */
import type { Expr } from '../ast.js';
import { fail, unsupported, type SourcePos } from '../../program/diagnostics.js';
import { add, cdiv, crem, eq, lt, mul, neg, num, sub, varsOf, type Term } from '../../solver/formula.js';
import { showType, type IntType } from '../types.js';
import { calleeName } from './ast-queries.js';
import type { ThreadBuilder } from './builder.js';
import { nondetRange } from './builtins.js';
import { boolValue, branch, pureValue, REL } from './conditions.js';
import { castType } from './declared-types.js';
import type { Binding } from './file-scope.js';
import { atPlace, place, readPlace, type Place } from './places.js';
import { copyStruct } from './structs.js';
import { exprCType, pointee, pointerAsInteger, pointerDifference, pointerUpdate, pointerValue, storePointer } from './pointers.js';
import { commonType, convertTo, exprType, sizeofValue } from './integers.js';
import { wraps } from './conversion.js';
import { atomically } from './library.js';
import { storeThreadId, threadValue } from './thread-ids.js';

/** `/` and `%` take the builder and the operation's type: a divisor known only at run time is checked (divisor below). */
const ARITH: Record<string, (a: Term, b: Term, pos: SourcePos, bl?: ThreadBuilder, t?: IntType) => Term> = {
  '+': (a, b) => add(a, b),
  '-': (a, b) => sub(a, b),
  '*': (a, b) => mul(a, b),
  '/': (a, b, pos, bl, t) => cdiv(a, divisor(bl!, b, t!, pos, 'division by zero')),
  '%': (a, b, pos, bl, t) => crem(a, divisor(bl!, b, t!, pos, 'remainder by zero')),
};

/**
 * A divisor: a value known at run time is compared with zero first, and zero is
 * undefined behaviour that reaches the error location (as an array index out of
 * bounds does); a constant zero reaches it wherever the division is evaluated (C
 * leaves only an evaluated division undefined: `d == 0 ? 1 : 10 / d` with a `d`
 * nothing writes is fine). Without the check the explicit
 * engines divided by zero (an internal error) and the SMT engines let the quotient
 * be anything. A divisor that reads globals is copied to a temporary first, so that
 * the value checked is the value divided by.
 */
function divisor(b: ThreadBuilder, d: Term, t: IntType, pos: SourcePos, what: string): Term {
  if (d.kind === 'int' && d.value !== 0n) return d;
  let v: Term = d;
  if ([...varsOf(d)].some((x) => b.L.isGlobal(x))) {
    const tmp = b.fresh('div', t);
    b.assign(tmp, d, pos, '');
    v = b.read(tmp, pos);
  }
  const from = b.cur;
  const ok = b.cfg.newLoc(pos);
  const zero = b.cfg.newLoc(pos);
  b.assume(lt(v, num(0)), ok, pos, false);
  b.cur = from;
  b.assume(lt(num(0), v), ok, pos, false);
  b.cur = from;
  b.assume(eq(v, num(0)), zero, pos, false);
  b.cur = zero;
  b.goto(b.err, pos, `${what} (undefined behaviour)`);
  b.cur = ok;
  return v;
}

/** Evaluates an expression for its side effects only. */
export function effect(b: ThreadBuilder, e: Expr): void {
  if ((e.k === 'assign' || e.k === 'incdec') && pointee(b, e.target)) return pointerUpdate(b, e);
  switch (e.k) {
    case 'assign':
      assignment(b, e);
      return;
    case 'incdec': {
      const step = e.op === '++' ? add : sub;
      atPlace(b, place(b, e.target), (lv) => oneStepIfAtomic(b, lv, e.pos, () => b.assign(lv, step(b.read(lv, e.pos), num(1)), e.pos)));
      return;
    }
    case 'call':
      b.call(e, false);
      return;
    case 'comma':
      e.exprs.forEach((x) => effect(b, x));
      return;
    case 'cast':
      effect(b, e.arg);
      return;
    case 'stmtexpr':
      b.stmt(e.body);
      return;
    case 'sizeof':
      return; // its operand is not evaluated
    case 'unary':
      if (e.op === '&' && e.arg.k === 'id') return; // an address, unused (`pthread_mutex_destroy(&m)`)
      break;
    case 'id':
      if (pointee(b, e)) return; // a pointer's value, unused
      break;
    case 'cond':
      b.diamond(
        (t, f) => branch(b, e.test, t, f),
        e.pos,
        () => effect(b, e.then),
        () => effect(b, e.else),
      );
      return;
  }
  rvalue(b, e);
}

/** Value of an expression as a term, emitting the edges of its side effects first. */
export function rvalue(b: ThreadBuilder, e: Expr): Term {
  if (pointee(b, e)) return pointerAsInteger(b, e);
  switch (e.k) {
    case 'num':
      return num(e.value);
    case 'id': {
      const enumValue = b.L.enumConstant(e.name);
      if (enumValue !== undefined && !b.scopes.some((s) => s.has(e.name))) return num(enumValue);
      return b.read(b.lookup(e.name, e.pos), e.pos);
    }
    case 'index':
      return readPlace(b, place(b, e), e.pos);
    case 'unary':
      return unary(b, e);
    case 'binary': {
      if (REL[e.op] || e.op === '&&' || e.op === '||') return boolValue(b, e);
      if (e.op === '-' && pointee(b, e.left) && pointee(b, e.right)) return pointerDifference(b, e.left, e.right, e.pos);
      const arith = ARITH[e.op] ?? unsupported(e.pos, `operator '${e.op}' (bit operations and shifts are not modelled)`);
      const t = exprType(b, e);
      if (!wraps(t)) return arith(rvalue(b, e.left), rvalue(b, e.right), e.pos, b, t);
      // In a type that wraps, +, - and * commute with the wrap: a chain of them is
      // computed mathematically and converted once; / and % need converted operands.
      if (e.op === '/' || e.op === '%') return arith(convertTo(b, rvalue(b, e.left), t, e.pos), convertTo(b, rvalue(b, e.right), t, e.pos), e.pos, b, t);
      return convertTo(b, ringValue(b, e, t), t, e.pos);
    }
    case 'assign':
      return readPlace(b, assignment(b, e), e.pos);
    case 'incdec':
      return incdecValue(b, e);
    case 'cond':
      return condValue(b, e);
    case 'call':
      return b.call(e, true) ?? fail(e.pos, `'${calleeName(e) ?? 'function'}' returns no value`);
    case 'cast':
      return castValue(b, e);
    case 'comma':
      e.exprs.slice(0, -1).forEach((x) => effect(b, x));
      return rvalue(b, e.exprs[e.exprs.length - 1]);
    case 'float':
      return unsupported(e.pos, `floating-point literal '${e.text}'`);
    case 'str':
      return unsupported(e.pos, 'string values');
    case 'member':
      return readPlace(b, place(b, e), e.pos);
    case 'init':
      return unsupported(e.pos, 'brace initializer here');
    case 'stmtexpr':
      return unsupported(e.pos, 'the value of a statement expression');
    case 'sizeof':
      return num(sizeofValue(b, e));
    case 'other':
      return unsupported(e.pos, e.what);
  }
  return fail((e as Expr).pos, 'unexpected expression');
}

function unary(b: ThreadBuilder, e: Extract<Expr, { k: 'unary' }>): Term {
  switch (e.op) {
    case '-': {
      const t = exprType(b, e);
      return wraps(t) ? convertTo(b, neg(ringValue(b, e.arg, t)), t, e.pos) : neg(rvalue(b, e.arg));
    }
    case '+':
      return rvalue(b, e.arg);
    case '!':
      return boolValue(b, e);
    case '*':
      return readPlace(b, place(b, e), e.pos);
    case '&':
      return pointerAsInteger(b, e);
    case '~':
      return unsupported(e.pos, "bitwise complement ('~')");
  }
}

/** `x++` and friends: the old or new value is kept in a temporary across the update. */
function incdecValue(b: ThreadBuilder, e: Extract<Expr, { k: 'incdec' }>): Term {
  const pl = place(b, e.target);
  const step = e.op === '++' ? add : sub;
  const tmp = b.fresh(e.prefix ? 'new' : 'old');
  atPlace(b, pl, (lv) =>
    oneStepIfAtomic(b, lv, e.pos, () => {
      const old = b.read(lv, e.pos);
      b.assign(tmp, e.prefix ? step(old, num(1)) : old, e.pos, '');
      b.assign(lv, step(old, num(1)), e.pos);
    }),
  );
  return b.read(tmp, e.pos);
}

/**
 * A read-modify-write (`x++`, `x += v`) of an `_Atomic` object is one atomic step, as C
 * says; of any other object it is one step too where it needs one edge, but a store
 * that may wrap is a test and a write (ThreadBuilder.assign).
 */
function oneStepIfAtomic(b: ThreadBuilder, lv: Binding, pos: SourcePos, rmw: () => void): void {
  if (lv.k === 'var' && lv.type.k === 'int' && lv.type.atomic) atomically(b, pos, rmw);
  else rmw();
}

function condValue(b: ThreadBuilder, e: Extract<Expr, { k: 'cond' }>): Term {
  const pure = b.atomicDepth > 0 ? pureValue(b, e) : undefined;
  if (pure) return pure;
  const tmp = b.fresh('cond');
  b.diamond(
    (t, f) => branch(b, e.test, t, f),
    e.pos,
    () => b.assign(tmp, rvalue(b, e.then), e.pos, ''),
    () => b.assign(tmp, rvalue(b, e.else), e.pos, ''),
  );
  return b.read(tmp, e.pos);
}

function castValue(b: ThreadBuilder, e: Extract<Expr, { k: 'cast' }>): Term {
  const t = castType(b.L.typeEnv, e);
  if (t.k === 'int' && t.bool) return boolValue(b, e.arg);
  if (t.k === 'int') return convertTo(b, rvalue(b, e.arg), t, e.pos);
  if (t.k === 'ptr' || t.k === 'void') return rvalue(b, e.arg);
  return unsupported(e.pos, `cast to ${showType(t)}`);
}

/**
 * The mathematical value of a +, -, * chain in the wrapping type t, unconverted: its
 * operands of type t are taken unconverted too, anything else is converted first.
 */
function ringValue(b: ThreadBuilder, e: Expr, t: IntType): Term {
  const same = (x: Expr): boolean => {
    const u = exprType(b, x);
    return u.unsigned === t.unsigned && u.bits === t.bits;
  };
  if (e.k === 'binary' && (e.op === '+' || e.op === '-' || e.op === '*') && same(e)) return ARITH[e.op](ringValue(b, e.left, t), ringValue(b, e.right, t), e.pos);
  if (e.k === 'unary' && e.op === '-' && same(e)) return neg(ringValue(b, e.arg, t));
  return rvalue(b, e);
}

/** An assignment expression (`=` or compound); returns the place assigned, for its value. */
function assignment(b: ThreadBuilder, e: Extract<Expr, { k: 'assign' }>): Place {
  const pl = place(b, e.target);
  if (e.op === '=') {
    if (pl.k === 'static') assignExpr(b, pl.b, e.value, e.pos);
    else {
      const handles = exprCType(b, e.target)?.k === 'thread';
      const rhs = handles ? threadValue(b, e.value) : storedValue(b, e.value, exprType(b, e.target));
      atPlace(b, pl, (lv) => (handles ? storeThreadId(b, lv, rhs, e.pos) : b.assign(lv, rhs, e.pos)));
    }
    return pl;
  }
  const op = e.op.slice(0, -1);
  const arith = ARITH[op] ?? unsupported(e.pos, `operator '${e.op}' (bit operations are not modelled)`);
  // x /= y and x %= y divide in the common type (x += y needs no conversion: the store wraps).
  const t = commonType(exprType(b, e.target), exprType(b, e.value));
  const inType = (v: Term): Term => (op === '/' || op === '%' ? convertTo(b, v, t, e.pos) : v);
  const rhs = inType(rvalue(b, e.value));
  atPlace(b, pl, (lv) => oneStepIfAtomic(b, lv, e.pos, () => b.assign(lv, arith(inType(b.read(lv, e.pos)), rhs, e.pos, b, t), e.pos)));
  return pl;
}

/** `target = e`, with a nondet call assigned directly and conditions stored as 0/1. */
export function assignExpr(b: ThreadBuilder, target: Binding, e: Expr, pos: SourcePos): void {
  if (target.k === 'var' && target.type.k === 'ptr') return storePointer(b, target, pointerValue(b, e, target.type.to), pos);
  const nondet = nondetRange(b, e);
  if (nondet && target.k === 'var' && target.type.k === 'int') {
    const t = target.type;
    const lo = maxOpt(nondet[0], t.lo);
    const hi = minOpt(nondet[1], t.hi);
    b.emit({ kind: 'havoc', target: target.name, lo, hi }, pos, `${b.L.cname(target.name)} = ${calleeName(e)}()`);
    return;
  }
  if (target.k === 'handle') return storeThreadId(b, target, threadValue(b, e), pos);
  if (target.k === 'array' && target.type.k === 'struct') return copyStruct(b, target, e, (fn) => atPlace(b, place(b, e), fn), pos);
  b.assign(target, storedValue(b, e, target.k === 'var' && target.type.k === 'int' ? target.type : undefined), pos);
}

/** The value of e for a store into type t: a +, -, * chain of t itself is left unconverted, for the store converts it (one conversion, not two). */
function storedValue(b: ThreadBuilder, e: Expr, t: IntType | undefined): Term {
  return t && wraps(t) ? ringValue(b, e, t) : rvalue(b, e);
}

const maxOpt = (a?: bigint, c?: bigint): bigint | undefined => (a === undefined ? c : c === undefined ? a : a > c ? a : c);
const minOpt = (a?: bigint, c?: bigint): bigint | undefined => (a === undefined ? c : c === undefined ? a : a < c ? a : c);

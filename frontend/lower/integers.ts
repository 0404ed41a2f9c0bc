/**
 * C's integer semantics as far as rely models them: the static type of an expression
 * (integer promotions and the usual arithmetic conversions, C11 6.3.1), the range a
 * term's value can take, and conversion into a type with a range — unsigned types wrap
 * modulo 2^bits, `char` and `short` wrap as gcc converts. Plain signed `int` and `long`
 * stay mathematical: their overflow is undefined behaviour, not a wrap.
 */
import type { Expr } from '../ast.js';
import { num, type Term } from '../../solver/formula.js';
import { unsupported } from '../../program/diagnostics.js';
import { sizeOf } from '../sizes.js';
import { BOOL, INT, intType, showType, sizeType, type CType, type IntType } from '../types.js';
import { calleeName } from './ast-queries.js';
import type { ThreadBuilder } from './builder.js';
import { castType, declaredType } from './declared-types.js';
import { conversion, wraps } from './conversion.js';
import type { Binding } from './file-scope.js';
import { calledType, exprCType } from './pointers.js';

/** The integer types `__VERIFIER_nondet_<kind>()` returns (long ones per the data model). */
export function nondetType(kind: string, longBits: number): IntType {
  const table: Record<string, IntType> = {
    bool: BOOL,
    char: intType(false, 8),
    uchar: intType(true, 8),
    short: intType(false, 16),
    ushort: intType(true, 16),
    uint: intType(true, 32),
    unsigned: intType(true, 32),
    long: intType(false, longBits),
    ulong: intType(true, longBits),
    longlong: intType(false, 64),
    ulonglong: intType(true, 64),
    size_t: intType(true, longBits),
  };
  return table[kind] ?? INT;
}

/**
 * An integer literal's type (C11 6.4.4.1): the first of the candidate types its value
 * fits, the candidates set by its suffix and, for octal and hex, also unsigned ones.
 */
export function literalType(value: bigint, literal: string, longBits: number): IntType {
  const suffix = /[uUlL]*$/.exec(literal)![0].toLowerCase();
  const unsigned = suffix.includes('u');
  const longs = (suffix.match(/l/g) ?? []).length;
  const decimal = /^[1-9]|^0$/.test(literal);
  const widths = [32, longBits, 64].slice(longs === 0 ? 0 : longs === 1 ? 1 : 2);
  const candidates = widths.flatMap((w) => (unsigned ? [intType(true, w)] : decimal ? [intType(false, w)] : [intType(false, w), intType(true, w)]));
  const fits = (t: IntType): boolean => value <= (t.unsigned ? (1n << BigInt(t.bits)) - 1n : (1n << BigInt(t.bits - 1)) - 1n);
  return candidates.find(fits) ?? candidates[candidates.length - 1];
}

/** Integer promotion: types narrower than `int` compute as `int`, which holds all their values. */
export function promote(t: IntType): IntType {
  return t.bits < 32 ? INT : t;
}

/** The usual arithmetic conversions: the type both operands of a binary operator convert to. */
export function commonType(a: IntType, b: IntType): IntType {
  const x = promote(a);
  const y = promote(b);
  if (x.unsigned === y.unsigned) return x.bits >= y.bits ? x : y;
  const [u, s] = x.unsigned ? [x, y] : [y, x];
  return u.bits >= s.bits ? u : s;
}

const asInt = (t: CType): IntType => (t.k === 'int' ? t : INT);

/** The static type of an integer expression (`int` where rely has no better answer), memoized for the statement. */
export function exprType(b: ThreadBuilder, e: Expr): IntType {
  let t = b.typeMemo.int.get(e);
  if (!t) {
    t = typeOf(b, e);
    b.typeMemo.int.set(e, t);
  }
  return t;
}

function typeOf(b: ThreadBuilder, e: Expr): IntType {
  switch (e.k) {
    case 'num':
      return e.literal ? literalType(e.value, e.literal, b.L.typeEnv.longBits) : INT;
    case 'id': {
      if (b.L.enumConstant(e.name) !== undefined && !b.scopes.some((s) => s.has(e.name))) return INT;
      return bindingType(b.lookup(e.name, e.pos));
    }
    case 'index':
    case 'member':
      return asInt(exprCType(b, e) ?? INT);
    case 'unary':
      if (e.op === '*') return asInt(exprCType(b, e) ?? INT);
      return e.op === '!' ? INT : promote(exprType(b, e.arg));
    case 'binary':
      if (['+', '-', '*', '/', '%'].includes(e.op)) return commonType(exprType(b, e.left), exprType(b, e.right));
      return INT; // comparisons and logical operators
    case 'assign':
    case 'incdec':
      return exprType(b, e.target);
    case 'cond':
      return commonType(exprType(b, e.then), exprType(b, e.else));
    case 'comma':
      return exprType(b, e.exprs[e.exprs.length - 1]);
    case 'cast':
      return asInt(castType(b.L.typeEnv, e));
    case 'sizeof':
      return sizeType(b.L.typeEnv.longBits);
    case 'call': {
      const f = calledType(b, e);
      if (f?.k === 'func') return asInt(f.ret);
      const name = calleeName(e);
      if (!name) return INT;
      if (name.startsWith('__VERIFIER_nondet_')) return nondetType(name.slice('__VERIFIER_nondet_'.length), b.L.typeEnv.longBits);
      return INT;
    }
    default:
      return INT;
  }
}

/** `sizeof`'s value: the size of the type, or of the expression's type (not evaluated). */
export function sizeofValue(b: ThreadBuilder, e: Extract<Expr, { k: 'sizeof' }>): bigint {
  const env = b.L.typeEnv;
  const x = 'expr' in e.of && e.of.expr.k === 'id' ? b.lookup(e.of.expr.name, e.of.expr.pos) : undefined;
  if (x?.k === 'var' && b.vlas.has(x.name)) return unsupported(e.pos, `sizeof of variable-length array '${b.L.cname(x.name)}' (a size known only at run time)`);
  const t = 'type' in e.of ? declaredType(env, e.of.type.spec, e.of.type.decl) : (exprCType(b, e.of.expr) ?? exprType(b, e.of.expr));
  return sizeOf(t, env.longBits) ?? unsupported(e.pos, `sizeof of ${showType(t)}`);
}

function bindingType(x: Binding): IntType {
  return x.k === 'var' && x.type.k === 'int' ? x.type : x.k === 'const' && x.type ? x.type : INT;
}

/** The value of `v` converted to type t, through a temporary when the conversion branches. */
export function convertTo(b: ThreadBuilder, v: Term, t: IntType, pos: Expr['pos']): Term {
  if (t.bool && v.kind === 'int') return num(v.value !== 0n ? 1n : 0n);
  if (!t.bool) {
    if (!wraps(t)) return v;
    const c = conversion(b.L.varType.bind(b.L), v, t);
    if ('exact' in c) return c.exact;
  }
  const tmp = b.fresh('conv', t);
  b.assign(tmp, v, pos, '');
  return b.read(tmp, pos);
}

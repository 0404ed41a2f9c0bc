/**
 * Conversion of a value into an integer type with a range (integers.ts says which
 * types have one): the bounds a term's value can take from its variables' types, and
 * the store that keeps a value in range as C's conversion does.
 */
import { add, crem, num, type Term } from '../../solver/formula.js';
import { convertConstant, type IntType } from '../types.js';

/** The C type of each integer variable of the program, by IR name. */
export type VarTypes = (name: string) => IntType | undefined;

/** Whether a type has a range that conversions into it keep (not `_Bool`, which has its own rule). */
export function wraps(t: IntType): t is IntType & { lo: bigint; hi: bigint } {
  return !t.bool && t.lo !== undefined && t.hi !== undefined;
}

type Range = [lo: bigint | undefined, hi: bigint | undefined];

/**
 * The range a store into type t converts the value into: the type's own, where it
 * has one; for plain `int`/`long`, their two's-complement range when the value is
 * bounded but may lie outside it (an unsigned value above INT_MAX: C leaves it to the
 * implementation, gcc wraps). A value with no bound is signed arithmetic, kept
 * mathematical. Undefined: no conversion.
 */
export function conversionRange(varType: VarTypes, t: IntType, v: Term): (IntType & { lo: bigint; hi: bigint }) | undefined {
  if (t.bool) return undefined;
  if (wraps(t)) return t;
  const lo = -(1n << BigInt(t.bits - 1));
  const hi = (1n << BigInt(t.bits - 1)) - 1n;
  const [l, h] = termRange(varType, v);
  return l !== undefined && h !== undefined && (l < lo || h > hi) ? { ...t, lo, hi } : undefined;
}

/** Bounds on a term's value from its variables' types (undefined: unbounded that way). */
export function termRange(varType: VarTypes, t: Term): Range {
  switch (t.kind) {
    case 'int':
      return [t.value, t.value];
    case 'var': {
      const ty = varType(t.name);
      return ty ? [ty.lo, ty.hi] : [undefined, undefined];
    }
    case 'app': {
      if (t.op === 'ite') {
        const [[l1, h1], [l2, h2]] = [termRange(varType, t.args[1]), termRange(varType, t.args[2])];
        return [l1 === undefined || l2 === undefined ? undefined : l1 < l2 ? l1 : l2, h1 === undefined || h2 === undefined ? undefined : h1 > h2 ? h1 : h2];
      }
      const rs = t.args.map((a) => termRange(varType, a));
      if (t.op === '+') return rs.reduce<Range>(([l, h], [l2, h2]) => [l === undefined || l2 === undefined ? undefined : l + l2, h === undefined || h2 === undefined ? undefined : h + h2], [0n, 0n]);
      if (t.op === '*' && t.args[0].kind === 'int') {
        const k = t.args[0].value;
        const [l, h] = rs[1];
        return k >= 0n ? [l === undefined ? undefined : k * l, h === undefined ? undefined : k * h] : [h === undefined ? undefined : k * h, l === undefined ? undefined : k * l];
      }
      if ((t.op === 'crem' || t.op === 'cdiv') && t.args[1].kind === 'int' && t.args[1].value !== 0n) {
        const k = t.args[1].value;
        const abs = k < 0n ? -k : k;
        const [l, h] = rs[0];
        if (t.op === 'crem') return [l !== undefined && l >= 0n ? 0n : 1n - abs, h !== undefined && h <= 0n ? 0n : abs - 1n];
        // Truncating division is monotone: increasing in v for k > 0, decreasing for k < 0.
        const q = (v: bigint | undefined): bigint | undefined => (v === undefined ? undefined : v / k);
        return k > 0n ? [q(l), q(h)] : [q(h), q(l)];
      }
      return [undefined, undefined];
    }
    default:
      return [undefined, undefined];
  }
}

/**
 * How a value reaches a type with a range: as it is when its range fits; else the
 * cases `v - j·m` for the few j its range allows (each a linear guard, which every
 * engine reads easily); else, for a value with no useful bound, C's wrap in closed
 * form `((v - lo) mod m + m) mod m + lo` with C remainders by the constant m.
 */
export function conversion(varType: VarTypes, v: Term, t: IntType & { lo: bigint; hi: bigint }): { exact: Term } | { cases: { j: bigint; lo?: bigint; hi?: bigint }[] } {
  if (v.kind === 'int') return { exact: num(convertConstant(v.value, t)) };
  const m = t.hi - t.lo + 1n;
  const [l, h] = termRange(varType, v);
  if (l !== undefined && h !== undefined && l >= t.lo && h <= t.hi) return { exact: v };
  if (l !== undefined && h !== undefined) {
    const floorDiv = (a: bigint): bigint => (a >= 0n ? a / m : -((-a + m - 1n) / m));
    const j0 = floorDiv(l - t.lo);
    const j1 = floorDiv(h - t.lo);
    if (j1 - j0 <= 2n) {
      const cases = [];
      for (let j = j0; j <= j1; j++) cases.push({ j, lo: j === j0 ? undefined : t.lo + j * m, hi: j === j1 ? undefined : t.hi + j * m });
      return { cases };
    }
  }
  const shifted = add(v, num(-t.lo));
  const r = l !== undefined && l >= t.lo ? crem(shifted, num(m)) : crem(add(crem(shifted, num(m)), num(m)), num(m));
  return { exact: add(r, num(t.lo)) };
}


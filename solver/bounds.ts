/**
 * Constraints on one integer variable alone (`c·x + d ⋈ 0`): whether some value meets
 * a set of them, and which. Used where a block draws a value and branches on it
 * (`k' ≥ 0 ∧ k' ≤ 2 ∧ k' = 1`) and the value is needed no further.
 */
import { linearOf, sub, varsOf, type Term } from './formula.js';

export interface Bound {
  readonly c: bigint;
  readonly d: bigint;
  readonly op: '=' | '<=' | '<' | '!=';
}

/** The atom as a bound on x, or null when it is not a comparison over x alone. */
export function boundOf(a: Term, x: string): Bound | null {
  const negated = a.kind === 'app' && a.op === 'not';
  const cmp = negated ? a.args[0] : a;
  if (cmp.kind !== 'app' || !(cmp.op === '=' || cmp.op === '<=' || cmp.op === '<')) return null;
  const vs = varsOf(cmp);
  if (vs.size !== 1 || !vs.has(x)) return null; // before building the linear form, which interns terms
  const l = linearOf(sub(cmp.args[0], cmp.args[1]));
  const c = l?.coeffs.get(x);
  if (!l || c === undefined || l.coeffs.size !== 1) return null;
  if (!negated) return { c, d: l.constant, op: cmp.op };
  // ¬(e ≤ 0) is -e < 0, ¬(e < 0) is -e ≤ 0.
  return cmp.op === '=' ? { c, d: l.constant, op: '!=' } : { c: -c, d: -l.constant, op: cmp.op === '<=' ? '<' : '<=' };
}

/** The bounds of every atom on x alone, or null when some atom is not one. */
export function boundsOf(atoms: readonly Term[], x: string): Bound[] | null {
  const bs = atoms.map((a) => boundOf(a, x));
  return bs.every((b) => b !== null) ? (bs as Bound[]) : null;
}

/** The value `atoms` fix x to: each of them a bound on x alone, one of them an equality (`x' = 3`); null otherwise. */
export function fixedValue(atoms: readonly Term[], x: string): bigint | null {
  const fixed = boundsOf(atoms, x)?.find((b) => b.op === '=');
  return fixed && fixed.d % fixed.c === 0n ? -fixed.d / fixed.c : null;
}

/**
 * A value meeting every bound (the one nearest 0 among those tried), or null when none
 * does. The solutions form an interval minus finitely many points, so a value within
 * (number of bounds + 1) of a threshold, or beyond every threshold, is one if any is.
 */
export function witness(bounds: readonly Bound[]): bigint | null {
  const holds = (v: bigint, b: Bound): boolean => {
    const e = b.c * v + b.d;
    return b.op === '=' ? e === 0n : b.op === '<=' ? e <= 0n : b.op === '<' ? e < 0n : e !== 0n;
  };
  const k = BigInt(bounds.length + 1);
  const thresholds = bounds.map((b) => -b.d / b.c);
  const far = thresholds.reduce((m, t) => (t < 0n ? (-t > m ? -t : m) : t > m ? t : m), 0n) + 2n * k;
  const abs = (v: bigint): bigint => (v < 0n ? -v : v);
  let best: bigint | null = null;
  for (const t of [0n, ...thresholds, far, -far])
    for (let v = t - k; v <= t + k; v++) if (bounds.every((b) => holds(v, b)) && (best === null || abs(v) < abs(best))) best = v;
  return best;
}

/** The tightest interval [lo, hi] the bounds give (either end open: undefined); `≠` bounds are left out. */
export function interval(bounds: readonly Bound[]): [bigint | undefined, bigint | undefined] {
  let lo: bigint | undefined;
  let hi: bigint | undefined;
  for (const { c, d, op } of bounds) {
    if (op === '!=') continue;
    // c·x ≤ k, with c·x < -d as c·x ≤ -d - 1.
    const k = op === '<' ? -d - 1n : -d;
    if (op === '=' || c > 0n) hi = minOpt(hi, c > 0n ? floorDiv(k, c) : ceilDiv(k, c));
    if (op === '=' || c < 0n) lo = maxOpt(lo, c > 0n ? ceilDiv(k, c) : floorDiv(k, c));
  }
  return [lo, hi];
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return q * b !== a && a < 0n !== b < 0n ? q - 1n : q;
}
const ceilDiv = (a: bigint, b: bigint): bigint => -floorDiv(-a, b);
const minOpt = (a: bigint | undefined, b: bigint): bigint => (a === undefined || b < a ? b : a);
const maxOpt = (a: bigint | undefined, b: bigint): bigint => (a === undefined || b > a ? b : a);

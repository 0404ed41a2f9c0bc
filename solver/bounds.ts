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

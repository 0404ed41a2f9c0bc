/**
 * Variables the program only ever compares with constants: every atom that reads one
 * (frame atoms aside) is a comparison over it alone, so two values on the same side of
 * every threshold take the same steps and reach the same locations. Enumerating the
 * values around the thresholds then decides what every value would (goblint's
 * `int i = __VERIFIER_nondet_int(); … if (i) …`), where the nondet range would make the
 * answer hold only for that range.
 */
import { conjuncts, isPrimed, varsOf, type Term } from '../../solver/formula.js';
import { boundOf } from '../../solver/bounds.js';
import { isFrameAtom, type Program } from '../../program/program.js';

/** Per such variable: an interval one below every threshold to one above each (its values beyond it fall in the classes of its ends). */
export function comparedWithConstants(p: Program): ReadonlyMap<string, readonly [bigint, bigint]> {
  let m = cache.get(p);
  if (m) return m;
  const hull = new Map<string, [bigint, bigint]>();
  const other = new Set<string>();
  const read = (a: Term): void => {
    for (const v of varsOf(a)) {
      if (isPrimed(v) || other.has(v)) continue;
      const b = boundOf(a, v);
      if (!b) {
        other.add(v);
        continue;
      }
      // The threshold -d/c, widened to the integers on both sides of it.
      const lo = floorDiv(-b.d, b.c) - 1n;
      const hi = -floorDiv(b.d, b.c) + 1n;
      const h = hull.get(v);
      hull.set(v, h ? [h[0] < lo ? h[0] : lo, h[1] > hi ? h[1] : hi] : [lo, hi]);
    }
  };
  for (const a of conjuncts(p.init)) read(a);
  for (const th of p.threads) for (const t of th.transitions) for (const a of t.atoms) if (!isFrameAtom(a)) read(a);
  // A property beside the program (an LTL atom) compares with constants of its own.
  m = new Map([...hull].filter(([v]) => !other.has(v) && !p.vars.get(v)?.observed));
  cache.set(p, m);
  return m;
}

const cache = new WeakMap<Program, ReadonlyMap<string, readonly [bigint, bigint]>>();

/** ⌊a / b⌋ for b ≠ 0. */
function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

/**
 * The values of the variables that only ever hold constants: the initial value and
 * every write is a constant or a copy of another such variable. When REFINE learns
 * `v = k` for one of them it learns v's other values with it (refine.ts), the data
 * counterpart of learning a mate's locations at once: Spacer's solutions name one
 * value per round, and small programs spent a round on each.
 */
import { conjuncts, eq, isPrimed, linearOf, num, primed, sub, unprimed, varsOf, type Term } from '../../solver/formula.js';
import { fixedValue } from '../../solver/bounds.js';
import type { Program } from '../../program/program.js';
import { assigned } from '../../program/lock-owners.js';
import { equalityOf } from './abstraction.js';

/** More values than this make the predicates cost more than the rounds they save. */
const MAX_VALUES = 8;

/** The variable `a` copies into `x'` (`x' = w`), or undefined. */
function copyOf(a: Term, x: string): string | undefined {
  if (a.kind !== 'app' || a.op !== '=') return undefined;
  const l = linearOf(sub(a.args[0], a.args[1]));
  if (!l || l.constant !== 0n || l.coeffs.size !== 2) return undefined;
  const c = l.coeffs.get(primed(x));
  const [w, d] = [...l.coeffs].find(([v]) => v !== primed(x)) ?? [];
  return c !== undefined && d === -c && w !== undefined && !isPrimed(w) ? w : undefined;
}

/** Per variable that holds only constants (at most MAX_VALUES of them, locations aside), its values. */
export function constantValues(p: Program): ReadonlyMap<string, readonly bigint[]> {
  let m = cache.get(p);
  if (m) return m;
  const pcs = new Set(p.threads.map((th) => th.pc));
  const values = new Map<string, Set<bigint>>();
  const copies = new Map<string, Set<string>>();
  const open = new Set<string>();
  const add = <T>(map: Map<string, Set<T>>, v: string, x: T): void => void (map.get(v) ?? map.set(v, new Set()).get(v)!).add(x);
  const initial = conjuncts(p.init);
  for (const v of p.vars.keys()) {
    const k = fixedValue(initial.filter((a) => varsOf(a).has(v)), v);
    if (k !== null) add(values, v, k);
    else open.add(v);
  }
  for (const t of p.threads.flatMap((th) => th.transitions))
    for (const v of t.writes) {
      const k = assigned(t, v);
      const on = t.atoms.filter((a) => varsOf(a).has(primed(v)));
      const w = k === null && on.length === 1 ? copyOf(on[0], v) : undefined;
      if (k !== null) add(values, v, k);
      else if (w !== undefined) add(copies, v, w);
      else open.add(v);
    }
  // Copies carry values, and openness, from their sources.
  for (let changed = true; changed; ) {
    changed = false;
    for (const [v, ws] of copies)
      for (const w of ws) {
        if (open.has(w) && !open.has(v)) {
          open.add(v);
          changed = true;
        }
        for (const k of values.get(w) ?? [])
          if (!values.get(v)?.has(k)) {
            add(values, v, k);
            changed = true;
          }
      }
  }
  m = new Map([...values].filter(([v, ks]) => !open.has(v) && !pcs.has(v) && ks.size <= MAX_VALUES).map(([v, ks]) => [v, [...ks]]));
  cache.set(p, m);
  return m;
}

const cache = new WeakMap<Program, ReadonlyMap<string, readonly bigint[]>>();

/** For `v = k` (or `v' = k`) with v holding only constants: `v = k'` (or `v' = k'`) for its other values. */
export function otherValues(p: Program, q: Term): Term[] {
  const e = equalityOf(q);
  if (!e || e.lhs.kind !== 'var') return [];
  const { lhs } = e;
  return (constantValues(p).get(unprimed(lhs.name)) ?? []).filter((k) => k !== e.k).map((k) => eq(lhs, num(k)));
}


/**
 * A case split of a value over disjoint intervals, every other value reaching the
 * error location: an array cell chosen at run time (the cells' indices), a pointer
 * dereference (the addresses it may hold), a pointer arithmetic step (the object it
 * points into). Every guard is one linear atom, or two in a row for an interval; a
 * value read twice in a row must therefore be one no other thread writes (callers pass
 * locals).
 */
import type { SourcePos } from '../../program/diagnostics.js';
import { add, eq, ge, le, lt, num, TRUE, type Term } from '../../solver/formula.js';
import type { ThreadBuilder } from './builder.js';

/**
 * The values lo … hi; with `size`, only lo … lo + size − 1 of them (a region's cells,
 * whose count is known at run time: ../points-to.ts), the rest of lo … hi missing.
 */
export type Interval = readonly [lo: bigint, hi: bigint, size?: Term];

/** Branches on which interval holds `t`, lowers `body(k)` for the k-th and joins; the rest goes to the error with `missText`. */
export function caseSplit(b: ThreadBuilder, t: Term, cases: readonly Interval[], body: (k: number) => void, pos: SourcePos, missText: string): void {
  const from = b.cur;
  const join = b.cfg.newLoc(pos);
  cases.forEach(([lo, hi, size], k) => {
    b.cur = from;
    guard(b, lo === hi ? [eq(t, num(lo))] : [ge(t, num(lo)), size ? lt(t, add(num(lo), size)) : le(t, num(hi))], b.cfg.newLoc(pos), pos);
    body(k);
    b.goto(join, pos, '');
  });
  const miss = b.cfg.newLoc(pos);
  for (const conds of outside(t, cases)) {
    b.cur = from;
    guard(b, conds, miss, pos);
  }
  b.cur = miss;
  b.goto(b.err, pos, missText);
  b.cur = join;
}

/** Assume edges for the atoms in a row, from the current location to `to`, which becomes current. */
function guard(b: ThreadBuilder, conds: readonly Term[], to: number, pos: SourcePos): void {
  conds.forEach((c, i) => {
    const next = i === conds.length - 1 ? to : b.cfg.newLoc(pos);
    b.assume(c, next, pos, false);
    b.cur = next;
  });
}

/** The values outside every interval, as conjunctions of atoms: below, between, above, and the missing part of each sized one. */
function outside(t: Term, cases: readonly Interval[]): Term[][] {
  const missing = cases.flatMap(([lo, hi, size]) => (size ? [[ge(t, add(num(lo), size)), le(t, num(hi))]] : []));
  const runs: [bigint, bigint][] = [];
  for (const [lo, hi] of [...cases].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const last = runs[runs.length - 1];
    if (last && lo <= last[1] + 1n) last[1] = hi > last[1] ? hi : last[1];
    else runs.push([lo, hi]);
  }
  if (!runs.length) return [[TRUE]];
  const out: Term[][] = [...missing, [lt(t, num(runs[0][0]))]];
  for (let i = 1; i < runs.length; i++) out.push([ge(t, num(runs[i - 1][1] + 1n)), lt(t, num(runs[i][0]))]);
  out.push([ge(t, num(runs[runs.length - 1][1] + 1n))]);
  return out;
}

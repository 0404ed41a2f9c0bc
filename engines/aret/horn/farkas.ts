/**
 * Farkas certificates, exactly: non-negative weights for linear integer atoms whose
 * weighted sum is a contradiction `c ≤ 0` with c > 0 (SOLVELINEARHC lines 4–5,
 * Fig. 14). Found by eliminating variables — Gaussian elimination on the equalities,
 * then Fourier–Motzkin on the inequalities — while each derived row remembers which
 * atoms it is a combination of. All arithmetic is on bigints; no floating point.
 */
import { linearOf, sub, type Term } from '../../../solver/formula.js';
import type { Budget } from '../../../core/budget.js';
import { Timeout } from '../../../core/errors.js';

/** `Σ c·v + constant = 0` (eq) or `≤ 0`. */
export interface LinearAtom {
  readonly coeffs: ReadonlyMap<string, bigint>;
  readonly constant: bigint;
  readonly eq: boolean;
}

/**
 * The atom of a formula, or null when it is not a linear comparison of integers. A
 * strict `a < b` becomes `a − b + 1 ≤ 0`, which is the same over the integers; the
 * sum of a certificate is then implied by the atoms over the integers too.
 */
export function linearAtom(t: Term): LinearAtom | null {
  if (t.kind === 'bool') return { coeffs: new Map(), constant: t.value ? 0n : 1n, eq: false };
  if (t.kind !== 'app' || (t.op !== '=' && t.op !== '<=' && t.op !== '<') || t.args[0].sort !== 'int') return null;
  const l = linearOf(sub(t.args[0], t.args[1]));
  if (!l) return null;
  return { coeffs: l.coeffs, constant: t.op === '<' ? l.constant + 1n : l.constant, eq: t.op === '=' };
}

/** `2*x - y + 1 <= 0`: the atom as it is, unnormalised (certificates are shown in this form). */
export function showLinearAtom(a: LinearAtom): string {
  const terms = [...a.coeffs].map(([v, c], i) => `${c < 0n ? (i ? ' - ' : '-') : i ? ' + ' : ''}${c === 1n || c === -1n ? '' : `${c < 0n ? -c : c}*`}${v}`);
  if (a.constant !== 0n || terms.length === 0) terms.push(`${a.constant < 0n ? ' - ' : terms.length ? ' + ' : ''}${a.constant < 0n ? -a.constant : a.constant}`);
  return `${terms.join('')} ${a.eq ? '=' : '<='} 0`;
}

interface Row extends LinearAtom {
  /** The row is Σ origin[k] · atom_k; weights of inequalities are positive. */
  readonly origin: ReadonlyMap<number, bigint>;
}

const abs = (a: bigint): bigint => (a < 0n ? -a : a);
function gcd(a: bigint, b: bigint): bigint {
  a = abs(a);
  b = abs(b);
  while (b) [a, b] = [b, a % b];
  return a;
}

/** ka·a + kb·b (ka > 0 unless a is an equality, likewise kb), divided by the common gcd. */
function combine(a: Row, ka: bigint, b: Row, kb: bigint): Row {
  const coeffs = new Map<string, bigint>();
  for (const [v, c] of a.coeffs) coeffs.set(v, ka * c);
  for (const [v, c] of b.coeffs) coeffs.set(v, (coeffs.get(v) ?? 0n) + kb * c);
  const origin = new Map<number, bigint>();
  for (const [k, w] of a.origin) origin.set(k, ka * w);
  for (const [k, w] of b.origin) origin.set(k, (origin.get(k) ?? 0n) + kb * w);
  let g = ka * a.constant + kb * b.constant;
  const constant = g;
  for (const [v, c] of coeffs) if (c === 0n) coeffs.delete(v);
  for (const [k, w] of origin) if (w === 0n) origin.delete(k);
  for (const c of coeffs.values()) g = gcd(g, c);
  for (const w of origin.values()) g = gcd(g, w);
  g = abs(g);
  if (g > 1n) {
    for (const [v, c] of coeffs) coeffs.set(v, c / g);
    for (const [k, w] of origin) origin.set(k, w / g);
    return { coeffs, constant: constant / g, eq: a.eq && b.eq, origin };
  }
  return { coeffs, constant, eq: a.eq && b.eq, origin };
}

const sign = (a: bigint): bigint => (a < 0n ? -1n : 1n);

/** Eliminates v from r by the row p (an equality, or an inequality of the opposite sign). */
function eliminate(r: Row, p: Row, v: string): Row {
  const rv = r.coeffs.get(v)!;
  const pv = p.coeffs.get(v)!;
  // r·|pv| − p·rv·sign(pv): the multiplier of r stays positive.
  return combine(r, abs(pv), p, -rv * sign(pv));
}

export type FarkasResult =
  | { status: 'certificate'; weights: ReadonlyMap<number, bigint> }
  | { status: 'feasible' }
  | { status: 'limit'; reason: string };

/** Bounds on the work of one certificate search. */
export interface FarkasLimits {
  /** Rows Fourier–Motzkin may hold at once. */
  readonly maxRows?: number;
  /** Atoms the rows of the elimination may refer to, summed over the rows (memory). */
  readonly maxOrigins?: number;
  /** The query's: past its deadline the search stops ('limit', 'deadline'); its other stops are thrown on. */
  readonly budget?: Budget;
}

const contradiction = (r: Row): boolean => r.coeffs.size === 0 && (r.eq ? r.constant !== 0n : r.constant > 0n);

/**
 * Weights λ_k ≥ 0 (any sign for equalities) with Σ λ_k·atom_k = (c ≤ 0), c > 0 — a
 * proof that the atoms have no rational solution — or 'feasible' when they have
 * one; 'limit' past the limits.
 */
export function farkas(atoms: readonly LinearAtom[], limits: FarkasLimits = {}): FarkasResult {
  try {
    return certificate(atoms, limits);
  } catch (e) {
    if (e instanceof Timeout) return { status: 'limit', reason: 'deadline' };
    throw e;
  }
}

/** The search of farkas; its budget throws (Timeout, which farkas answers with its limit, and OutOfMemory). */
function certificate(atoms: readonly LinearAtom[], limits: FarkasLimits): FarkasResult {
  const { maxRows = 20_000, maxOrigins = 2_000_000, budget } = limits;
  let origins = atoms.length;
  const found = (r: Row): FarkasResult => {
    const s = r.eq && r.constant < 0n ? -1n : 1n;
    return { status: 'certificate', weights: new Map([...r.origin].map(([k, w]) => [k, s * w])) };
  };
  // Gaussian elimination: every equality removes one variable. An index from each
  // variable to the rows that mention it keeps this linear in the tree's size.
  const table: (Row | undefined)[] = atoms.map((a, k) => ({ ...a, origin: new Map([[k, 1n]]) }));
  const occurs = new Map<string, Set<number>>();
  const index = (id: number, r: Row, on: boolean): void => {
    for (const v of r.coeffs.keys()) {
      let s = occurs.get(v);
      if (!s) occurs.set(v, (s = new Set()));
      if (on) s.add(id);
      else s.delete(id);
    }
  };
  table.forEach((r, id) => index(id, r!, true));
  for (const r of table) if (contradiction(r!)) return found(r!);
  for (let id = 0; id < table.length; id++) {
    const pivot = table[id];
    if (!pivot?.eq || pivot.coeffs.size === 0) continue;
    // A unit coefficient keeps the numbers small.
    let v = [...pivot.coeffs.keys()][0];
    for (const [u, c] of pivot.coeffs) if (abs(c) === 1n) v = u;
    index(id, pivot, false);
    table[id] = undefined;
    for (const other of [...occurs.get(v)!]) {
      const r = table[other]!;
      index(other, r, false);
      const next = eliminate(r, pivot, v);
      if (contradiction(next)) return found(next);
      origins += next.origin.size - r.origin.size;
      if (origins > maxOrigins) return { status: 'limit', reason: `elimination past ${maxOrigins} atom references` };
      budget?.tick();
      table[other] = next;
      index(other, next, true);
    }
  }
  let rows = table.filter((r): r is Row => r !== undefined && !r.eq);
  // Fourier–Motzkin on what is left.
  for (;;) {
    const bad = rows.filter(contradiction);
    if (bad.length) return found(bad.reduce((a, b) => (b.origin.size < a.origin.size ? b : a)));
    rows = dedupe(rows.filter((r) => r.coeffs.size > 0));
    if (rows.length === 0) return { status: 'feasible' };
    const pos = new Map<string, number>();
    const neg = new Map<string, number>();
    for (const r of rows) for (const [v, c] of r.coeffs) (c > 0n ? pos : neg).set(v, ((c > 0n ? pos : neg).get(v) ?? 0) + 1);
    let best = '';
    let cost = Infinity;
    for (const v of new Set([...pos.keys(), ...neg.keys()])) {
      const p = pos.get(v) ?? 0;
      const n = neg.get(v) ?? 0;
      if (p * n - p - n < cost) [best, cost] = [v, p * n - p - n];
    }
    const keep = rows.filter((r) => !r.coeffs.has(best));
    const ps = rows.filter((r) => (r.coeffs.get(best) ?? 0n) > 0n);
    const ns = rows.filter((r) => (r.coeffs.get(best) ?? 0n) < 0n);
    if (keep.length + ps.length * ns.length > maxRows) return { status: 'limit', reason: `Fourier–Motzkin past ${maxRows} rows` };
    budget?.check();
    for (const p of ps) for (const n of ns) keep.push(eliminate(p, n, best));
    rows = keep;
  }
}

/** One row per left-hand side: the tightest, then the one from the fewest atoms. */
function dedupe(rows: Row[]): Row[] {
  const by = new Map<string, Row>();
  for (const r of rows) {
    const key = [...r.coeffs].sort(([a], [b]) => (a < b ? -1 : 1)).join(';');
    const old = by.get(key);
    if (!old || r.constant > old.constant || (r.constant === old.constant && r.origin.size < old.origin.size)) by.set(key, r);
  }
  return [...by.values()];
}

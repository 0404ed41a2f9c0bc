/**
 * An exact, solver-free decision procedure for the abstract post of the common case:
 * a conjunction whose atoms are single-variable bounds plus equalities between two
 * variables up to a constant offset (assignments x' = c, copies x' = y + c, frames
 * x' = x, guards x <= c). Offset equalities merge variables into classes (union–find
 * with offsets); what remains are bounds on independent class roots, a box, over
 * which the minimum and maximum of any linear term are exact (over the integers too,
 * since the bounds are integers). Anything else — an atom relating two roots, a
 * non-linear or Boolean atom — makes the caller ask the solver instead.
 */
import { linearOf, type Linear, type Term } from '../../solver/formula.js';

type Bound = bigint | undefined; // undefined: unbounded

interface Atom {
  readonly lin: Linear;
  readonly op: '=' | '<=';
  readonly rhs: bigint;
}

const atoms = new Map<number, Atom | null>();

/** `lin op rhs` for a normalised linear atom, or null (memoised: terms are hash-consed). */
function atomOf(t: Term): Atom | null {
  let a = atoms.get(t.id);
  if (a === undefined) atoms.set(t.id, (a = parseAtom(t)));
  return a;
}

function parseAtom(t: Term): Atom | null {
  if (t.kind !== 'app' || (t.op !== '=' && t.op !== '<=') || t.args[0].sort !== 'int') return null;
  const [l, r] = t.args;
  if (r.kind !== 'int') return null;
  const lin = linearOf(l);
  return lin && lin.constant === 0n ? { lin, op: t.op, rhs: r.value } : null;
}

/** A bound moved by k (unbounded stays unbounded). */
const shift = (b: Bound, k: bigint): Bound => (b === undefined ? undefined : b + k);

const floorDiv = (a: bigint, b: bigint): bigint => {
  const q = a / b;
  return q * b !== a && a < 0n !== b < 0n ? q - 1n : q;
};
const ceilDiv = (a: bigint, b: bigint): bigint => -floorDiv(-a, b);

export class Box {
  private readonly parent: Map<string, string>;
  /** value(v) = value(parent(v)) + offset(v) */
  private readonly offset: Map<string, bigint>;
  private readonly lo: Map<string, bigint>;
  private readonly hi: Map<string, bigint>;

  /** A copy of `from`, or the box of no atoms. */
  private constructor(from?: Box) {
    this.parent = new Map(from?.parent);
    this.offset = new Map(from?.offset);
    this.lo = new Map(from?.lo);
    this.hi = new Map(from?.hi);
  }

  private find(v: string): [string, bigint] {
    let off = 0n;
    let r = v;
    for (let p = this.parent.get(r); p !== undefined; p = this.parent.get(r)) {
      off += this.offset.get(r)!;
      r = p;
    }
    return [r, off];
  }

  /** The linear form over class roots, or null when a variable has coefficient 0 after merging. */
  private overRoots(lin: Linear): { coeffs: Map<string, bigint>; constant: bigint } {
    const coeffs = new Map<string, bigint>();
    let constant = lin.constant;
    for (const [v, c] of lin.coeffs) {
      const [r, off] = this.find(v);
      coeffs.set(r, (coeffs.get(r) ?? 0n) + c);
      constant += c * off;
    }
    for (const [r, c] of coeffs) if (c === 0n) coeffs.delete(r);
    return { coeffs, constant };
  }

  private tighten(r: string, lo: Bound, hi: Bound): boolean {
    if (lo !== undefined && (this.lo.get(r) === undefined || lo > this.lo.get(r)!)) this.lo.set(r, lo);
    if (hi !== undefined && (this.hi.get(r) === undefined || hi < this.hi.get(r)!)) this.hi.set(r, hi);
    const l = this.lo.get(r);
    const h = this.hi.get(r);
    return l === undefined || h === undefined || l <= h;
  }

  /** Adds x − y = d (merging their classes; the old root's bounds move to the new one); false when that is unsatisfiable. */
  private equate(x: string, y: string, d: bigint): boolean {
    const [rx, ox] = this.find(x);
    const [ry, oy] = this.find(y);
    if (rx === ry) return ox - oy === d;
    // value(rx) = value(x) − ox = value(y) + d − ox = value(ry) + oy + d − ox
    const off = oy + d - ox;
    this.parent.set(rx, ry);
    this.offset.set(rx, off);
    const lo = this.lo.get(rx);
    const hi = this.hi.get(rx);
    this.lo.delete(rx);
    this.hi.delete(rx);
    return this.tighten(ry, shift(lo, -off), shift(hi, -off));
  }

  /**
   * The box of a conjunction: 'unsat' when it has no integer solution, null when it
   * is not of the exact form (the caller must use a solver).
   */
  static of(conjuncts: readonly Term[]): Box | 'unsat' | null {
    const box = new Box();
    const atoms: Atom[] = [];
    for (const t of conjuncts) {
      if (t.kind === 'bool') {
        if (!t.value) return 'unsat';
        continue;
      }
      const a = atomOf(t);
      if (!a) return null;
      atoms.push(a);
    }
    // Offset equalities first, so that bounds land on class roots.
    const rest: Atom[] = [];
    for (const a of atoms) {
      const vs = [...a.lin.coeffs];
      if (a.op === '=' && vs.length === 2 && vs[0][1] === -vs[1][1] && (vs[0][1] === 1n || vs[0][1] === -1n)) {
        // c·(x − y) = rhs
        const [[x, cx], [y]] = vs;
        if (!box.equate(x, y, cx * a.rhs)) return 'unsat';
      } else rest.push(a);
    }
    for (const a of rest) {
      const l = box.overRoots(a.lin);
      const rhs = a.rhs - l.constant;
      if (l.coeffs.size === 0) {
        if (a.op === '=' ? rhs !== 0n : rhs < 0n) return 'unsat';
        continue;
      }
      if (l.coeffs.size > 1) return null;
      const [[r, c]] = [...l.coeffs];
      if (a.op === '=') {
        if (rhs % c !== 0n) return 'unsat';
        if (!box.tighten(r, rhs / c, rhs / c)) return 'unsat';
      } else if (!(c > 0n ? box.tighten(r, undefined, floorDiv(rhs, c)) : box.tighten(r, ceilDiv(rhs, c), undefined))) return 'unsat';
    }
    return box;
  }

  /**
   * The box of both conjunctions (neither box changes). The work is in the number of
   * variables, not atoms: a state's box meets each step's and each environment
   * transition's, which are built once.
   */
  meet(other: Box): Box | 'unsat' {
    if (this.excludes(other)) return 'unsat';
    const box = new Box(this);
    for (const [v, p] of other.parent) if (!box.equate(v, p, other.offset.get(v)!)) return 'unsat';
    for (const r of new Set([...other.lo.keys(), ...other.hi.keys()])) {
      const [root, off] = box.find(r); // value(r) = value(root) + off
      const [lo, hi] = other.range(r);
      if (!box.tighten(root, shift(lo, -off), shift(hi, -off))) return 'unsat';
    }
    return box;
  }

  /** The bounds of v's value: its root's, shifted by v's offset. */
  private range(v: string): [Bound, Bound] {
    const [r, off] = this.find(v);
    const lo = this.lo.get(r);
    const hi = this.hi.get(r);
    return [shift(lo, off), shift(hi, off)];
  }

  /**
   * Whether some variable has disjoint ranges here and in `other`, so that the meet
   * is empty. Most meets in an ARET are (a state and an environment transition of
   * another state of the globals); this answers them without copying a box.
   */
  private excludes(other: Box): boolean {
    const disjoint = (v: string): boolean => {
      const [a, b] = this.range(v);
      const [c, d] = other.range(v);
      return (a !== undefined && d !== undefined && a > d) || (c !== undefined && b !== undefined && c > b);
    };
    for (const vs of [other.lo.keys(), other.hi.keys(), other.parent.keys()]) for (const v of vs) if (disjoint(v)) return true;
    return false;
  }

  /** Whether every integer point of the box satisfies `t`; null when `t` is not a linear atom. */
  implies(t: Term): boolean | null {
    if (t.kind === 'bool') return t.value; // the box is never empty
    const a = atomOf(t);
    if (!a) return null;
    const l = this.overRoots(a.lin);
    let min: Bound = l.constant;
    let max: Bound = l.constant;
    for (const [r, c] of l.coeffs) {
      const [lo, hi] = c > 0n ? [this.lo.get(r), this.hi.get(r)] : [this.hi.get(r), this.lo.get(r)];
      min = min === undefined || lo === undefined ? undefined : min + c * lo;
      max = max === undefined || hi === undefined ? undefined : max + c * hi;
    }
    if (a.op === '<=') return max !== undefined && max <= a.rhs;
    return min !== undefined && max !== undefined && min === a.rhs && max === a.rhs;
  }
}

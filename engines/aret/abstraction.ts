/**
 * Cartesian (transition) predicate abstraction, Fig. 6 lines 5–6:
 *   α_i(S)    = ⋀{p ∈ P_i    | S ⇒ p}        (states, predicates over V)
 *   α_i▷j(T)  = ⋀{q ∈ P_i▷j  | T ⇒ q}        (transitions, predicates over V, V')
 * A thread's own program counter is tracked explicitly, not as predicates (as in
 * Threader, §8): an abstract state is a location plus a cube of predicates.
 * Cubes are sets of hash-consed predicate terms, so S ⇒ S' is a subset test.
 */
import { and, conjuncts, crem, eq, ge, not, num, prime, type Term } from '../../solver/formula.js';
import { Box } from './box.js';
import type { SmtSolver } from '../../solver/smt.js';

/** A conjunction of predicates, kept as sorted term ids for subset tests. */
export interface Cube {
  readonly preds: readonly Term[];
  readonly ids: readonly number[];
}

export function cube(preds: Iterable<Term>): Cube {
  const sorted = [...new Set(preds)].sort((a, b) => a.id - b.id);
  return { preds: sorted, ids: sorted.map((p) => p.id) };
}

export const cubeFormula = (c: Cube): Term => and(...c.preds);

/** c ⇒ d for cubes: every predicate of d is one of c's. */
export function cubeImplies(c: Cube, d: Cube): boolean {
  let i = 0;
  for (const id of d.ids) {
    while (i < c.ids.length && c.ids[i] < id) i++;
    if (c.ids[i] !== id) return false;
    i++;
  }
  return true;
}

/** `lhs = k` as the term id of lhs and k (the builders put the constant on the right), or null. */
export const equalityOf = (p: Term): { lhs: Term; k: bigint } | null =>
  p.kind === 'app' && p.op === '=' && p.args[1].kind === 'int' ? { lhs: p.args[0], k: p.args[1].value } : null;

/** `lhs op` of an atom `lhs op k` (the builders put the constant on the right), or null. */
const shapeOf = (p: Term): string | null =>
  p.kind === 'app' && (p.op === '=' || p.op === '<=') && p.args[1].kind === 'int' ? `${p.op}${p.args[0].id}` : null;

const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? (a < 0n ? -a : a) : gcd(b, a % b));

/**
 * Constants of one shape a set holds before a seventh counts as enumerating. Chosen on
 * Table 1: with 2 or 4, modular solutions that NaiveBakery's (and Scull's) modular
 * proofs need were passed over.
 */
const ENUMERATED = 6;

/** An ordered set of predicates (P_i or P_i▷j). */
export class PredicateSet {
  private readonly items: Term[] = [];
  private readonly ids = new Set<number>();
  /** How many predicates `lhs op k` the set has, per `lhs op`. */
  private readonly constants = new Map<string, number>();

  get all(): readonly Term[] {
    return this.items;
  }

  has(p: Term): boolean {
    return this.ids.has(p.id);
  }

  /**
   * Whether `p` is a new `lhs op k` with ENUMERATED or more other constants k already
   * here: a refinement that learns only such predicates is counting along ever longer
   * paths.
   */
  enumerates(p: Term): boolean {
    const shape = shapeOf(p);
    return shape !== null && !this.has(p) && (this.constants.get(shape) ?? 0) >= ENUMERATED;
  }

  /**
   * For a new `lhs = k` that enumerates: what the counting sequence this set holds
   * (k and the constants of `lhs = k'` here) has in common, as predicates a proof can
   * keep: `lhs % d = k % d` for the gcd d ≥ 2 of the differences (C's `%`, so the
   * residue of a non-negative lhs), and `lhs ≥ min`. None already here.
   */
  widenings(p: Term): Term[] {
    const e = equalityOf(p);
    if (!e || !this.enumerates(p)) return [];
    const ks = [e.k, ...this.items.map(equalityOf).flatMap((x) => (x?.lhs === e.lhs ? [x.k] : []))];
    const d = ks.reduce((g, k) => gcd(g, k - e.k), 0n);
    const min = ks.reduce((a, b) => (a < b ? a : b));
    const out = [ge(e.lhs, num(min))];
    if (d >= 2n) out.push(eq(crem(e.lhs, num(d)), num(((e.k % d) + d) % d)));
    return out.filter((q) => !this.has(q));
  }

  /** Adds predicates; returns the ones that were new. */
  add(preds: Iterable<Term>): Term[] {
    const added: Term[] = [];
    for (const p of preds)
      if (!this.ids.has(p.id)) {
        this.ids.add(p.id);
        this.items.push(p);
        added.push(p);
        const shape = shapeOf(p);
        if (shape !== null) this.constants.set(shape, (this.constants.get(shape) ?? 0) + 1);
      }
    return added;
  }
}

/** Results keyed by the ids of a conjunction's parts, in order. */
interface Trie {
  next?: Map<number, Trie>;
  /** α over V, and α over V' (undefined: not computed yet). */
  plain?: Term[] | null;
  primed?: Term[] | null;
}

/**
 * The abstractions already computed against each predicate set, per run: ABSTREACHENV
 * starts afresh every round, yet most of its (state, step) pairs recur and a round
 * grows only the sets its refinement touched. An entry is valid while its set has
 * the size it had (sets only grow). A set that grew in this round or the one before
 * is not remembered: where refinement grows most sets every round (unbiased
 * clauses), storing entries that are never read again cost more than it saved.
 */
export class AbstractionMemo {
  private readonly bySet = new WeakMap<PredicateSet, { size: number; grownIn: number; root: Trie }>();
  private round = 0;

  /** Called at the start of each ABSTREACHENV. */
  nextRound(): void {
    this.round++;
  }

  /** The trie of a set, or undefined while the set is not stable. */
  private rootOf(set: PredicateSet): Trie | undefined {
    let m = this.bySet.get(set);
    if (!m || m.size !== set.all.length) this.bySet.set(set, (m = { size: set.all.length, grownIn: this.round, root: {} }));
    return m.grownIn >= this.round - 1 ? undefined : m.root;
  }

  /** α of the conjunction of `parts` against `set`, if known. */
  get(set: PredicateSet, parts: readonly Term[], primed: boolean): Term[] | null | undefined {
    let n = this.rootOf(set);
    for (const t of parts) n = n?.next?.get(t.id);
    return primed ? n?.primed : n?.plain;
  }

  set(set: PredicateSet, parts: readonly Term[], primed: boolean, result: Term[] | null): void {
    let n = this.rootOf(set);
    if (!n) return;
    for (const t of parts) {
      n.next ??= new Map();
      let c: Trie | undefined = n.next.get(t.id);
      if (!c) n.next.set(t.id, (c = {}));
      n = c;
    }
    if (primed) n.primed = result;
    else n.plain = result;
  }
}

const boxes = new Map<number, Box | 'unsat' | null>();
/**
 * The box of a conjunction of parts: the meet of the parts' boxes, each memoised (a
 * state's formula, a transition's and an environment transition's recur in every
 * step and every round).
 */
const boxOf = (parts: readonly Term[]): Box | 'unsat' | null => {
  let out: Box | undefined;
  for (const f of parts) {
    let b = boxes.get(f.id);
    if (b === undefined) {
      if (boxes.size > 200_000) boxes.clear(); // a memo, not a store: bound its memory
      boxes.set(f.id, (b = Box.of(conjuncts(f))));
    }
    if (b === null || b === 'unsat') return b;
    const m = out ? out.meet(b) : b;
    if (m === 'unsat') return m;
    out = m;
  }
  return out ?? null;
};
const primes = new Map<number, Term>();
const primeOf = (p: Term): Term => {
  let q = primes.get(p.id);
  if (!q) primes.set(p.id, (q = prime(p)));
  return q;
};

/**
 * The predicates implied by the conjunction of `parts` (when `primedPreds`, the
 * predicates are read over V'), or null when it is unsatisfiable. A conjunction of the
 * box form (box.ts) is decided without the solver, and without building its term.
 * Otherwise the predicates it leaves undecided go to the solver in one batch, whose
 * cache (keyed by hash-consed formulas) answers the ones every refinement iteration
 * repeats. A query the solver cannot decide counts as satisfiable, which
 * only keeps a successor or drops a predicate: a coarser abstraction, still sound.
 */
export async function impliedPredicates(
  solver: SmtSolver,
  parts: readonly Term[],
  preds: readonly Term[],
  primedPreds: boolean,
  /** Predicates known to be implied (no query needed). */
  known: (p: Term) => boolean = () => false,
  /** Decide box-form formulas without the solver, and skip the equalities an implied one excludes. */
  shortcuts = true,
): Promise<Term[] | null> {
  const box = shortcuts ? boxOf(parts) : null;
  if (box === 'unsat') return null;
  let formula: Term | undefined;
  const whole = (): Term => (formula ??= and(...parts));
  if (!box && (await solver.check([whole()])).status === 'unsat') return null;
  // The conjunction is satisfiable here, so once it implies `lhs = k` it implies no
  // `lhs = k'` for another k': a location predicate T.pc = l rules out T's others.
  const valueOf = new Map<number, bigint>();
  const note = (q: Term): void => {
    const e = equalityOf(q);
    if (e) valueOf.set(e.lhs.id, e.k);
  };
  const excluded = (q: Term): boolean => {
    const e = equalityOf(q);
    return e !== null && (valueOf.get(e.lhs.id) ?? e.k) !== e.k;
  };
  const implied = new Set<Term>(preds.filter((p) => known(p)));
  for (const p of implied) note(primedPreds ? primeOf(p) : p);
  // What the box and the equalities do not decide goes to the solver in one batch.
  const ask: { p: Term; q: Term }[] = [];
  for (const p of preds) {
    if (implied.has(p)) continue;
    const q = primedPreds ? primeOf(p) : p;
    if (shortcuts && excluded(q)) continue;
    const decided = box ? box.implies(q) : null;
    if (decided === null) ask.push({ p, q });
    else if (decided) (implied.add(p), note(q));
  }
  if (ask.length > 0) {
    const answers = await solver.checkEach(whole(), ask.map(({ q }) => not(q)));
    ask.forEach(({ p }, k) => answers[k].status === 'unsat' && implied.add(p));
  }
  return preds.filter((p) => implied.has(p));
}

/**
 * SOLVELINEARHC (§7, Fig. 14–16): the paper's own solver for recursion-free Horn
 * clauses over linear arithmetic. The clauses are unfolded into trees (MKTREE), one
 * Farkas certificate refutes the leaf atoms of a tree, and each node's predicate is
 * the certificate's sum over its subtree (ANNOTPRED) — a single linear inequality
 * over the node's head, like an interpolant.
 */
import { and, conjuncts, eq, FALSE, fromLinear, isArrayName, le, linearOf, num, or, substitute, TRUE, type Term } from '../../../solver/formula.js';
import { clauseVars, type HornClause, type HornSolution, type HornSystem } from '../../../solver/horn.js';
import { farkas, linearAtom, type FarkasLimits, type LinearAtom } from './farkas.js';

export interface LinearHornOptions {
  /** Give up when the unfolded trees would have more nodes than this. */
  maxNodes?: number;
  /** Give up when the trees would have more leaf atoms than this (memory). */
  maxAtoms?: number;
  /** Limits of the certificate search (Fourier–Motzkin rows, memory, a deadline). */
  farkas?: FarkasLimits;
}

export const DEFAULT_MAX_NODES = 20_000;
export const DEFAULT_MAX_ATOMS = 100_000;

export interface CertificateEntry {
  /** A leaf atom of the tree (variables are fresh copies `name~k`). */
  readonly atom: LinearAtom;
  readonly weight: bigint;
}

export type LinearHornResult =
  | { status: 'sat'; solution: HornSolution; certificates: CertificateEntry[][]; nodes: number }
  /** No Farkas certificate: the clauses have no solution over the rationals (Fig. 14 line 12). */
  | { status: 'unsat'; nodes: number }
  /** Outside what the solver handles; the reason says what. */
  | { status: 'gave-up'; reason: string };

class GiveUp extends Error {}

/** One derivation of a relation: a clause and a derivation of each of its body atoms. */
interface Template {
  readonly clause: HornClause;
  readonly children: readonly Template[];
  readonly size: number;
}

/** A template placed in one tree, with fresh copies of its variables. */
interface Node {
  readonly template: Template;
  /** Fresh variables standing for the relation's parameters (empty for a query). */
  readonly head: readonly string[];
  /** Indices of this node's own leaf atoms. */
  readonly atoms: readonly number[];
  readonly children: readonly Node[];
}

/**
 * The conjuncts of a clause constraint as linear atoms. A disjunction left after
 * substituting the constraint's own `v = constant` atoms (φ_err under the tuple's
 * pc atoms) is outside SOLVELINEARHC.
 */
function leafAtoms(constraint: Term): Term[] {
  const parts = conjuncts(constraint);
  const known = new Map<string, Term>();
  for (const a of parts) {
    const l = linearAtom(a);
    if (l?.eq && l.coeffs.size === 1) {
      const [[v, c]] = [...l.coeffs];
      if (l.constant % c === 0n) known.set(v, num(-l.constant / c));
    }
  }
  const out: Term[] = [];
  for (const a of parts) {
    const b = linearAtom(a) ? a : substitute(a, known);
    for (const c of conjuncts(b)) {
      if (!linearAtom(c)) throw new GiveUp(`not a linear atom: ${c.kind === 'app' ? c.op : c.kind}`);
      out.push(c);
    }
  }
  return out;
}

/**
 * The derivations MKTREE (Fig. 15) unfolds, as templates: every derivation of each
 * relation, shared between the trees that contain it. With one clause per head (as
 * MKHORNCLAUSES makes them) there is one derivation; a relation with several clauses
 * gets one per clause — the renaming §7 mentions — and the trees multiply.
 */
function derivations(sys: HornSystem, maxNodes: number): { queries: Template[]; of: ReadonlyMap<string, Template[]> } {
  const defs = new Map<string, HornClause[]>();
  for (const c of sys.clauses) if (c.head) defs.set(c.head.rel, [...(defs.get(c.head.rel) ?? []), c]);
  const memo = new Map<string, Template[]>();
  const active = new Set<string>();
  const of = (rel: string): Template[] => {
    const hit = memo.get(rel);
    if (hit) return hit;
    if (active.has(rel)) throw new GiveUp('the clauses are recursive');
    active.add(rel);
    const out: Template[] = [];
    for (const c of defs.get(rel) ?? []) out.push(...expand(c));
    active.delete(rel);
    memo.set(rel, out);
    return out;
  };
  // Every template counts against the limit, so that duplicated derivations cannot
  // multiply past it before a tree is even built.
  let made = 0;
  const expand = (c: HornClause): Template[] => {
    let combos: Template[][] = [[]];
    for (const a of c.body) {
      const ds = of(a.rel);
      if (combos.length * ds.length > maxNodes) throw new GiveUp(`more than ${maxNodes} tree nodes`);
      combos = combos.flatMap((cs) => ds.map((d) => [...cs, d]));
    }
    made += combos.length;
    if (made > maxNodes) throw new GiveUp(`more than ${maxNodes} tree nodes`);
    return combos.map((children) => {
      const size = 1 + children.reduce((s, t) => s + t.size, 0);
      if (size > maxNodes) throw new GiveUp(`more than ${maxNodes} tree nodes`);
      return { clause: c, children, size };
    });
  };
  return { queries: sys.clauses.filter((c) => !c.head).flatMap(expand), of: memo };
}

/** A clause's atoms as linear forms, renamed per tree node. */
interface PreparedClause {
  readonly constraint: readonly LinearAtom[];
  readonly head: readonly LinearAtom[];
  readonly body: readonly (readonly LinearAtom[])[];
}

/** Linear forms per (hash-consed) term: refinement rounds build clauses from the same constraints and arguments. */
const constraintAtoms = new WeakMap<Term, readonly LinearAtom[]>();
const argForms = new WeakMap<Term, LinearAtom>();

function linearArg(t: Term): LinearAtom {
  let a = argForms.get(t);
  if (!a) {
    const l = linearOf(t);
    if (!l) throw new GiveUp('a nonlinear argument');
    argForms.set(t, (a = { coeffs: l.coeffs, constant: l.constant, eq: true }));
  }
  return a;
}

function prepare(c: HornClause): PreparedClause {
  let constraint = constraintAtoms.get(c.constraint);
  if (!constraint) constraintAtoms.set(c.constraint, (constraint = leafAtoms(c.constraint).map((a) => linearAtom(a)!)));
  return {
    constraint,
    head: c.head?.args.map(linearArg) ?? [],
    body: c.body.map((b) => b.args.map(linearArg)),
  };
}

/** `v − (arg renamed by k) = 0`: ties a fresh parameter to an argument. */
function link(v: string, arg: LinearAtom, k: number): LinearAtom {
  const coeffs = new Map<string, bigint>([[v, 1n]]);
  for (const [x, c] of arg.coeffs) coeffs.set(`${x}~${k}`, (coeffs.get(`${x}~${k}`) ?? 0n) - c);
  return { coeffs, constant: -arg.constant, eq: true };
}

function renamed(a: LinearAtom, k: number): LinearAtom {
  return { coeffs: new Map([...a.coeffs].map(([x, c]) => [`${x}~${k}`, c])), constant: a.constant, eq: a.eq };
}

/**
 * MKTREE (Fig. 15): the tree of one derivation, each node a clause with consistent
 * fresh copies of its variables (`x~k` for node k, lines 2–10), its Label atoms as
 * linear forms collected in `atoms` (lines 11–13; no formula terms: trees can be
 * large) and its children the derivations of its body atoms (line 15).
 */
function mkTree(sys: HornSystem, root: Template, prepared: Map<HornClause, PreparedClause>, atoms: LinearAtom[], maxAtoms: number): Node {
  const params = new Map(sys.relations.map((r) => [r.name, r.params] as const));
  let fresh = 0;
  const place = (t: Template, head: readonly string[]): Node => {
    const k = fresh++;
    const own: number[] = [];
    const push = (a: LinearAtom): void => {
      if (atoms.length >= maxAtoms) throw new GiveUp(`more than ${maxAtoms} tree atoms`);
      own.push(atoms.length);
      atoms.push(a);
    };
    let c = prepared.get(t.clause);
    if (!c) prepared.set(t.clause, (c = prepare(t.clause)));
    // The head's fresh parameters equal the head arguments …
    c.head.forEach((arg, i) => push(link(head[i], arg, k)));
    for (const a of c.constraint) push(renamed(a, k));
    const children = t.clause.body.map((b, i) => {
      const childHead = (params.get(b.rel) ?? []).map((p) => `${p}~${fresh}h${i}`);
      // … and, in the parent, the body atom's arguments.
      c.body[i].forEach((arg, j) => push(link(childHead[j], arg, k)));
      return place(t.children[i], childHead);
    });
    return { template: t, head, atoms: own, children };
  };
  return place(root, []);
}

const atomTerm = (a: LinearAtom): Term => (a.eq ? eq : le)(fromLinear({ coeffs: a.coeffs, constant: a.constant }), num(0));

/**
 * ANNOTPRED (Fig. 16): Pred(n) is the certificate's weighted sum of the leaf atoms in
 * n's subtree; only n's head variables survive the sum, `Σ c·v + k ≤ 0`. When every
 * atom the sum uses is an equality, so is the sum: `= 0` says more, and still follows.
 */
function annotPred(root: Node, atoms: readonly LinearAtom[], weights: ReadonlyMap<number, bigint>, out: Map<Node, LinearAtom>): LinearAtom {
  const coeffs = new Map<string, bigint>();
  let constant = 0n;
  let isEq = true;
  const addScaled = (a: LinearAtom, w: bigint): void => {
    for (const [v, c] of a.coeffs) coeffs.set(v, (coeffs.get(v) ?? 0n) + w * c);
    constant += w * a.constant;
    isEq &&= a.eq;
  };
  for (const k of root.atoms) {
    const w = weights.get(k);
    if (w) addScaled(atoms[k], w);
  }
  for (const ch of root.children) addScaled(annotPred(ch, atoms, weights, out), 1n);
  for (const [v, c] of coeffs) if (c === 0n) coeffs.delete(v);
  const pred = { coeffs, constant, eq: isEq };
  out.set(root, pred);
  return pred;
}

/** `Σ c·v + k ≤ 0` (or `= 0`) over the relation's parameters, tightened by the builders over the integers. */
function predTerm(p: LinearAtom, head: readonly string[], params: readonly string[]): Term {
  const names = new Map(head.map((h, i) => [h, params[i]] as const));
  const coeffs = new Map<string, bigint>();
  for (const [v, c] of p.coeffs) {
    const n = names.get(v);
    if (n === undefined) throw new Error(`internal: Pred mentions ${v}, which is not in its head`);
    coeffs.set(n, c);
  }
  return atomTerm({ coeffs, constant: p.constant, eq: p.eq });
}

/**
 * SOLVELINEARHC (Fig. 14): a solution of recursion-free Horn clauses over linear
 * integer arithmetic, with the Farkas certificate of every tree; 'unsat' when a tree
 * has no certificate (its atoms have a rational solution: then no solution exists over
 * the rationals, though one may over the integers); 'gave-up' outside linear
 * conjunctions or past the size limits.
 */
export function solveLinearHC(sys: HornSystem, opts: LinearHornOptions = {}): LinearHornResult {
  const maxNodes = opts.maxNodes ?? DEFAULT_MAX_NODES;
  try {
    if (sys.clauses.some((c) => clauseVars(c).some(isArrayName))) throw new GiveUp('arrays (Farkas certificates are over integers)');
    const { queries, of } = derivations(sys, maxNodes);
    const nodes = queries.reduce((s, t) => s + t.size, 0);
    if (nodes > maxNodes) throw new GiveUp(`more than ${maxNodes} tree nodes`);
    // Line 9: per derivation the conjunction of its nodes' predicates; a relation's
    // solution is the disjunction over its derivations (just one with one clause per head).
    const conj = new Map<Template, Term[]>();
    const certificates: CertificateEntry[][] = [];
    const prepared = new Map<HornClause, PreparedClause>();
    for (const q of queries) {
      const atoms: LinearAtom[] = [];
      const root = mkTree(sys, q, prepared, atoms, opts.maxAtoms ?? DEFAULT_MAX_ATOMS);
      const r = farkas(atoms, opts.farkas);
      if (r.status === 'limit') throw new GiveUp(r.reason);
      if (r.status === 'feasible') return { status: 'unsat', nodes };
      certificates.push([...r.weights].sort(([a], [b]) => a - b).map(([k, weight]) => ({ atom: atoms[k], weight })));
      const preds = new Map<Node, LinearAtom>();
      annotPred(root, atoms, r.weights, preds);
      const params = new Map(sys.relations.map((x) => [x.name, x.params] as const));
      for (const [n, p] of preds) {
        const head = n.template.clause.head;
        if (!head) continue;
        conj.set(n.template, [...(conj.get(n.template) ?? []), predTerm(p, n.head, params.get(head.rel)!)]);
      }
    }
    const byRel = new Map<string, Term[]>();
    for (const [t, ps] of conj) {
      const rel = t.clause.head!.rel;
      byRel.set(rel, [...(byRel.get(rel) ?? []), and(...ps)]);
    }
    const solution = new Map<string, Term>();
    for (const r of sys.relations) {
      const reached = byRel.get(r.name);
      // Without a derivation a relation is empty; one that no tree reaches may be anything.
      solution.set(r.name, reached ? or(...reached) : of.get(r.name)?.length === 0 ? FALSE : TRUE);
    }
    return { status: 'sat', solution, certificates, nodes };
  } catch (e) {
    if (e instanceof GiveUp) return { status: 'gave-up', reason: e.message };
    throw e;
  }
}

/** True when every clause constraint is a conjunction of linear atoms (after φ_err's pcs are fixed). */
export function isLinearSystem(sys: HornSystem): boolean {
  try {
    for (const c of sys.clauses) leafAtoms(c.constraint);
    return true;
  } catch (e) {
    if (e instanceof GiveUp) return false;
    throw e;
  }
}

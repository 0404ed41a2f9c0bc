/**
 * Horn clauses over the formula IR, their SMT-LIB (HORN logic) encoding, and the
 * check that a solution really satisfies every clause.
 */
import { and, not, smtSymbol, substitute, toSmt, varsOf, type Term } from './formula.js';

export interface Relation {
  readonly name: string;
  /** Parameter names; solutions are formulas over these. */
  readonly params: readonly string[];
}

export interface Atom {
  readonly rel: string;
  readonly args: readonly Term[];
}

/** body atoms ∧ constraint → head (head absent: → false). Variables are universally quantified. */
export interface HornClause {
  readonly body: readonly Atom[];
  readonly constraint: Term;
  readonly head?: Atom;
}

export interface HornSystem {
  readonly relations: readonly Relation[];
  readonly clauses: readonly HornClause[];
}

/** A solution: one formula per relation, over the relation's parameters. */
export type HornSolution = ReadonlyMap<string, Term>;

export type HornResult =
  | { status: 'sat'; solution: HornSolution }
  | { status: 'unsat' }
  | { status: 'unknown'; reason: string };

/** Free variables of a clause (its universally quantified variables). */
export function clauseVars(c: HornClause): string[] {
  const vs = new Set<string>();
  varsOf(c.constraint, vs);
  for (const a of [...c.body, ...(c.head ? [c.head] : [])]) for (const t of a.args) varsOf(t, vs);
  return [...vs].sort();
}

/** The SMT-LIB 2 script (logic HORN): `(check-sat)` answers sat exactly when a solution exists. */
export function hornToSmtLib(sys: HornSystem): string {
  const lines = ['(set-logic HORN)'];
  for (const r of sys.relations) lines.push(`(declare-fun ${smtSymbol(r.name)} (${r.params.map(() => 'Int').join(' ')}) Bool)`);
  const app = (a: Atom): string => (a.args.length ? `(${smtSymbol(a.rel)} ${a.args.map(toSmt).join(' ')})` : smtSymbol(a.rel));
  for (const c of sys.clauses) {
    const body = [...c.body.map(app), toSmt(c.constraint)];
    const imp = `(=> (and ${body.join(' ')}) ${c.head ? app(c.head) : 'false'})`;
    const vs = clauseVars(c);
    lines.push(vs.length ? `(assert (forall (${vs.map((v) => `(${smtSymbol(v)} Int)`).join(' ')}) ${imp}))` : `(assert ${imp})`);
  }
  return lines.join('\n') + '\n';
}

/** A relation's solution applied to arguments. */
export function applySolution(sys: HornSystem, sol: HornSolution, a: Atom): Term {
  const rel = sys.relations.find((r) => r.name === a.rel);
  const body = sol.get(a.rel);
  if (!rel || !body) throw new Error(`no solution for relation '${a.rel}'`);
  return substitute(body, new Map(rel.params.map((p, i) => [p, a.args[i]] as const)));
}

/**
 * For every clause, the formula that must be unsatisfiable for `sol` to satisfy it:
 * body[sol] ∧ constraint ∧ ¬head[sol].
 */
export function solutionObligations(sys: HornSystem, sol: HornSolution): Term[] {
  return sys.clauses.map((c) =>
    and(...c.body.map((a) => applySolution(sys, sol, a)), c.constraint, c.head ? not(applySolution(sys, sol, c.head)) : and()),
  );
}


/**
 * Horn clauses over the formula IR, their SMT-LIB (HORN logic) encoding, and the
 * check that a solution really satisfies every clause.
 */
import { add, and, eq, le, lt, mkVar, mul, not, num, or, rebuild, smtSortOfName, smtSymbol, substitute, toSmt, varsOf, type AppTerm, type Op, type Term } from './formula.js';

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

/**
 * C's `/` and `%` by a constant k through an auxiliary quotient: each
 * e / k and e % k of a clause becomes q and r with e = k·q + r, 0 ≤ r < |k| when
 * e ≥ 0 and -|k| < r ≤ 0 when e < 0 (C rounds toward zero; SMT's div and mod are
 * Euclidean). q and r are clause variables: the clause holds for all of them, so
 * for the one pair that satisfies the constraints. Spacer answers these clauses in
 * linear arithmetic where `div`/`mod` made it time out.
 */
export function withQuotients(sys: HornSystem): HornSystem {
  let n = 0;
  const clauses = sys.clauses.map((c) => {
    const extra: Term[] = [];
    const pairs = new Map<string, { q: Term; r: Term }>();
    const memo = new Map<Term, Term>();
    const rewrite = (t: Term): Term => {
      if (t.kind !== 'app') return t;
      const hit = memo.get(t);
      if (hit) return hit;
      const r = rewriteApp(t.op, t.args.map(rewrite), t);
      memo.set(t, r);
      return r;
    };
    const rewriteApp = (op: Op, args: Term[], t: AppTerm): Term => {
      const k = args[1];
      if ((op === 'cdiv' || op === 'crem') && k.kind === 'int' && k.value !== 0n) {
        const e = args[0];
        const key = `${e.id}/${k.value}`;
        let p = pairs.get(key);
        if (!p) {
          const m = k.value < 0n ? -k.value : k.value;
          p = { q: mkVar(`q!${++n}`), r: mkVar(`r!${n}`) };
          extra.push(
            eq(e, add(mul(k, p.q), p.r)),
            or(and(le(num(0), e), le(num(0), p.r), le(p.r, num(m - 1n))), and(lt(e, num(0)), le(num(1n - m), p.r), le(p.r, num(0)))),
          );
          pairs.set(key, p);
        }
        return op === 'cdiv' ? p.q : p.r;
      }
      return args.every((a, i) => a === t.args[i]) ? t : rebuild(op, args);
    };
    const constraint = rewrite(c.constraint);
    return extra.length ? { ...c, constraint: and(constraint, ...extra) } : c;
  });
  return { ...sys, clauses };
}

/**
 * The SMT-LIB 2 script (logic HORN, `/` and `%` by constants through quotients): `(check-sat)`
 * answers sat exactly when a solution exists. Parameters and clause variables are sorted by name.
 */
export function hornToSmtLib(system: HornSystem): string {
  const sys = withQuotients(system);
  const lines = ['(set-logic HORN)'];
  for (const r of sys.relations) lines.push(`(declare-fun ${smtSymbol(r.name)} (${r.params.map(smtSortOfName).join(' ')}) Bool)`);
  const app = (a: Atom): string => (a.args.length ? `(${smtSymbol(a.rel)} ${a.args.map(toSmt).join(' ')})` : smtSymbol(a.rel));
  for (const c of sys.clauses) {
    const body = [...c.body.map(app), toSmt(c.constraint)];
    const imp = `(=> (and ${body.join(' ')}) ${c.head ? app(c.head) : 'false'})`;
    const vs = clauseVars(c);
    lines.push(vs.length ? `(assert (forall (${vs.map((v) => `(${smtSymbol(v)} ${smtSortOfName(v)})`).join(' ')}) ${imp}))` : `(assert ${imp})`);
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


/**
 * Weakening a Horn solution before REFINE reads predicates off it. Spacer tends to
 * return near-strongest solutions (everything known along the path), and every
 * conjunct becomes a predicate that multiplies abstract states. Dropping conjuncts
 * while every clause stays valid keeps what refutes the error tuple — closer to the
 * interpolants the paper's SOLVELINEARHC (§7) yields — and the result is still a
 * solution, so refinement's progress argument (Theorem 4) is unaffected.
 */
import { and, conjuncts, not, varsOf, type Term } from '../solver/formula.js';
import { applySolution, type HornClause, type HornSolution, type HornSystem } from '../solver/horn.js';
import type { SmtSolver } from '../solver/smt.js';

/**
 * Relations consumers-first: a relation comes after every relation whose defining
 * clause has it in the body (the query clause's relations come first).
 */
function consumersFirst(sys: HornSystem): string[] {
  const deps = new Map<string, string[]>(sys.relations.map((r) => [r.name, []]));
  for (const c of sys.clauses) if (c.head) deps.get(c.head.rel)!.push(...c.body.map((a) => a.rel));
  const order: string[] = [];
  const seen = new Set<string>();
  const visit = (r: string): void => {
    if (seen.has(r)) return;
    seen.add(r);
    for (const d of deps.get(r) ?? []) visit(d);
    order.push(r); // producers before consumers
  };
  for (const r of sys.relations) visit(r.name);
  return order.reverse();
}

/**
 * Drops conjuncts of each relation's solution, consumers first, while every clause
 * with the relation in its body stays valid (clauses with it as head only get
 * easier). `dropFirst` ranks conjuncts: those it ranks higher are tried first, so
 * they survive only when needed. A query the solver cannot decide keeps the conjunct.
 */
export async function weakenSolution(
  sys: HornSystem,
  sol: HornSolution,
  solver: SmtSolver,
  dropFirst: (rel: string, conjunct: Term) => number = () => 0,
): Promise<HornSolution> {
  const out = new Map(sol);
  const usedIn = new Map<string, HornClause[]>();
  for (const c of sys.clauses) for (const a of c.body) usedIn.set(a.rel, [...new Set([...(usedIn.get(a.rel) ?? []), c])]);
  const valid = async (c: HornClause): Promise<boolean> => {
    const body = c.body.map((a) => applySolution(sys, out, a));
    const head = c.head ? not(applySolution(sys, out, c.head)) : and();
    return (await solver.check([...body, c.constraint, head])).status === 'unsat';
  };
  for (const rel of consumersFirst(sys)) {
    const current = out.get(rel)!;
    const cs = [...conjuncts(current)];
    if (cs.length === 0) continue;
    const ranked = cs.map((c, k) => ({ c, k, rank: dropFirst(rel, c) })).sort((a, b) => b.rank - a.rank || varsOf(b.c).size - varsOf(a.c).size || a.k - b.k);
    let kept = new Set(cs);
    for (const { c, rank } of ranked) {
      if (process.env.WEAKMODE === 'foreign' && rank === 0) continue;
      const without = new Set(kept);
      without.delete(c);
      out.set(rel, and(...cs.filter((x) => without.has(x))));
      let ok = true;
      for (const clause of usedIn.get(rel) ?? []) if (!(ok = await valid(clause))) break;
      if (ok) kept = without;
    }
    out.set(rel, and(...cs.filter((x) => kept.has(x))));
  }
  return out;
}

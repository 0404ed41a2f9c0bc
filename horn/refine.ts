/**
 * Abstraction refinement by Horn clauses: MKHORNCLAUSES (Fig. 10, and Fig. 11 for
 * modular solutions) and REFINE (Fig. 9).
 */
import { and, eq, gt, lt, mkVar, num, primed, varsOf, type Term } from '../solver/formula.js';
import type { HornClause, HornSystem, Relation } from '../solver/horn.js';
import type { SmtSolver } from '../solver/smt.js';
import { fullFormula, type Program } from '../frontend/program.js';
import { isEnv, ownFrame, type Abstraction, type AbsState, type EnvTransition } from '../aret/reach-env.js';

export type Bias = 'modular' | 'none';

const stateRel = (s: AbsState): string => `s${s.id}`;
const envRel = (e: EnvTransition): string => `e${e.id}`;

/**
 * The clauses for an error tuple: REFINE line 1 plus MKHORNCLAUSES(S_i) for each S_i
 * (Fig. 10). With `modular`, unknown states of thread i range over V_G ∪ V_i and
 * unknown environment transitions over V_G ∪ V_G' (Fig. 11 and the changed line 1).
 */
export function mkHornClauses(p: Program, tuple: readonly AbsState[], modular: boolean): HornSystem {
  const all = [...p.vars.keys()];
  const stateParams = (i: number): string[] => (modular ? [...p.globals, ...p.threads[i].locals] : all);
  const envParams = (): string[] => {
    const base = modular ? [...p.globals] : all;
    return [...base, ...base.map(primed)];
  };
  const relations = new Map<string, Relation>();
  const clauses: HornClause[] = [];
  const atState = (s: AbsState, post = false) => {
    const ps = stateParams(s.thread);
    relations.set(stateRel(s), { name: stateRel(s), params: ps });
    return { rel: stateRel(s), args: ps.map((v) => mkVar(post ? primed(v) : v)) };
  };
  const atEnv = (e: EnvTransition) => {
    const ps = envParams();
    relations.set(envRel(e), { name: envRel(e), params: ps });
    return { rel: envRel(e), args: ps.map((v) => mkVar(v)) };
  };
  // A state's relation holds only at its location: saying so in every body lets
  // solutions leave the thread's own pc out.
  const at = (s: AbsState): Term => eq(mkVar(p.threads[s.thread].pc), num(s.pc));
  const seen = new Set<number>();
  const visit = (d: AbsState): void => {
    if (seen.has(d.id)) return; // the trees share states: the clauses form a DAG
    seen.add(d.id);
    const parent = d.parent;
    if (!parent) {
      clauses.push({ body: [], constraint: p.init, head: atState(d) }); // line 14
      return;
    }
    visit(parent.from); // line 5
    const s = parent.from;
    if (isEnv(parent.via)) {
      const e = parent.via;
      const o = e.parent.from;
      clauses.push({ body: [atState(o)], constraint: and(at(o), fullFormula(p, e.parent.via)), head: atEnv(e) }); // line 9
      clauses.push({ body: [atState(s), atEnv(e)], constraint: and(at(s), ownFrame(p, d.thread)), head: atState(d, true) }); // line 10
      visit(o); // line 11
    } else {
      clauses.push({ body: [atState(s)], constraint: and(at(s), fullFormula(p, parent.via)), head: atState(d, true) }); // line 12
    }
  };
  for (const s of tuple) visit(s);
  clauses.push({ body: tuple.map((s) => atState(s)), constraint: and(...tuple.map(at), p.err) }); // REFINE line 1
  return { relations: [...relations.values()], clauses };
}

/**
 * PredsOf: the atomic predicates of a solution. A negated equality becomes its two
 * strict sides, so the Cartesian abstraction can express it.
 */
export function predsOf(f: Term): Term[] {
  const out: Term[] = [];
  const walk = (t: Term, negated: boolean): void => {
    if (t.kind !== 'app') return;
    if (t.op === 'and' || t.op === 'or') return t.args.forEach((a) => walk(a, negated));
    if (t.op === 'not') return walk(t.args[0], !negated);
    if (t.op === '=' && t.args[0].sort === 'int') {
      if (negated) out.push(lt(t.args[0], t.args[1]), gt(t.args[0], t.args[1]));
      else out.push(t);
    } else if (t.op === '<=' || t.op === '<') out.push(t); // ¬(a ≤ b) is normalised away by the builders
  };
  walk(f, false);
  return out.filter((a) => a.kind === 'app');
}

export type RefineOutcome =
  | { kind: 'refined'; modular: boolean; added: number; solution: ReadonlyMap<string, Term> }
  | { kind: 'counterexample' }
  | { kind: 'stuck'; reason: string };

/**
 * REFINE (Fig. 9): solve the clauses and add the atomic predicates of each unknown's
 * solution to the predicate set of the thread (or thread pair) it came from. With
 * the modular bias the modular clauses are tried first; only if they have no
 * solution (or teach nothing new) are the unbiased ones used (§6). Unsatisfiable
 * unbiased clauses mean a counterexample.
 */
export async function refine(
  p: Program,
  tuple: readonly AbsState[],
  abs: Abstraction,
  solver: SmtSolver,
  bias: Bias,
  timeoutMs?: number,
): Promise<RefineOutcome> {
  const states = new Map<string, AbsState>();
  const envs = new Map<string, EnvTransition>();
  const collect = (s: AbsState): void => {
    states.set(stateRel(s), s);
    const par = s.parent;
    if (!par) return;
    collect(par.from);
    if (isEnv(par.via)) {
      envs.set(envRel(par.via), par.via);
      collect(par.via.parent.from);
    }
  };
  tuple.forEach(collect);
  let reason = 'the clauses taught no new predicate';
  for (const modular of bias === 'modular' ? [true, false] : [false]) {
    const sys = mkHornClauses(p, tuple, modular);
    const r = await solver.horn(sys, { timeoutMs });
    if (r.status === 'unknown') return { kind: 'stuck', reason: `Horn solver: ${r.reason}` };
    if (r.status === 'unsat') {
      if (modular) continue; // no modular solution: try the unbiased clauses
      return { kind: 'counterexample' };
    }
    let added = 0;
    for (const [rel, sol] of r.solution) {
      const s = states.get(rel);
      if (s) {
        const own = p.threads[s.thread].pc;
        // The own pc is tracked as the location already.
        added += abs.state[s.thread].add(predsOf(sol).filter((a) => ![...varsOf(a)].every((v) => v === own)));
        continue;
      }
      const e = envs.get(rel);
      if (e) added += abs.transition(e.source, e.target).add(predsOf(sol));
    }
    if (added > 0) return { kind: 'refined', modular, added, solution: r.solution };
    reason = 'the solution taught no new predicate';
  }
  return { kind: 'stuck', reason };
}

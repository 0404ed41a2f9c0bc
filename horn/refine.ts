/**
 * Abstraction refinement by Horn clauses: MKHORNCLAUSES (Fig. 10, and Fig. 11 for
 * modular solutions) and REFINE (Fig. 9).
 */
import { and, eq, gt, lt, mkVar, num, or, primed, unprimed, varsOf, type Term } from '../solver/formula.js';
import { solutionObligations, type HornClause, type HornResult, type HornSolution, type HornSystem, type Relation } from '../solver/horn.js';
import { solveLinearHC } from './linear.js';
import type { SmtSolver } from '../solver/smt.js';
import { fullFormula, type Program } from '../frontend/program.js';
import { isEnv, ownFrame, type Abstraction, type AbsState, type EnvTransition } from '../aret/reach-env.js';
import type { PredicateSet } from '../aret/abstraction.js';
import { stateImages, targetImages } from '../aret/symmetry.js';

export type Bias = 'modular' | 'none';

/**
 * Whose variables REFINE's unknowns may mention. `groups` partitions the threads: an
 * unknown state of thread i ranges over V_G and the locals of i's group, an unknown
 * environment transition into i over V_G, the locals of the rest of i's group, and
 * their primed copies. Each thread alone is Fig. 11 (modular); grouped is between it
 * and Fig. 10 (unbiased: every variable, no groups).
 */
export interface Level {
  readonly name: 'modular' | 'grouped' | 'unbiased';
  readonly groups?: readonly (readonly number[])[];
}

export const modularLevel = (p: Program): Level => ({ name: 'modular', groups: p.threads.map((_, i) => [i]) });
export const unbiasedLevel: Level = { name: 'unbiased' };

/** Thread i's group at a level with groups. */
const groupOf = (level: Level, i: number): readonly number[] => level.groups!.find((g) => g.includes(i))!;

const stateRel = (s: AbsState): string => `s${s.id}`;
const envRel = (e: EnvTransition): string => `e${e.id}`;

/**
 * The clauses for an error tuple: REFINE line 1 plus MKHORNCLAUSES(S_i) for each S_i
 * (Fig. 10), with unknowns over the variables `level` allows (Fig. 11 and the changed
 * line 1 for the modular level).
 */
export function mkHornClauses(p: Program, tuple: readonly AbsState[], level: Level): HornSystem {
  const all = [...p.vars.keys()];
  const localsOf = (ks: readonly number[]): string[] => ks.flatMap((k) => p.threads[k].locals);
  const stateParams = (i: number): string[] => (level.groups ? [...p.globals, ...localsOf(groupOf(level, i))] : all);
  const envParams = (i: number): string[] => {
    const base = level.groups ? [...p.globals, ...localsOf(groupOf(level, i).filter((k) => k !== i))] : all;
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
    const ps = envParams(e.target);
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
      // line 9, once per environment transition however many states it leads to
      if (!relations.has(envRel(e))) clauses.push({ body: [atState(o)], constraint: and(at(o), fullFormula(p, e.parent.via)), head: atEnv(e) });
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

/** Whose set a predicate joins: thread i's P_i, or the pair's P_i▷j. */
type Owner = { thread: number } | { source: number; target: number };
/** A predicate REFINE may learn, and the set it would join. */
type Candidate = { of: Owner; predicate: Term };

/**
 * At the grouped level, a solution that says where a group mate m of thread i is names
 * one location at a time (`writer2.pc = 1`, a few rounds later `= 3`), and each pair's
 * environment steps apart. The proof the grouped fixpoint promises tracks the mates'
 * locations exactly, so all of it is learned at once: every location of m in P_i, and
 * in each P_j▷i m's locations before and after when m moves (j = m), else that m stays.
 */
function mateLocations(p: Program, level: Level, of: Owner, q: Term): Candidate[] {
  if (level.name !== 'grouped') return [];
  const i = 'thread' in of ? of.thread : of.target;
  const vs = varsOf(q);
  const mates = groupOf(level, i).filter((m) => m !== i && (vs.has(p.threads[m].pc) || vs.has(primed(p.threads[m].pc))));
  const at = (m: number, post: boolean): Term[] => p.threads[m].locations.map((l) => eq(mkVar(post ? primed(p.threads[m].pc) : p.threads[m].pc), num(l.pc)));
  return mates.flatMap((m) => [
    ...at(m, false).map((predicate) => ({ of: { thread: i }, predicate })),
    ...p.threads.flatMap((_, j) =>
      j === i ? [] : (j === m ? [...at(m, false), ...at(m, true)] : [eq(mkVar(primed(p.threads[m].pc)), mkVar(p.threads[m].pc))]).map((predicate) => ({ of: { source: j, target: i }, predicate })),
    ),
  ]);
}

/**
 * At the grouped level, a transition predicate over the globals alone learned for
 * the pair j▷i joins every P_j▷k. The grouped fixpoint keeps one guarantee per
 * source, the global updates j's steps make, whoever sees them; learned pair by pair,
 * the same frames (`w' = w`, `r' = r`) cost a round for each target.
 */
function everyTarget(p: Program, level: Level, of: Owner, q: Term): Candidate[] {
  if (level.name !== 'grouped' || 'thread' in of) return [];
  const globals = new Set(p.globals);
  if (![...varsOf(q)].every((v) => globals.has(v) || globals.has(unprimed(v)))) return [];
  return p.threads.flatMap((_, k) => (k === of.source || k === of.target ? [] : [{ of: { source: of.source, target: k }, predicate: q }]));
}

/** A new predicate and whose set it joined: a thread's P_i (its name), or a pair's P_i▷j (`i▷j` by names). */
export interface Learned {
  readonly where: string;
  readonly predicate: Term;
}

export type RefineOutcome =
  | { kind: 'refined'; level: Level['name']; by: 'linear' | 'spacer'; learned: readonly Learned[]; solution: ReadonlyMap<string, Term> }
  | { kind: 'counterexample' }
  | { kind: 'stuck'; reason: string };

/** Which Horn solver answers REFINE's clauses (§7's SOLVELINEARHC or Spacer). */
export type HornSolverChoice = 'spacer' | 'linear' | 'auto';

/** Who answered the refinements, and why SOLVELINEARHC handed clauses to Spacer. */
export interface HornStats {
  answeredBy: { linear: number; spacer: number };
  fallbacks: Record<string, number>;
  /** Modular (or grouped) solutions passed over for the next level's clauses because they only enumerated constants. */
  enumerating: number;
}

export const newHornStats = (): HornStats => ({ answeredBy: { linear: 0, spacer: 0 }, fallbacks: {}, enumerating: 0 });

export interface RefineOptions {
  /** The clauses to ask, in order (with the modular bias: modular, grouped, unbiased; without: unbiased). */
  levels: readonly Level[];
  hornSolver: HornSolverChoice;
  timeoutMs?: number;
  stats: HornStats;
  /** Give learned predicates to the other instances of the same functions too (aret/symmetry.ts). */
  shareInstances: boolean;
}

/** A solution that does not satisfy its clauses: a bug in a Horn solver, never a refinement. */
export class InvalidSolution extends Error {
  constructor(by: string, reason: string) {
    super(`internal: the ${by} solution of the refinement clauses is not valid (${reason})`);
  }
}

/** Every clause valid under the solution: one query for the disjunction of the violations. */
async function validate(sys: HornSystem, sol: HornSolution, solver: SmtSolver, by: string, timeoutMs?: number): Promise<void> {
  const r = await solver.check([or(...solutionObligations(sys, sol))], { timeoutMs });
  if (r.status !== 'unsat') throw new InvalidSolution(by, r.status === 'sat' ? 'a clause is violated' : `check: ${r.reason}`);
}

type Answer = HornResult & { by: 'linear' | 'spacer' };

/**
 * The clauses' solution by the chosen solver. SOLVELINEARHC hands the clauses to
 * Spacer when it cannot answer: a nonlinear or disjunctive atom, the tree or row
 * limits, or — for unbiased clauses, or under `auto` — no rational certificate
 * (the infeasibility may need the integers). Without a certificate for the modular
 * (or grouped) clauses, `linear` concludes there is no such solution, as Fig. 14
 * line 12 does.
 */
async function solveClauses(sys: HornSystem, biased: boolean, solver: SmtSolver, o: RefineOptions): Promise<Answer> {
  const spacer = async (fallback?: string): Promise<Answer> => {
    if (fallback) o.stats.fallbacks[fallback] = (o.stats.fallbacks[fallback] ?? 0) + 1;
    const r = await solver.horn(sys, { timeoutMs: o.timeoutMs });
    if (r.status === 'sat') await validate(sys, r.solution, solver, 'Spacer', o.timeoutMs);
    return { ...r, by: 'spacer' };
  };
  if (o.hornSolver === 'spacer') return spacer();
  // Synchronous: it must stop by itself when the query's time is up.
  const lin = solveLinearHC(sys, { farkas: { deadline: o.timeoutMs === undefined ? undefined : performance.now() + o.timeoutMs } });
  if (lin.status === 'gave-up') return spacer(lin.reason);
  if (lin.status === 'unsat') {
    if (biased && o.hornSolver === 'linear') return { status: 'unsat', by: 'linear' };
    return spacer('no rational certificate');
  }
  await validate(sys, lin.solution, solver, 'SOLVELINEARHC', o.timeoutMs);
  return { status: 'sat', solution: lin.solution, by: 'linear' };
}

/**
 * REFINE (Fig. 9): solve the clauses and add the atomic predicates of each unknown's
 * solution to the predicate set of the thread (or thread pair) it came from. With
 * the modular bias the modular clauses are tried first; only if they have no
 * solution (or teach nothing new, or only enumerate constants: see below) are the
 * next level's used, and the unbiased ones last (§6). Unsatisfiable unbiased clauses
 * mean a counterexample. Under `auto`, a SOLVELINEARHC solution that teaches nothing
 * new is followed by Spacer's.
 */
export async function refine(p: Program, tuple: readonly AbsState[], abs: Abstraction, solver: SmtSolver, o: RefineOptions): Promise<RefineOutcome> {
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
  const setOf = (of: Owner): PredicateSet => ('thread' in of ? abs.state[of.thread] : abs.transition(of.source, of.target));
  const nameOf = (of: Owner): string => ('thread' in of ? p.threads[of.thread].name : `${p.threads[of.source].name}▷${p.threads[of.target].name}`);
  /** The atomic predicates of a solution that are new to their sets. */
  const candidates = (solution: HornSolution): Candidate[] => {
    const out: Candidate[] = [];
    for (const [rel, sol] of solution) {
      const s = states.get(rel);
      if (s) {
        const own = p.threads[s.thread].pc;
        // The own pc is tracked as the location already.
        for (const predicate of predsOf(sol)) if (![...varsOf(predicate)].every((v) => v === own)) out.push({ of: { thread: s.thread }, predicate });
        continue;
      }
      const e = envs.get(rel);
      if (e) for (const predicate of predsOf(sol)) out.push({ of: { source: e.source, target: e.target }, predicate });
    }
    return out.filter((c) => !setOf(c.of).has(c.predicate));
  };
  const add = (c: Candidate): Learned[] => setOf(c.of).add([c.predicate]).map((q) => ({ where: nameOf(c.of), predicate: q }));
  /** The candidate's images for the other instances of the same functions (aret/symmetry.ts). */
  const images = ({ of, predicate }: Candidate): Candidate[] =>
    'thread' in of
      ? stateImages(p, of.thread, predicate).map((im) => ({ of: { thread: im.thread }, predicate: im.predicate }))
      : targetImages(p, of.source, of.target, predicate).map((im) => ({ of: { source: of.source, target: im.target }, predicate: im.predicate }));
  /**
   * Adds the candidates, and what follows from each that was new: with
   * `shareInstances` its images, at the grouped level its mates' locations and its
   * other targets.
   */
  const learn = (cs: readonly Candidate[], level: Level): Learned[] =>
    cs.flatMap((c) => {
      const added = add(c);
      return added.length === 0 ? [] : [...added, ...learn([...(o.shareInstances ? images(c) : []), ...mateLocations(p, level, c.of, c.predicate), ...everyTarget(p, level, c.of, c.predicate)], level)];
    });
  let reason = 'the clauses taught no new predicate';
  for (const level of o.levels) {
    const biased = level.groups !== undefined;
    const sys = mkHornClauses(p, tuple, level);
    let r = await solveClauses(sys, biased, solver, o);
    let cs = r.status === 'sat' ? candidates(r.solution) : [];
    if (r.status === 'sat' && cs.length === 0 && r.by === 'linear' && o.hornSolver === 'auto') {
      r = await solveClauses(sys, biased, solver, { ...o, hornSolver: 'spacer' });
      cs = r.status === 'sat' ? candidates(r.solution) : [];
    }
    if (r.status === 'unknown') return { kind: 'stuck', reason: `Horn solver: ${r.reason}` };
    if (r.status === 'unsat') {
      if (biased) continue; // no solution at this level: try the next
      return { kind: 'counterexample' };
    }
    // A biased solution that only adds one more constant to predicates the sets hold
    // many constants of counts along a longer path, and the next one will count
    // further: the proof needs what these clauses cannot say, so take the next level.
    if (biased && cs.length > 0 && cs.every((c) => setOf(c.of).enumerates(c.predicate))) {
      reason = `the ${level.name} solution only enumerated constants`;
      o.stats.enumerating++;
      continue;
    }
    const learned = learn(cs, level);
    if (learned.length > 0) {
      o.stats.answeredBy[r.by]++;
      return { kind: 'refined', level: level.name, by: r.by, learned, solution: r.solution };
    }
    reason = 'the solution taught no new predicate';
  }
  return { kind: 'stuck', reason };
}

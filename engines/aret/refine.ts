/**
 * REFINE (Fig. 9): the error tuple's Horn clauses (horn-clauses.ts) solved, and the
 * atomic predicates of each unknown's solution added to the predicate set of the
 * thread (or thread pair) it came from. With the modular bias the modular clauses
 * come first, then the grouped ones, and the unbiased ones last (§6).
 */
import { conjuncts, eq, gt, isLinear, lt, mkVar, num, primed, unprimed, varsOf, type Term } from '../../solver/formula.js';
import type { HornSolution, HornSystem } from '../../solver/horn.js';
import type { SmtSolver } from '../../solver/smt.js';
import type { Budget } from '../../core/budget.js';
import type { Program, Transition } from '../../program/program.js';
import { nonlinearReason } from '../../core/errors.js';
import { solveClauses, type Answer, type HornSolverChoice } from './horn/solve.js';
import { isEnv, type Abstraction, type AbsState, type EnvTransition } from './aret.js';
import type { PredicateSet } from './abstraction.js';
import { envRel, groupOf, mkHornClauses, stateRel, type Level } from './horn-clauses.js';
import { stateImages, targetImages } from './symmetry.js';
import { otherValues } from './value-sets.js';

export type Bias = 'modular' | 'none';

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

/** The candidate's images for the other instances of the same functions (symmetry.ts). */
function images(p: Program, { of, predicate }: Candidate): Candidate[] {
  return 'thread' in of
    ? stateImages(p, of.thread, predicate).map((im) => ({ of: { thread: im.thread }, predicate: im.predicate }))
    : targetImages(p, of.source, of.target, predicate).map((im) => ({ of: { source: of.source, target: im.target }, predicate: im.predicate }));
}

/** A new predicate and whose set it joined: a thread's P_i (its name), or a pair's P_i▷j (`i▷j` by names). */
export interface Learned {
  readonly where: string;
  readonly predicate: Term;
}

export type RefineOutcome =
  | { kind: 'refined'; level: Level['name']; by: 'linear' | 'spacer'; learned: readonly Learned[]; solution: ReadonlyMap<string, Term>; system: HornSystem }
  | { kind: 'counterexample' }
  | { kind: 'stuck'; reason: string };

/** Who answered the refinements, and why SOLVELINEARHC handed clauses to Spacer. */
export interface HornStats {
  answeredBy: { linear: number; spacer: number };
  fallbacks: Record<string, number>;
  /** Modular (or grouped) solutions passed over for the next level's clauses because they only enumerated constants. */
  enumerating: number;
  /** Predicates learned by widening an unbiased solution that only counted. */
  widened: number;
}

export const newHornStats = (): HornStats => ({ answeredBy: { linear: 0, spacer: 0 }, fallbacks: {}, enumerating: 0, widened: 0 });

export interface RefineOptions {
  /** The clauses to ask, in order (with the modular bias: modular, grouped, unbiased; without: unbiased). */
  levels: readonly Level[];
  hornSolver: HornSolverChoice;
  timeoutMs?: number;
  /** The run's budget, for the queries that run in this thread (SOLVELINEARHC). */
  budget?: Budget;
  stats: HornStats;
  /** Give learned predicates to the other instances of the same functions too (symmetry.ts). */
  shareInstances: boolean;
  /** Learn every value of a variable that only holds constants when one is learned (value-sets.ts). */
  allValues: boolean;
}

/** The unknowns of the tuple's clauses, by relation name: the states and environment transitions on the way to it. */
interface Unknowns {
  readonly states: ReadonlyMap<string, AbsState>;
  readonly envs: ReadonlyMap<string, EnvTransition>;
}

function unknownsOf(tuple: readonly AbsState[]): Unknowns {
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
  return { states, envs };
}

/** Fig. 9 lines 8–12: the predicate sets a solution adds to, and what follows from each addition. */
class Learner {
  constructor(
    private readonly p: Program,
    private readonly abs: Abstraction,
    private readonly shareInstances: boolean,
    private readonly allValues: boolean,
  ) {}

  setOf(of: Owner): PredicateSet {
    return 'thread' in of ? this.abs.state[of.thread] : this.abs.transition(of.source, of.target);
  }

  private nameOf(of: Owner): string {
    const { threads } = this.p;
    return 'thread' in of ? threads[of.thread].name : `${threads[of.source].name}▷${threads[of.target].name}`;
  }

  /** The atomic predicates of a solution that are new to their sets (line 9: P_i, line 12: P_i▷j). */
  candidates(unknowns: Unknowns, solution: HornSolution): Candidate[] {
    const out: Candidate[] = [];
    for (const [rel, sol] of solution) {
      const s = unknowns.states.get(rel);
      if (s) {
        const own = this.p.threads[s.thread].pc;
        // The own pc is tracked as the location already.
        for (const predicate of predsOf(sol)) if (![...varsOf(predicate)].every((v) => v === own)) out.push({ of: { thread: s.thread }, predicate });
        continue;
      }
      const e = unknowns.envs.get(rel);
      if (e) for (const predicate of predsOf(sol)) out.push({ of: { source: e.source, target: e.target }, predicate });
    }
    return out.filter((c) => !this.setOf(c.of).has(c.predicate));
  }

  /**
   * Adds the candidates, and what follows from each that was new: with
   * `shareInstances` its images, at the grouped level its mates' locations and its
   * other targets, and with `allValues`, for `v = k` where v only ever holds
   * constants, v's other values (value-sets.ts). Not at the grouped level: it learns
   * the mates' locations at once already, and the values with them cost the
   * readers-writer lock 2.5 times the abstraction queries, for one round fewer.
   */
  learn(cs: readonly Candidate[], level: Level): Learned[] {
    return cs.flatMap((c) => {
      const added = this.setOf(c.of).add([c.predicate]).map((q) => ({ where: this.nameOf(c.of), predicate: q }));
      if (added.length === 0) return [];
      const follows = [
        ...(this.shareInstances ? images(this.p, c) : []),
        ...mateLocations(this.p, level, c.of, c.predicate),
        ...everyTarget(this.p, level, c.of, c.predicate),
        ...(this.allValues && level.name !== 'grouped' ? otherValues(this.p, c.predicate).map((predicate) => ({ of: c.of, predicate })) : []),
      ];
      return [...added, ...this.learn(follows, level)];
    });
  }
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
/** A transition with nonlinear arithmetic whose formula is among the clauses' constraints (they conjoin transition formulas as they are), if any. */
function nonlinearIn(p: Program, sys: HornSystem): Transition | undefined {
  const constraints = sys.clauses.filter((c) => !isLinear(c.constraint)).map((c) => new Set(conjuncts(c.constraint)));
  if (!constraints.length) return undefined;
  return p.threads.flatMap((th) => th.transitions).find((t) => !t.linear && constraints.some((c) => conjuncts(t.formula).every((a) => c.has(a))));
}

export async function refine(p: Program, tuple: readonly AbsState[], abs: Abstraction, solver: SmtSolver, o: RefineOptions): Promise<RefineOutcome> {
  const unknowns = unknownsOf(tuple);
  const learner = new Learner(p, abs, o.shareInstances, o.allValues);
  const solve = (sys: HornSystem, biased: boolean, hornSolver: HornSolverChoice): Promise<Answer> =>
    solveClauses(sys, biased, solver, { hornSolver, timeoutMs: o.timeoutMs, budget: o.budget, fallbacks: o.stats.fallbacks });
  let reason = 'the clauses taught no new predicate';
  for (const level of o.levels) {
    const biased = level.groups !== undefined;
    const sys = mkHornClauses(p, tuple, level);
    const nonlinear = nonlinearIn(p, sys);
    if (nonlinear) return { kind: 'stuck', reason: nonlinearReason(nonlinear, o.hornSolver === 'linear' ? 'SOLVELINEARHC' : 'Spacer') };
    let r = await solve(sys, biased, o.hornSolver);
    let cs = r.status === 'sat' ? learner.candidates(unknowns, r.solution) : [];
    if (r.status === 'sat' && cs.length === 0 && r.by === 'linear' && o.hornSolver === 'auto') {
      r = await solve(sys, biased, 'spacer');
      cs = r.status === 'sat' ? learner.candidates(unknowns, r.solution) : [];
    }
    if (r.status === 'unknown') return { kind: 'stuck', reason: `Horn solver: ${r.reason}` };
    if (r.status === 'unsat') {
      if (biased) continue; // no solution at this level: try the next
      return { kind: 'counterexample' };
    }
    // A biased solution that only adds one more constant to predicates the sets hold
    // many constants of counts along a longer path, and the next one will count
    // further: the proof needs what these clauses cannot say, so take the next level.
    if (biased && cs.length > 0 && cs.every((c) => learner.setOf(c.of).enumerates(c.predicate))) {
      reason = `the ${level.name} solution only enumerated constants`;
      o.stats.enumerating++;
      continue;
    }
    // At the last level a solution that only counts is all there is: learn with it what
    // its counting sequence has in common (a residue and a bound), which a proof that
    // counts without end may need (x % 2 = 0 for threads adding 2 and 4 to x).
    if (!biased && cs.length > 0 && cs.every((c) => learner.setOf(c.of).enumerates(c.predicate))) {
      const widened = cs.flatMap((c) => learner.setOf(c.of).widenings(c.predicate).map((predicate) => ({ of: c.of, predicate })));
      o.stats.widened += widened.length;
      cs = [...cs, ...widened];
    }
    const learned = learner.learn(cs, level);
    if (learned.length > 0) {
      o.stats.answeredBy[r.by]++;
      return { kind: 'refined', level: level.name, by: r.by, learned, solution: r.solution, system: sys };
    }
    reason = 'the solution taught no new predicate';
  }
  return { kind: 'stuck', reason };
}

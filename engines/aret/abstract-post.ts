/**
 * The abstract post of ABSTREACHENV (Fig. 7): the successor of an abstract state by
 * one of its thread's transitions (line 10), by an environment transition (line 11),
 * and the environment transition a step gives another thread (line 20), each the
 * Cartesian abstraction α (abstraction.ts) of the step. What makes it fast, each
 * exact: a predicate of the state over variables the step leaves unchanged holds
 * after it without a query (the frame shortcut); a state and an environment
 * transition that disagree on a constant are skipped (the disjointness test); and the
 * abstractions of earlier rounds are remembered while their predicate set is unchanged.
 */
import { mkVar, unprimed, varsOf, type Term } from '../../solver/formula.js';
import type { SmtSolver } from '../../solver/smt.js';
import { fullFormula, isFrameAtom, ownFrame, type Program, type Transition } from '../../program/program.js';
import { equalityOf, impliedPredicates, type AbstractionMemo, type PredicateSet } from './abstraction.js';
import type { Abstraction, AbsState, EnvTransition } from './aret.js';

export interface PostOptions {
  /** Ask the solver for every predicate and pair (no frame shortcut, no box, no disjointness test); for testing them. */
  noShortcuts?: boolean;
  /** Abstractions of earlier rounds, reused while their predicate set is unchanged. */
  memo?: AbstractionMemo;
}

/** The predicates a post implies (a cube's), or null when the step is infeasible from the state. */
type Post = Promise<Term[] | null>;

export class AbstractPost {
  private readonly shortcuts: boolean;
  private readonly otherLocals: Set<string>[];
  private readonly ownLocals: Set<string>[];
  private readonly frames: Term[];
  /** Per transition id, the variables it leaves unchanged (other threads' locals, its frame atoms). */
  private readonly unchangedBy = new Map<number, Set<string>>();
  private readonly cubeIds = new Map<AbsState, Set<number>>();
  private readonly constants = new Map<AbsState, Map<number, bigint>>();
  private readonly needed = new Map<EnvTransition, [number, bigint][]>();

  constructor(
    private readonly p: Program,
    private readonly abs: Abstraction,
    private readonly solver: SmtSolver,
    private readonly opts: PostOptions = {},
  ) {
    this.shortcuts = !opts.noShortcuts;
    this.otherLocals = p.threads.map((_, i) => new Set(p.threads.flatMap((th, k) => (k === i ? [] : th.locals))));
    this.ownLocals = p.threads.map((th) => new Set(th.locals));
    this.frames = p.threads.map((_, i) => ownFrame(p, i));
  }

  /** Line 3: α_i(φ_init). */
  initial(i: number): Post {
    return this.implied([this.p.init], this.abs.state[i], false);
  }

  /** Line 10: α_i(post(ρ, S)) for ρ ∈ T_i, over V'. */
  local(s: AbsState, t: Transition): Post {
    const unchanged = this.unchangedIn(t);
    return this.implied([s.formula, fullFormula(this.p, t)], this.abs.state[s.thread], true, this.kept(s, (v) => unchanged.has(v)));
  }

  /** Line 20: α_i▷j(S ∧ ρ), the step ρ of S's thread as thread j sees it. */
  environment(s: AbsState, t: Transition, j: number): Post {
    return this.implied([s.formula, fullFormula(this.p, t)], this.abs.transition(s.thread, j), false);
  }

  /** Line 11: α_i(post(ρ ∧ ρ_i^=, S)) for ρ ∈ E_i, the thread's own location unchanged; null also when the two are disjoint. */
  async underEnvironment(s: AbsState, e: EnvTransition): Post {
    if (this.disjoint(s, e)) return null;
    const i = s.thread;
    const own = this.ownLocals[i];
    return this.implied([s.formula, e.formula, this.frames[i]], this.abs.state[i], true, this.kept(s, (v) => own.has(v)));
  }

  private async implied(f: readonly Term[], set: PredicateSet, primedPreds: boolean, known?: (p: Term) => boolean): Post {
    const hit = this.opts.memo?.get(set, f, primedPreds);
    if (hit !== undefined) return hit;
    const r = await impliedPredicates(this.solver, f, set.all, primedPreds, known, this.shortcuts);
    this.opts.memo?.set(set, f, primedPreds, r);
    return r;
  }

  /** The frame shortcut: a predicate of S's cube over variables the step leaves unchanged holds after it. */
  private kept(s: AbsState, unchanged: (v: string) => boolean): (q: Term) => boolean {
    return (q) => {
      if (!this.shortcuts) return false;
      let inCube = this.cubeIds.get(s);
      if (!inCube) this.cubeIds.set(s, (inCube = new Set(s.cube.ids)));
      return inCube.has(q.id) && [...varsOf(q)].every(unchanged);
    };
  }

  private unchangedIn(t: Transition): Set<string> {
    let u = this.unchangedBy.get(t.id);
    if (!u) {
      u = new Set(this.otherLocals[t.thread]);
      for (const a of t.atoms) if (isFrameAtom(a)) for (const v of varsOf(a)) u.add(v);
      this.unchangedBy.set(t.id, u);
    }
    return u;
  }

  /**
   * Most pairs of a state and an environment transition are disjoint (95% on the
   * readers-writer lock without bias): the transition needs v = k before it (or, for
   * the thread's own locals, after it, as the frame keeps them) and the state has
   * v = k' for another k'. A map lookup per such equality finds them before any
   * abstraction is asked.
   */
  private disjoint(s: AbsState, e: EnvTransition): boolean {
    if (!this.shortcuts) return false;
    let c = this.constants.get(s);
    if (!c) this.constants.set(s, (c = this.constantsOf(s)));
    let n = this.needed.get(e);
    if (!n) this.needed.set(e, (n = this.needs(e)));
    for (const [v, k] of n) {
      const here = c.get(v);
      if (here !== undefined && here !== k) return true;
    }
    return false;
  }

  /** The state's `v = k`, its own `pc = l` included, by the term id of v. */
  private constantsOf(s: AbsState): Map<number, bigint> {
    const m = new Map<number, bigint>([[mkVar(this.p.threads[s.thread].pc).id, BigInt(s.pc)]]);
    for (const q of s.cube.preds) {
      const e = equalityOf(q);
      if (e) m.set(e.lhs.id, e.k);
    }
    return m;
  }

  /** The `v = k` the environment transition needs before it: over unprimed variables, and `v' = k` for the target's own locals. */
  private needs(e: EnvTransition): [number, bigint][] {
    return e.cube.preds.flatMap((q): [number, bigint][] => {
      const found = equalityOf(q);
      if (!found) return [];
      const { lhs, k } = found;
      if (lhs.kind === 'var' && lhs.name !== unprimed(lhs.name)) return this.ownLocals[e.target].has(unprimed(lhs.name)) ? [[mkVar(unprimed(lhs.name)).id, k]] : [];
      return [...varsOf(lhs)].some((v) => v !== unprimed(v)) ? [] : [[lhs.id, k]];
    });
  }
}

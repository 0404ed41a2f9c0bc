/**
 * ARETs: per thread, abstract reachability plus environment transitions.
 */
import { and, eq, evaluate, mkVar, num, or, primed, unprimed, varsOf, type Term } from '../solver/formula.js';
import type { SmtSolver } from '../solver/smt.js';
import { fullFormula, isFrameAtom, type Program, type Transition } from '../frontend/program.js';
import { SolverUnknown, cube, type AbstractionMemo, cubeFormula, cubeImplies, equalityOf, impliedPredicates, type Cube, type PredicateSet } from './abstraction.js';

export interface AbsState {
  readonly id: number;
  readonly thread: number;
  readonly pc: number;
  readonly cube: Cube;
  /** pc_i = pc ∧ the cube. */
  readonly formula: Term;
  /** Parent(S) and the transition taken (Fig. 7 lines 14, 15); none for α(φ_init). */
  readonly parent?: { readonly from: AbsState; readonly via: Transition | EnvTransition };
}

export interface EnvTransition {
  readonly kind: 'env';
  readonly id: number;
  /** ParentTId: the thread whose transition it abstracts. */
  readonly source: number;
  /** The thread it applies to. */
  readonly target: number;
  readonly cube: Cube;
  readonly formula: Term;
  /** Parent(ρ') = (S, ρ) (Fig. 7 line 23). */
  readonly parent: { readonly from: AbsState; readonly via: Transition };
}

export interface Aret {
  /** R_i: abstract states per thread. */
  readonly states: AbsState[][];
  /** E_j: environment transitions per target thread. */
  readonly env: EnvTransition[][];
}

export interface Abstraction {
  /** P_i */
  readonly state: PredicateSet[];
  /** P_i▷j, keyed by `${i}>${j}` */
  readonly transition: (i: number, j: number) => PredicateSet;
}

export const isEnv = (x: Transition | EnvTransition): x is EnvTransition => 'kind' in x && x.kind === 'env';

/** ρ_i^=: thread i's locals (its pc included) unchanged. */
export function ownFrame(p: Program, i: number): Term {
  return and(...p.threads[i].locals.map((v) => eq(mkVar(primed(v)), mkVar(v))));
}

/**
 * ABSTREACHENV (Fig. 7). Each (state, transition) pair is processed once, in rounds,
 * which reaches the same fixpoint as re-scanning every state each round.
 */
export interface ReachOptions {
  /** Ask the solver for every predicate and pair (no frame shortcut, no box, no disjointness test); for testing them. */
  noShortcuts?: boolean;
  /** Called between steps; throws to stop (a deadline). */
  checkTime?: () => void;
  /** Abstractions of earlier rounds, reused while their predicate set is unchanged. */
  memo?: AbstractionMemo;
}

export async function abstReachEnv(p: Program, abs: Abstraction, solver: SmtSolver, opts: ReachOptions = {}): Promise<Aret> {
  const frameShortcut = !opts.noShortcuts;
  opts.memo?.nextRound();
  const n = p.threads.length;
  const states: AbsState[][] = p.threads.map(() => []);
  const env: EnvTransition[][] = p.threads.map(() => []);
  let ids = 0;
  const state = (thread: number, pc: number, c: Cube, parent?: AbsState['parent']): AbsState => ({
    id: ids++,
    thread,
    pc,
    cube: c,
    formula: and(eq(mkVar(p.threads[thread].pc), num(pc)), cubeFormula(c)),
    parent,
  });
  const implied = async (f: readonly Term[], set: PredicateSet, primedPreds: boolean, known?: (p: Term) => boolean): Promise<Term[] | null> => {
    const hit = opts.memo?.get(set, f, primedPreds);
    if (hit !== undefined) return hit;
    const r = await impliedPredicates(solver, f, set.all, primedPreds, known, !opts.noShortcuts);
    opts.memo?.set(set, f, primedPreds, r);
    return r;
  };
  // Frame shortcut: a predicate of the source cube over variables the step leaves
  // unchanged holds after it, without a query.
  const cubeIds = new Map<AbsState, Set<number>>();
  const kept = (s: AbsState, unchanged: (v: string) => boolean) => (q: Term): boolean => {
    if (!frameShortcut) return false;
    let inCube = cubeIds.get(s);
    if (!inCube) cubeIds.set(s, (inCube = new Set(s.cube.ids)));
    return inCube.has(q.id) && [...varsOf(q)].every(unchanged);
  };
  const otherLocals = p.threads.map((_, i) => new Set(p.threads.flatMap((th, k) => (k === i ? [] : th.locals))));
  const unchangedBy = new Map<number, Set<string>>();
  const unchangedIn = (t: Transition): Set<string> => {
    let u = unchangedBy.get(t.id);
    if (!u) {
      u = new Set(otherLocals[t.thread]);
      for (const a of t.atoms) if (isFrameAtom(a)) for (const v of varsOf(a)) u.add(v);
      unchangedBy.set(t.id, u);
    }
    return u;
  };
  const ownLocals = p.threads.map((th) => new Set(th.locals));
  const ownLocal = ownLocals.map((ls) => (v: string) => ls.has(v));
  // Covering: a state (environment transition) implied by a newer one needs no
  // further expansion — whatever it would produce, the newer one produces a cover of.
  const covered = new Set<AbsState | EnvTransition>();
  const atLocation = new Map<string, AbsState[]>();
  const addState = (s: AbsState): boolean => {
    // Line 12: keep S' unless some S'' ∈ R_i already covers it.
    const key = `${s.thread}:${s.pc}`;
    let here = atLocation.get(key);
    if (!here) atLocation.set(key, (here = []));
    if (here.some((o) => cubeImplies(s.cube, o.cube))) return false;
    for (const o of here) if (cubeImplies(o.cube, s.cube)) covered.add(o);
    here.push(s);
    states[s.thread].push(s);
    return true;
  };
  const addEnv = (e: EnvTransition): boolean => {
    // Line 21: keep ρ' unless some ρ'' ∈ E_j already covers it.
    if (env[e.target].some((o) => cubeImplies(e.cube, o.cube))) return false;
    for (const o of env[e.target]) if (cubeImplies(o.cube, e.cube)) covered.add(o);
    env[e.target].push(e);
    return true;
  };
  // Lines 2–4: R_i := {α_i(φ_init)}, E_i := ∅.
  for (let i = 0; i < n; i++) {
    const c = await implied([p.init], abs.state[i], false);
    if (c) addState(state(i, p.threads[i].entryPc, cube(c)));
  }
  const frames = p.threads.map((_, i) => ownFrame(p, i));
  // Most pairs of a state and an environment transition are disjoint (95% on the
  // readers-writer lock without bias): the transition needs v = k before it (or, for
  // the thread's own locals, after it, as the frame keeps them) and the state has
  // v = k' for another k'. A map lookup per such equality finds them before any
  // abstraction is asked.
  const constantsOf = (s: AbsState): Map<number, bigint> => {
    const m = new Map<number, bigint>([[mkVar(p.threads[s.thread].pc).id, BigInt(s.pc)]]);
    for (const q of s.cube.preds) {
      const e = equalityOf(q);
      if (e) m.set(e.lhs.id, e.k);
    }
    return m;
  };
  const needs = (e: EnvTransition): [number, bigint][] =>
    e.cube.preds.flatMap((q): [number, bigint][] => {
      const found = equalityOf(q);
      if (!found) return [];
      const { lhs, k } = found;
      if (lhs.kind === 'var' && lhs.name !== unprimed(lhs.name)) return ownLocals[e.target].has(unprimed(lhs.name)) ? [[mkVar(unprimed(lhs.name)).id, k]] : [];
      return [...varsOf(lhs)].some((v) => v !== unprimed(v)) ? [] : [[lhs.id, k]];
    });
  const constants = new Map<AbsState, Map<number, bigint>>();
  const needed = new Map<EnvTransition, [number, bigint][]>();
  const disjoint = (s: AbsState, e: EnvTransition): boolean => {
    if (opts.noShortcuts) return false;
    let c = constants.get(s);
    if (!c) constants.set(s, (c = constantsOf(s)));
    let n = needed.get(e);
    if (!n) needed.set(e, (n = needs(e)));
    for (const [v, k] of n) {
      const here = c.get(v);
      if (here !== undefined && here !== k) return true;
    }
    return false;
  };
  const expanded = new Set<AbsState>();
  /** How many of E_i each state has been combined with (E_i only grows). */
  const envSeen = new Map<AbsState, number>();
  let envIds = 0;
  for (let changed = true; changed; ) {
    changed = false;
    for (let i = 0; i < n; i++) {
      for (const s of [...states[i]]) {
        if (covered.has(s)) continue;
        opts.checkTime?.();
        // Lines 9–11 for ρ ∈ T_i, and lines 19–25.
        if (!expanded.has(s)) {
          expanded.add(s);
          for (const t of p.threads[i].transitions) {
            if (t.from !== s.pc) continue;
            const unchanged = unchangedIn(t);
            const step = [s.formula, fullFormula(p, t)];
            const post = await implied(step, abs.state[i], true, kept(s, (v) => unchanged.has(v)));
            if (post === null) continue; // S ∧ ρ infeasible: no successor, no environment effect
            if (addState(state(i, t.to, cube(post), { from: s, via: t }))) changed = true;
            for (let j = 0; j < n; j++) {
              if (j === i) continue;
              const q = await implied(step, abs.transition(i, j), false);
              if (q === null) continue;
              const c = cube(q);
              if (addEnv({ kind: 'env', id: envIds++, source: i, target: j, cube: c, formula: cubeFormula(c), parent: { from: s, via: t } })) changed = true;
            }
          }
        }
        // Lines 9–11 for ρ ∈ E_i: post(ρ ∧ ρ_i^=, S), the thread's own location unchanged.
        // (E_i does not grow here: only other threads' steps add to it.)
        const es = env[i];
        let k = envSeen.get(s) ?? 0;
        while (k < es.length && !covered.has(s)) {
          const e = es[k++];
          if (covered.has(e) || disjoint(s, e)) continue;
          const post = await implied([s.formula, e.formula, frames[i]], abs.state[i], true, kept(s, ownLocal[i]));
          if (post !== null && addState(state(i, s.pc, cube(post), { from: s, via: e }))) changed = true;
        }
        envSeen.set(s, k);
      }
    }
  }
  return { states, env };
}

/**
 * Fig. 6 lines 8–9 without enumerating the product of the trees: for each state S
 * at a thread's error location, one query S ∧ ⋀_{j≠i} ⋁R_j; the tuple is read off
 * the model.
 */
export async function findErrorTuple(p: Program, aret: Aret, solver: SmtSolver): Promise<AbsState[] | null> {
  const vars = [...p.vars.keys()];
  const anyOf = aret.states.map((ss) => ss.map((s) => s.formula));
  for (const [i, th] of p.threads.entries()) {
    if (th.errorPc === undefined) continue;
    for (const s of aret.states[i]) {
      if (s.pc !== th.errorPc) continue;
      const others = anyOf.flatMap((fs, j) => (j === i ? [] : [or(...fs)]));
      const r = await solver.model([s.formula, ...others], vars);
      if (r.status === 'unknown') throw new SolverUnknown(r.reason);
      if (r.status === 'unsat') continue;
      const val = (v: string): bigint => r.model?.get(v) ?? 0n;
      return aret.states.map((ss, j) => (j === i ? s : ss.find((o) => evaluate(o.formula, val) === true)!));
    }
  }
  return null;
}

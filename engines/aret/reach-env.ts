/**
 * ABSTREACHENV (Fig. 7): per thread, abstract reachability plus environment
 * transitions (aret.ts), and the error tuples of Fig. 6 lines 8–9.
 */
import { and, eq, evaluate, mkVar, num, or, type Term } from '../../solver/formula.js';
import { modelValue, type SmtSolver } from '../../solver/smt.js';
import type { Program } from '../../program/program.js';
import { SolverUnknown } from '../../core/errors.js';
import { cube, cubeFormula, cubeImplies } from './abstraction.js';
import type { Abstraction, AbsState, Aret, EnvTransition } from './aret.js';
import { AbstractPost, type PostOptions } from './abstract-post.js';

export interface ReachOptions extends PostOptions {
  /** Called between steps; throws to stop (the run's budget's checkpoint). */
  checkTime?: () => void | Promise<void>;
}

/**
 * R_i and E_j as ABSTREACHENV grows them, with covering (lines 12 and 21): a state or
 * environment transition implied by a newer one needs no further expansion — whatever
 * it would produce, the newer one produces a cover of.
 */
class Trees implements Aret {
  readonly states: AbsState[][];
  readonly env: EnvTransition[][];
  readonly covered = new Set<AbsState | EnvTransition>();
  private readonly atLocation = new Map<string, AbsState[]>();
  private stateIds = 0;
  private envIds = 0;

  constructor(private readonly p: Program) {
    this.states = p.threads.map(() => []);
    this.env = p.threads.map(() => []);
  }

  /** Lines 12–15: keep S' unless some S'' ∈ R_i at its location already covers it; true when kept. */
  addState(thread: number, pc: number, preds: Term[], parent?: AbsState['parent']): boolean {
    // Made before the test: a state's id and formula exist whether or not it is kept.
    const c = cube(preds);
    const s: AbsState = { id: this.stateIds++, thread, pc, cube: c, formula: and(eq(mkVar(this.p.threads[thread].pc), num(pc)), cubeFormula(c)), parent };
    const key = `${thread}:${pc}`;
    let here = this.atLocation.get(key);
    if (!here) this.atLocation.set(key, (here = []));
    if (here.some((o) => cubeImplies(s.cube, o.cube))) return false;
    for (const o of here) if (cubeImplies(o.cube, s.cube)) this.covered.add(o);
    here.push(s);
    this.states[thread].push(s);
    return true;
  }

  /** Lines 21–24: keep ρ' unless some ρ'' ∈ E_j already covers it; true when kept. */
  addEnv(source: number, target: number, preds: Term[], parent: EnvTransition['parent']): boolean {
    const c = cube(preds);
    const e: EnvTransition = { kind: 'env', id: this.envIds++, source, target, cube: c, formula: cubeFormula(c), parent };
    if (this.env[target].some((o) => cubeImplies(e.cube, o.cube))) return false;
    for (const o of this.env[target]) if (cubeImplies(o.cube, e.cube)) this.covered.add(o);
    this.env[target].push(e);
    return true;
  }
}

/**
 * ABSTREACHENV (Fig. 7), with its abstract post in abstract-post.ts. Each (state,
 * transition) pair is processed once, in rounds, which reaches the same fixpoint as
 * re-scanning every state each round.
 */
export async function abstReachEnv(p: Program, abs: Abstraction, solver: SmtSolver, opts: ReachOptions = {}): Promise<Aret> {
  opts.memo?.nextRound();
  const post = new AbstractPost(p, abs, solver, opts);
  const trees = new Trees(p);
  const { states, env, covered } = trees;
  // Lines 2–4: R_i := {α_i(φ_init)}, E_i := ∅.
  for (let i = 0; i < p.threads.length; i++) {
    const c = await post.initial(i);
    if (c) trees.addState(i, p.threads[i].entryPc, c);
  }
  const expanded = new Set<AbsState>();
  /** How many of E_i each state has been combined with (E_i only grows). */
  const envSeen = new Map<AbsState, number>();
  for (let changed = true; changed; ) {
    changed = false;
    for (let i = 0; i < p.threads.length; i++) {
      for (const s of [...states[i]]) {
        if (covered.has(s)) continue;
        await opts.checkTime?.();
        // Lines 9–11 for ρ ∈ T_i, and lines 19–25.
        if (!expanded.has(s)) {
          expanded.add(s);
          for (const t of p.threads[i].transitions) {
            if (t.from !== s.pc) continue;
            const next = await post.local(s, t);
            if (next === null) continue; // S ∧ ρ infeasible: no successor, no environment effect
            if (trees.addState(i, t.to, next, { from: s, via: t })) changed = true;
            for (let j = 0; j < p.threads.length; j++) {
              if (j === i) continue;
              const q = await post.environment(s, t, j);
              if (q !== null && trees.addEnv(i, j, q, { from: s, via: t })) changed = true;
            }
          }
        }
        // Lines 9–11 for ρ ∈ E_i. (E_i does not grow here: only other threads' steps add to it.)
        const es = env[i];
        let k = envSeen.get(s) ?? 0;
        while (k < es.length && !covered.has(s)) {
          const e = es[k++];
          if (covered.has(e)) continue;
          const next = await post.underEnvironment(s, e);
          if (next !== null && trees.addState(i, s.pc, next, { from: s, via: e })) changed = true;
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
      const val = (v: string) => modelValue(r.model, v);
      return aret.states.map((ss, j) => (j === i ? s : ss.find((o) => evaluate(o.formula, val) === true)!));
    }
  }
  return null;
}

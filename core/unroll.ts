/**
 * Bounded model checking of the product program: is an error state reachable within
 * k steps, for k = 2, 4, 8, …? Each k is one query in a fresh context (z3 then
 * preprocesses the whole unrolling, many times faster than asking depth after depth
 * of one incremental unrolling: 1.3 s against 24 s for fig4-cex's 28-step trace),
 * and its steps may stutter, so that it covers every shorter trace too. The bmc
 * engine hunts bugs with it; the monolithic engine finds the trace behind Spacer's
 * `unsat` with it. The model is replayed (core/path.ts, as aret's counterexamples
 * are) before it is returned.
 */
import { and, eq, evaluate, intValue, isArrayName, isPrimed, ite, mkVar, not, num, or, rename, unprimed, varsOf, type Term, type Value } from '../solver/formula.js';
import { modelValue, type SmtSolver } from '../solver/smt.js';
import { isFrameAtom, type Program, type Transition } from '../program/program.js';
import { ReplayFailed, SolverUnknown } from './errors.js';
import { at, replayModel } from './path.js';
import type { TraceStep } from '../core/trace.js';

export interface UnrollOptions {
  /** Throws to stop (the run's deadline); called before every query and per transition while one is built. */
  checkTime: () => void;
  /** Limit for the next query (the time left, capped). */
  queryTimeoutMs: () => number | undefined;
  /** Told each depth that has been shown error-free, for statistics. */
  onDepth?: (k: number) => void;
  /** The longest trace to look for (default: no bound). */
  maxDepth?: number;
}

/** The depths asked: FIRST_DEPTH, then each GROWTH times the last (a deeper query costs more than all shallower ones). */
const FIRST_DEPTH = 2;
const GROWTH = 2;

/**
 * An error trace of `p` of at most `maxDepth` steps, replayed in the interpreter;
 * null when there is none that short. Not the shortest: it may be up to GROWTH
 * times longer. Throws SolverUnknown, ReplayFailed, or whatever checkTime throws.
 */
export async function findErrorTrace(p: Program, solver: SmtSolver, opts: UnrollOptions): Promise<TraceStep[] | null> {
  const max = opts.maxDepth ?? Infinity;
  for (let k = Math.min(FIRST_DEPTH, max); ; k = Math.min(k * GROWTH, max)) {
    opts.checkTime();
    const trace = await errorTraceWithin(p, solver, k, opts);
    if (trace) return trace;
    opts.onDepth?.(k);
    if (k === max) return null;
  }
}

/**
 * Which transition step m takes: its id. The name starts with '#', which no program
 * or aux variable does, so it cannot meet one.
 */
const selector = (m: number): string => at('#step', m);

/** The selector of a step that takes no transition (transition ids are not negative). */
const STUTTER = -1;

/**
 * An error trace of at most `depth` steps, replayed in the interpreter; null when
 * there is none. One query in a fresh context (SmtSolver.modelFresh): `depth` steps
 * that may stutter, so that err(V^depth) covers every shorter trace too; the trace
 * is the steps that take a transition.
 */
async function errorTraceWithin(p: Program, solver: SmtSolver, depth: number, opts: UnrollOptions): Promise<TraceStep[] | null> {
  const names = [...p.vars.keys()];
  const transitions = p.threads.flatMap((th) => th.transitions);
  const byId = new Map<number, Transition>(transitions.map((t) => [t.id, t]));
  const auxNames = [...new Set(transitions.flatMap((t) => t.aux))];
  const step = productStep(p, transitions, opts.checkTime, true);
  const parts = [rename(p.init, (v) => at(v, 0))];
  const wanted = names.map((v) => at(v, 0));
  for (let k = 0; k < depth; k++) {
    parts.push(step(k));
    wanted.push(selector(k + 1), ...names.map((v) => at(v, k + 1)), ...auxNames.map((a) => at(a, k + 1)));
  }
  parts.push(rename(p.err, (v) => at(v, depth)));
  const r = await solver.modelFresh(parts, wanted, { timeoutMs: opts.queryTimeoutMs() });
  if (r.status === 'unknown') throw new SolverUnknown(r.reason);
  if (r.status === 'unsat') return null;
  const value = (v: string): Value => modelValue(r.model, v);
  // The steps taken, and for the m-th of them the state it starts from: states[m].
  const steps = [...Array(depth).keys()].filter((k) => intValue(value(selector(k + 1))) !== BigInt(STUTTER));
  // The trace ends where the error is first reached (later steps of other threads only pad it to the depth).
  const first = [0, ...steps.map((k) => k + 1)].findIndex((k) => evaluate(p.err, (v) => value(at(v, k))) === true);
  const taken = first < 0 ? steps : steps.slice(0, first);
  const states = [0, ...taken.map((k) => k + 1)];
  const path = taken.map((k) => byId.get(Number(intValue(value(selector(k + 1))))));
  if (path.some((t) => t === undefined)) throw new ReplayFailed('internal: the unrolling has a step that takes no transition');
  // Renumber `x@m` (the m-th state of the trace, or aux of its m-th step) to the unrolling's.
  const renumbered = (v: string): Value => {
    const i = v.lastIndexOf('@');
    return value(at(v.slice(0, i), states[Number(v.slice(i + 1))]));
  };
  return replayModel(p, path as Transition[], renumbered);
}

/** `A' = e` for an array A, e not primed: [A, e]; else nothing. */
function arrayDefinition(a: Term): [string, Term][] {
  if (a.kind !== 'app' || a.op !== '=' || a.args[0].sort !== 'array') return [];
  for (const [l, r] of [a.args, [...a.args].reverse()])
    if (l.kind === 'var' && isPrimed(l.name) && ![...varsOf(r)].some(isPrimed)) return [[unprimed(l.name), r]];
  return [];
}

/**
 * Step k+1 of the product program, from V^k to V^{k+1}: the selector names the
 * transition taken, which implies that transition's effect (its atoms but the
 * frames), and each variable keeps its value unless the transition taken may change
 * it (with `stutter`, the step may also take none). The frames are stated once per variable rather than once per transition and
 * variable (fullFormula's ρ_j^=), which keeps a deep unrolling small. Aux variables
 * are shared by the transitions: only the one taken constrains them.
 */
function productStep(p: Program, transitions: readonly Transition[], check: () => void, stutter = false): (k: number) => Term {
  const names = [...p.vars.keys()];
  const locals = new Map(p.threads.map((th) => [th.index, new Set(th.locals)]));
  // Per transition, the variables it keeps: its frame atoms' and every other thread's locals.
  const keeps = transitions.map((t) => {
    check();
    const kept = new Set(t.atoms.filter(isFrameAtom).flatMap((a) => [...varsOf(a)].map(unprimed)));
    for (const [i, ls] of locals) if (i !== t.thread) for (const v of ls) kept.add(v);
    return kept;
  });
  // An array's next value is a definition, A' = ite(taken t1, its store, … A): z3 then
  // substitutes it, where frames `A' = A ∨ …` beside stores left it deciding array
  // equalities at every step (a deep unrolling over arrays stalled).
  const stores = transitions.map((t) => new Map(t.atoms.flatMap((a) => arrayDefinition(a))));
  const effects = transitions.map((t, i) => and(...t.atoms.filter((a) => !isFrameAtom(a) && !arrayDefinition(a).some(([v]) => stores[i].has(v)))));
  const arrays = names.filter(isArrayName);
  const ints = names.filter((v) => !isArrayName(v));
  return (k) => {
    const sel = mkVar(selector(k + 1));
    const taken = (t: Transition): Term => eq(sel, num(t.id));
    const renamed = (f: Term): Term => rename(f, (v) => (isPrimed(v) ? at(unprimed(v), k + 1) : p.vars.has(v) ? at(v, k) : at(v, k + 1)));
    // A step of a large product is large (chiron-single-2.c with N = 255: 1,024
    // transitions over 520 variables): the deadline is looked at per transition and per variable.
    const effect = transitions.map((t, i) => {
      check();
      return or(not(taken(t)), renamed(effects[i]));
    });
    const frames = ints.map((v) => {
      check();
      return or(eq(mkVar(at(v, k + 1)), mkVar(at(v, k))), ...transitions.filter((_, i) => !keeps[i].has(v)).map(taken));
    });
    for (const v of arrays) {
      check();
      // A transition that writes v without a store leaves it any array: a fresh one per transition.
      const next = transitions.reduceRight<Term>((rest, t, i) => (keeps[i].has(v) ? rest : ite(taken(t), renamed(stores[i].get(v) ?? mkVar(`${at(v, k + 1)}!t${t.id}`)), rest)), mkVar(at(v, k)));
      frames.push(eq(mkVar(at(v, k + 1)), next));
    }
    // A stutter step (selector STUTTER) takes no transition: every frame holds.
    return and(or(...transitions.map(taken), ...(stutter ? [eq(sel, num(STUTTER))] : [])), ...effect, ...frames);
  };
}

/**
 * Liveness by local reasoning (Cohen–Namjoshi §3.5 and §4): the split invariant θ,
 * per thread i the abstract process P̄[θ,i] (Definition 2: T_i exact, every other
 * thread j as the shared updates some view of θ_j makes) multiplied with the
 * automaton of ¬φ, and the check of Theorem 4 — no fair run takes T_i infinitely
 * often from accepting states. All pass: φ holds (Theorem 5). A failing lasso whose
 * abstract steps are all must-transitions induces a global counterexample (Theorem
 * 6), which is built by running the program along it and replayed; otherwise each
 * may-transition's obstacle p_k is exposed as a shared boolean and all is repeated.
 */
import { and, eq, mkVar, num, or, show, varsOf, type Term } from '../solver/formula.js';
import type { Program, Transition } from '../frontend/program.js';
import { compile } from '../core/compile.js';
import { automatonSteps, type LtlProperty } from '../core/property.js';
import { fairCycle, fairnessRequirements, type Edge, type GraphLasso } from '../core/fair-cycles.js';
import type { ConcreteLasso, LivenessOutcome, RunStep } from '../core/lasso.js';
import { DEFAULT_NONDET_RANGE, Layout, findDeadlock, globalMoves, initialStates, lassoFailure, type RealMove } from '../explicit/api.js';
import { exposeLocals, withShadows, type Shadow } from './expose.js';
import { splitInvariant, type SplitInvariant, type View } from './invariant.js';

export interface SplitOptions {
  readonly nondetRange?: readonly [bigint, bigint];
  readonly deadline?: number;
  readonly maxRefinements?: number;
}

export interface SplitStats {
  readonly timeMs: number;
  /** Σ_k |θ_k| plus the abstract products' states, over all rounds. */
  readonly states: number;
  /** Σ_k |θ_k| of the last round. */
  readonly invariantSize: number;
  readonly refinements: number;
  /** The local state exposed as shared booleans by the refinements (Table 2's "new variables"), as predicates. */
  readonly exposed: readonly string[];
  /** Abstract processes checked (over all rounds). */
  readonly checks: number;
}

const DEFAULT_MAX_REFINEMENTS = 20;
/** The bound of the global search for a deadlock the split invariant does not rule out. */
const DEADLOCK_SEARCH_STATES = 20_000;
const DEADLOCK_SEARCH_MS = 1000;

/** An abstract step: thread i's own (exact: `move`, or its self-loop) or another's shared update. */
interface AbstractEdge extends Edge {
  readonly move?: RealMove;
}

/** P̄[θ,i] × A: nodes (view of i, automaton state). */
interface AbstractProduct {
  readonly initial: number[];
  readonly out: AbstractEdge[][];
  readonly view: View[];
  readonly q: number[];
}

export function checkLivenessSplit(p: Program, prop: LtlProperty, opts: SplitOptions = {}): LivenessOutcome<SplitStats> {
  const t0 = performance.now();
  const range = opts.nondetRange ?? DEFAULT_NONDET_RANGE;
  const maxRefinements = opts.maxRefinements ?? DEFAULT_MAX_REFINEMENTS;
  const texts = [...prop.atoms.keys()];
  const seen = exposeLocals(p, [...prop.atoms.values()], (t) => varsOf(t));
  const atoms = texts.map((text, k) => [text, seen.terms[k]] as const);
  const refinements: Shadow[] = [];
  const exposed: string[] = [];
  let rounds = 0;
  let states = 0;
  let checks = 0;
  let invariantSize = 0;
  const stats = (): SplitStats => ({ timeMs: performance.now() - t0, states, invariantSize, refinements: rounds, exposed, checks });
  const timeout = (): LivenessOutcome<SplitStats> => ({ verdict: 'unknown', reason: 'timeout', stats: stats() });
  let deadlockChecked = false;
  let caveat: string | undefined;
  for (let round = 0; ; round++) {
    const q = withShadows(p, [...seen.shadows, ...refinements]);
    const theta = splitInvariant(q, range, opts.deadline);
    if (theta === 'timeout') return timeout();
    invariantSize = theta.size;
    states += theta.size;
    if (!deadlockChecked) {
      deadlockChecked = true;
      if (mayDeadlock(theta)) {
        // The split invariant is too weak to rule a deadlock out: a bounded global search
        // (at most DEADLOCK_SEARCH_STATES states, a tenth of the time left or a second) looks for one. Past its bound the property is still
        // decided for the runs with blocked threads' self-loops, and the output says so.
        const left = opts.deadline === undefined ? 60_000 : opts.deadline - performance.now();
        const d = findDeadlock(p, { nondetRange: range, deadline: performance.now() + Math.min(left / 10, DEADLOCK_SEARCH_MS), maxStates: DEADLOCK_SEARCH_STATES });
        if (typeof d === 'object' && 'run' in d) return { verdict: 'deadlock', run: d.run, stats: stats() };
        if (d !== 'none') caveat = `deadlock freedom is not established: the split invariant admits a state where no thread moves, and ${d.unknown}; a run that stays in such a state satisfies the property`;
      }
    }
    const letterOf = letters(theta, atoms, q.globals);
    let failed: { i: number; product: AbstractProduct; lasso: GraphLasso<AbstractEdge> } | undefined;
    for (let i = 0; i < q.threads.length && !failed; i++) {
      if (opts.deadline !== undefined && performance.now() > opts.deadline) return timeout();
      checks++;
      const product = abstractProduct(q, theta, i, prop, letterOf, range);
      states += product.view.length;
      const accepting = (n: number): boolean => prop.negated.accepting.has(product.q[n]);
      const others = (n: number, k: number): View[] => theta.threads[k].byG.get(product.view[n].gKey) ?? [];
      const reqs = [
        { edge: (from: number, e: AbstractEdge) => (e.thread === i || e.thread < 0) && accepting(from) },
        ...fairnessRequirements<AbstractEdge>(q.threads.length, prop.fairness, {
          idle: (n, k) => (k === i ? product.view[n].idle : others(n, k).some((w) => w.idle)),
          disabled: (n, k) => (k === i ? product.view[n].moves.length === 0 : others(n, k).some((w) => w.moves.length === 0)),
        }),
      ];
      const lasso = fairCycle(product, reqs);
      if (lasso) failed = { i, product, lasso };
    }
    if (!failed) {
      if (theta.clipped) return { verdict: 'unknown', reason: `no counterexample with nondeterministic values in ${range[0]}..${range[1]}, which the program does not bound itself`, stats: stats() };
      return { verdict: 'holds', stats: stats(), ...(caveat && { caveat }) };
    }
    const { i, product, lasso } = failed;
    const obstacles = mayTransitions(theta, product, lasso, i);
    if (!obstacles.length) {
      const concrete = concretize(p, q, theta, product, lasso, i, range);
      if (typeof concrete === 'string') return { verdict: 'unknown', reason: `internal: the abstract counterexample of ${p.threads[i].name} has must-transitions only, but ${concrete}`, stats: stats() };
      const bad = lassoFailure(p, prop, concrete, range);
      if (bad) return { verdict: 'unknown', reason: `the counterexample of ${p.threads[i].name}'s abstract process is not a run of the program (${bad})`, stats: stats() };
      return { verdict: 'fails', lasso: concrete, stats: stats() };
    }
    if (round >= maxRefinements) return { verdict: 'unknown', reason: `no proof or counterexample after ${maxRefinements} refinements`, stats: stats() };
    let added = 0;
    for (const { k, locals } of obstacles) {
      const th = q.threads[k];
      const pred = or(...locals.map((vals) => and(...th.locals.map((v, j) => eq(mkVar(v), num(vals[j]))))));
      if (refinements.some((r) => r.thread === k && r.value === pred)) continue;
      const name = `__b${refinements.length + 1}.${th.name}`;
      refinements.push({ name, thread: k, value: pred, bool: true });
      exposed.push(`${name} ≡ ${show(pred)}`);
      added++;
    }
    if (!added) return { verdict: 'unknown', reason: 'a refinement found no new predicate (the abstract counterexample stays)', stats: stats() };
    rounds++;
  }
}

/** Whether θ admits a state where no thread moves though one has not ended: every thread has a view at some g that cannot move, one of them not idle. */
function mayDeadlock(theta: SplitInvariant): boolean {
  for (const g of theta.shared.keys()) {
    const stuck = theta.threads.map((T) => (T.byG.get(g) ?? []).filter((w) => w.moves.length === 0));
    if (stuck.every((ws) => ws.length > 0) && stuck.some((ws) => ws.some((w) => !w.idle))) return true;
  }
  return false;
}

/** The atoms that hold at each shared valuation (the atoms read shared variables only). */
function letters(theta: SplitInvariant, atoms: readonly (readonly [string, Term])[], globals: readonly string[]): (gKey: string) => Set<string> {
  const layout = new Layout(globals);
  const compiled = atoms.map(([text, t]) => [text, compile(t, layout.slot)] as const);
  const cache = new Map<string, Set<string>>();
  return (g) => {
    let l = cache.get(g);
    if (!l) {
      const vals = theta.shared.get(g)!;
      cache.set(g, (l = new Set(compiled.filter(([, f]) => f(vals as bigint[]) === true).map(([text]) => text))));
    }
    return l;
  };
}

/** P̄[θ,i] (Definition 2) multiplied with the automaton of ¬φ. */
function abstractProduct(q: Program, theta: SplitInvariant, i: number, prop: LtlProperty, letterOf: (g: string) => Set<string>, range: readonly [bigint, bigint]): AbstractProduct {
  const A = prop.negated;
  const T = theta.threads[i];
  const width = theta.width;
  const ids = new Map<string, number>();
  const view: View[] = [];
  const qs: number[] = [];
  const out: AbstractEdge[][] = [];
  const node = (v: View, s: number): number => {
    const key = `${v.key}|${s}`;
    let n = ids.get(key);
    if (n === undefined) {
      n = view.length;
      ids.set(key, n);
      view.push(v);
      qs.push(s);
    }
    return n;
  };
  const initial: number[] = [];
  const all = new Layout([...q.vars.keys()]);
  for (const s of initialStates(q, all, range).states) {
    const v = T.byKey.get(T.layout.names.map((x) => s[all.index.get(x)!]).join(','))!;
    for (const s2 of automatonSteps(A, 0, letterOf(v.gKey))) {
      const n = node(v, s2);
      if (!initial.includes(n)) initial.push(n);
    }
  }
  /** Per other thread and shared valuation: the shared valuations its views there lead to. */
  const summary = (k: number, g: string): Set<string> => {
    const out = new Set<string>();
    for (const w of theta.threads[k].byG.get(g) ?? []) for (const g2 of w.nextG) out.add(g2);
    return out;
  };
  for (let n = 0; n < view.length; n++) {
    const v = view[n];
    const edges: AbstractEdge[] = [];
    const to = (v2: View, thread: number, move?: RealMove): void => {
      for (const s2 of automatonSteps(A, qs[n], letterOf(v2.gKey))) edges.push({ to: node(v2, s2), thread, move });
    };
    if (v.moves.length) for (const m of v.moves) to(T.byKey.get(m.next.join(','))!, i, m);
    else if (!v.idle) to(v, i);
    const local = v.vals.slice(width);
    theta.threads.forEach((_, k) => {
      if (k !== i) for (const g2 of summary(k, v.gKey)) to(T.byKey.get([...theta.shared.get(g2)!, ...local].join(','))!, k);
    });
    // Termination, if every other thread may have ended too: the state repeats.
    if (v.idle && theta.threads.every((U, k) => k === i || (U.byG.get(v.gKey) ?? []).some((w) => w.idle))) to(v, -1);
    out.push(edges);
  }
  return { initial, out, view, q: qs };
}

/** The lasso's steps of other threads that are not must-transitions, each with the obstacles p_k: the local states of θ_k at the source from which thread k cannot make the step. */
function mayTransitions(theta: SplitInvariant, product: AbstractProduct, lasso: GraphLasso<AbstractEdge>, i: number): { k: number; locals: (readonly bigint[])[] }[] {
  const out: { k: number; locals: (readonly bigint[])[] }[] = [];
  const paths = [lasso.stem, lasso.cycle];
  for (const path of paths)
    path.edges.forEach((e, m) => {
      if (e.thread === i) return;
      const g = product.view[path.nodes[m]].gKey;
      const g2 = product.view[e.to].gKey;
      // Termination is a must-transition when every other thread has ended in every view at g.
      const obstacles = (k: number): View[] => (theta.threads[k].byG.get(g) ?? []).filter((w) => (e.thread < 0 ? !w.idle : !w.nextG.has(g2)));
      for (const k of e.thread < 0 ? theta.threads.keys() : [e.thread]) {
        const blocked = k === i ? [] : obstacles(k);
        if (blocked.length) out.push({ k, locals: blocked.map((w) => w.vals.slice(theta.width)) });
      }
    });
  return out;
}

/**
 * Theorem 6: the global run along an abstract lasso of must-transitions. From an
 * initial state matching the lasso's first view, each abstract step of thread k is
 * made by a step of k (a must-transition has one from every local state θ_k allows);
 * the cycle is run again until the state at its start repeats, which closes the
 * global lasso. Returns the lasso over `p`'s variables, or why it could not be built.
 */
function concretize(p: Program, q: Program, theta: SplitInvariant, product: AbstractProduct, lasso: GraphLasso<AbstractEdge>, i: number, range: readonly [bigint, bigint]): ConcreteLasso | string {
  const { layout, threads } = globalMoves(q, range);
  const viewSlots = theta.threads[i].layout.names.map((v) => layout.index.get(v)!);
  const viewKey = (vals: readonly bigint[]): string => viewSlots.map((s) => vals[s]).join(',');
  const start = initialStates(q, layout, range).states.find((s) => viewKey(s) === product.view[lasso.stem.nodes[0]].key);
  if (!start) return 'no initial state matches it';
  const original = new Map(p.threads.flatMap((th) => th.transitions.map((t) => [t.id, t] as const)));
  const states: bigint[][] = [start];
  const steps: RunStep[] = [];
  const follow = (e: AbstractEdge): boolean => {
    const cur = states[states.length - 1];
    const want = product.view[e.to].key;
    const ms = e.thread < 0 ? [] : threads[e.thread].real(cur);
    const waits = e.thread < 0 ? threads.every((m) => m.idle(cur)) : !threads[e.thread].idle(cur);
    const next = ms.length ? ms.find((m) => viewKey(m.next) === want) : waits && viewKey(cur) === want ? { t: undefined, next: cur, aux: [] } : undefined;
    if (!next) return false;
    const t: Transition | undefined = next.t && original.get(next.t.id);
    states.push(next.next);
    steps.push({ thread: e.thread, transition: t, aux: new Map(t ? t.aux.map((a, j) => [a, next.aux[j]] as const) : []) });
    return true;
  };
  for (const e of lasso.stem.edges) if (!follow(e)) return 'a stem step has no concrete counterpart';
  const starts = new Map<string, number>();
  const MAX_STEPS = 1_000_000;
  while (steps.length < MAX_STEPS) {
    const key = states[states.length - 1].join(',');
    const at = starts.get(key);
    if (at !== undefined) {
      const vars = [...p.vars.keys()];
      const asMap = (vals: readonly bigint[]): Map<string, bigint> => new Map(vars.map((v) => [v, vals[layout.index.get(v)!]]));
      return { states: states.map(asMap), steps, loopAt: at };
    }
    starts.set(key, states.length - 1);
    for (const e of lasso.cycle.edges) if (!follow(e)) return 'a cycle step has no concrete counterpart';
  }
  return `its global run did not repeat within ${MAX_STEPS} steps`;
}

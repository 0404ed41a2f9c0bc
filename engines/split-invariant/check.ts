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
import { and, eq, mkVar, num, or, rename, show, varsOf, type Term } from '../../solver/formula.js';
import type { Program } from '../../program/program.js';
import { compile } from '../../core/compile.js';
import { Budget, ranOut } from '../../core/budget.js';
import { automatonSteps, type LtlProperty } from '../../core/property.js';
import { fairCycle, type Edge, type Fairness, type GraphLasso, type Requirement } from '../../core/fair-cycles.js';
import type { ConcreteLasso, LivenessOutcome, RunStep } from '../../core/lasso.js';
import { DEFAULT_NONDET_RANGE, Layout, ProductNodes, findDeadlock, findSymmetry, globalMoves, initialStates, lassoFailure, type RealMove, type Symmetry } from '../state-space/api.js';
import { exposeLocals, withShadows, type Shadow } from './expose.js';
import { Frames } from './frames.js';
import { macroMoves, usesNext } from './macro-steps.js';
import { inFrame, nextShared, splitInvariant, viewsAt, type SplitInvariant, type View } from './invariant.js';

export interface SplitOptions {
  readonly nondetRange?: readonly [bigint, bigint];
  /** Checked per step: past its deadline or memory limit the check stops (UNKNOWN); Cancelled from it is thrown on. */
  readonly budget?: Budget;
  readonly maxRefinements?: number;
}

export interface SplitStats {
  readonly timeMs: number;
  /** Σ_k |θ_k| plus the abstract products' states, over all rounds. */
  readonly states: number;
  /** Σ_k |θ_k| of the last round. */
  readonly invariantSize: number;
  readonly refinements: number;
  /** The local predicates exposed by the refinements, each as a shared boolean per instance it is about. */
  readonly exposed: readonly string[];
  /** The shared booleans they added (Table 2's "new variables"). */
  readonly newVariables: number;
  /** Abstract processes checked (over all rounds). */
  readonly checks: number;
  /** The classes of identical instances whose views one representative's stand for (last round), e.g. `P#2..P#9 (8) by P#2`. */
  readonly symmetry: readonly string[];
}

const DEFAULT_MAX_REFINEMENTS = 20;
/** The bound of the global search for a deadlock the split invariant does not rule out. */
const DEADLOCK_SEARCH_STATES = 20_000;
const DEADLOCK_SEARCH_MS = 1000;

/** An abstract step: thread i's own (exact: `move`, or its self-loop) or another's shared update (to `g2`, in the source's frame), made for its group (frames.ts). */
interface AbstractEdge extends Edge {
  readonly move?: RealMove;
  readonly group?: string;
  readonly g2?: string;
}

/** What a node says of a group of other threads: some instance may have ended, or may be blocked. */
interface GroupAt {
  readonly idle: boolean;
  readonly disabled: boolean;
}

/** P̄[θ,i] × A: nodes (view of i, automaton state), and per node the groups of other threads present. */
interface AbstractProduct {
  readonly initial: number[];
  readonly out: AbstractEdge[][];
  readonly view: View[];
  readonly q: number[];
  readonly groups: Map<string, GroupAt>[];
}

export function checkLivenessSplit(p: Program, prop: LtlProperty, opts: SplitOptions = {}): LivenessOutcome<SplitStats> {
  const c = new SplitCheck(p, prop, opts);
  try {
    for (let round = 0; ; round++) {
      const r = c.round(round);
      if (r) return r;
    }
  } catch (e) {
    return { verdict: 'unknown', reason: ranOut(e).message, stats: c.stats() };
  }
}

type Outcome = LivenessOutcome<SplitStats>;

/** A failing abstract process: thread i's, its product with the automaton, and the lasso found in it. */
interface Failed {
  readonly i: number;
  readonly product: AbstractProduct;
  readonly lasso: GraphLasso<AbstractEdge>;
}

/** One run of checkLivenessSplit: the refinements so far and the statistics, round by round. */
class SplitCheck {
  private readonly t0 = performance.now();
  private readonly budget: Budget;
  private readonly range: readonly [bigint, bigint];
  private readonly maxRefinements: number;
  /** The property's shared shadows of the locals its atoms read, and the atoms over them. */
  private readonly seen: ReturnType<typeof exposeLocals>;
  private readonly atoms: (readonly [string, Term])[];
  private readonly refinements: Shadow[] = [];
  /** Per thread, the booleans exposed of its locals, which its invisible steps may set (macro-steps.ts); null: X counts steps, nothing is merged. */
  private readonly hidden: ((k: number) => ReadonlySet<string>) | null;
  /** The exposed predicates, by representative (over its locals). */
  private readonly predicates = new Map<number, Term[]>();
  private readonly exposed: string[] = [];
  private rounds = 0;
  private states = 0;
  private checks = 0;
  private invariantSize = 0;
  private symmetry: string[] = [];

  constructor(
    private readonly p: Program,
    private readonly prop: LtlProperty,
    opts: SplitOptions,
  ) {
    this.budget = opts.budget ?? new Budget();
    this.range = opts.nondetRange ?? DEFAULT_NONDET_RANGE;
    this.maxRefinements = opts.maxRefinements ?? DEFAULT_MAX_REFINEMENTS;
    const texts = [...prop.atoms.keys()];
    this.seen = exposeLocals(p, [...prop.atoms.values()], (t) => varsOf(t));
    this.atoms = texts.map((text, k) => [text, this.seen.terms[k]] as const);
    this.hidden = usesNext(prop.formula) ? null : (k: number): ReadonlySet<string> => new Set(this.refinements.filter((r) => r.thread === k).map((r) => r.name));
  }

  /** Round `round`: θ of the program with the refinements so far, every abstract process checked; an outcome, or undefined after a refinement. */
  round(round: number): Outcome | undefined {
    const { p, range } = this;
    const q = withShadows(p, [...this.seen.shadows, ...this.refinements]);
    const frames = new Frames(q, symmetryFor(q, this.atoms.map(([, t]) => t)));
    this.symmetry = frames.describe(q);
    const theta = splitInvariant(q, frames, this.hidden, range, this.budget);
    this.invariantSize = theta.size;
    this.states += theta.size;
    const failed = this.failing(q, theta, frames);
    if (!failed) {
      if (theta.clipped) return this.deadlockOr(theta, q, { verdict: 'unknown', reason: `no counterexample with nondeterministic values in ${range[0]}..${range[1]}, which the program does not bound itself`, stats: this.stats() });
      return this.deadlockOr(theta, q, { verdict: 'holds', stats: this.stats() });
    }
    const { i, product, lasso } = failed;
    const obstacles = mayTransitions(q, theta, product, lasso, i);
    if (!obstacles.length) return this.deadlockOr(theta, q, this.counterexample(q, theta, failed));
    if (round >= this.maxRefinements) return this.deadlockOr(theta, q, { verdict: 'unknown', reason: `no proof or counterexample after ${this.maxRefinements} refinements`, stats: this.stats() });
    if (!this.refine(q, theta, frames, obstacles)) return this.deadlockOr(theta, q, { verdict: 'unknown', reason: 'a refinement found no new predicate (the abstract counterexample stays)', stats: this.stats() });
    this.rounds++;
    return undefined;
  }

  stats(): SplitStats {
    const { states, invariantSize, exposed, checks, symmetry } = this;
    return { timeMs: performance.now() - this.t0, states, invariantSize, refinements: this.rounds, exposed, newVariables: this.refinements.length, checks, symmetry };
  }

  /** The first representative whose abstract process P̄[θ,i] × A has a fair accepting lasso (Theorem 4), if any. */
  private failing(q: Program, theta: SplitInvariant, frames: Frames): Failed | undefined {
    const { prop } = this;
    const letterOf = letters(theta, this.atoms, q.globals);
    for (const i of frames.reps) {
      this.budget.check();
      this.checks++;
      const product = abstractProduct(q, theta, i, prop, letterOf, this.range);
      this.states += product.view.length;
      const accepting = (n: number): boolean => prop.negated.accepting.has(product.q[n]);
      const reqs = [{ edge: (from: number, e: AbstractEdge) => (e.thread === i || e.thread < 0) && accepting(from) }, ...fairness(product, i, prop.fairness)];
      const lasso = fairCycle(product, reqs);
      if (lasso) return { i, product, lasso };
    }
    return undefined;
  }

  /** An abstract lasso of must-transitions only, as the program's lasso (Theorem 6), replayed. */
  private counterexample(q: Program, theta: SplitInvariant, { i, product, lasso }: Failed): Outcome {
    const { p, range } = this;
    const concrete = concretize(p, q, theta, product, lasso, i, range, this.hidden);
    if (typeof concrete === 'string') return { verdict: 'unknown', reason: `internal: the abstract counterexample of ${p.threads[i].name} has must-transitions only, but ${concrete}`, stats: this.stats() };
    const bad = lassoFailure(p, this.prop, concrete, range);
    if (bad) return { verdict: 'unknown', reason: `the counterexample of ${p.threads[i].name}'s abstract process is not a run of the program (${bad})`, stats: this.stats() };
    return { verdict: 'fails', lasso: concrete, stats: this.stats() };
  }

  /** Each obstacle that tells something new exposed as shared booleans; the number exposed. */
  private refine(q: Program, theta: SplitInvariant, frames: Frames, obstacles: readonly Obstacle[]): number {
    let added = 0;
    for (const { k, locals, universe } of obstacles) {
      // The obstacle p_k over the representative's locals, exposed for every instance it stands for (one boolean each), so the program stays symmetric.
      const th = q.threads[k];
      const pred = obstaclePredicate(th.locals, th.locals.indexOf(th.pc), locals, universe);
      if (exposesNothing(theta, k, pred, this.predicates.get(k) ?? [])) continue;
      this.predicates.set(k, [...(this.predicates.get(k) ?? []), pred]);
      const n = this.exposed.length + 1;
      const instances = frames.instanceLocals(k, th.locals);
      for (const { thread, locals: names } of instances) {
        const value = rename(pred, (v) => names[th.locals.indexOf(v)] ?? v);
        this.refinements.push({ name: `__b${n}.${q.threads[thread].name}`, thread, value, bool: true });
      }
      const who = instances.length > 1 ? `each of ${th.name}..${q.threads[instances[instances.length - 1].thread].name} (${instances.length} instances)` : th.name;
      this.exposed.push(`__b${n} ≡ ${show(pred)} (for ${who})`);
      added++;
    }
    return added;
  }

  /**
   * Before a verdict: a deadlock θ does not rule out is looked for by a bounded global
   * search (at most DEADLOCK_SEARCH_STATES states, a tenth of the time left or a
   * second); one found is the answer. Past the bound a lasso is still a counterexample,
   * and a proof still decides the runs with blocked threads' self-loops, which the output
   * says. θ of the last round is the most precise: often the refinements rule it out.
   */
  private deadlockOr(theta: SplitInvariant, q: Program, verdict: Outcome): Outcome {
    if (!mayDeadlock(theta, q.threads.length)) return verdict;
    const { deadline } = this.budget;
    const left = deadline === undefined ? 60_000 : deadline - performance.now();
    const d = findDeadlock(this.p, { nondetRange: this.range, budget: this.budget.within(performance.now() + Math.min(left / 10, DEADLOCK_SEARCH_MS)), maxStates: DEADLOCK_SEARCH_STATES });
    if (typeof d === 'object' && 'run' in d) return { verdict: 'deadlock', run: d.run, stats: this.stats() };
    if (d === 'none' || verdict.verdict !== 'holds') return verdict;
    return { ...verdict, caveat: `deadlock freedom is not established: the split invariant admits a state where no thread moves, and ${d.unknown}; a run that stays in such a state satisfies the property` };
  }
}

/**
 * The symmetry the split invariant may use: identical instances whose permutations map
 * `q` onto itself and leave the property's atoms alone (they read no instance's ghost
 * variables and no thread identities).
 */
function symmetryFor(q: Program, atoms: readonly Term[]): Symmetry | null {
  const sym = findSymmetry(q);
  if (!sym) return null;
  const moved = new Set([...sym.idVars, ...sym.classes.flatMap((c) => c.vars.flatMap((vs) => vs))]);
  return atoms.some((t) => [...varsOf(t)].some((v) => moved.has(v))) ? null : sym;
}

/** Whether `pred` tells nothing new of thread k's local states in θ: it is constant on them, or it or its negation is an exposed predicate there. */
function exposesNothing(theta: SplitInvariant, k: number, pred: Term, known: readonly Term[]): boolean {
  const T = theta.threads.get(k)!;
  const locals = new Map([...T.byKey.values()].map((w) => [w.key.slice(w.gKey.length), w.vals] as const));
  const bits = (t: Term): string => {
    const f = compile(t, T.layout.slot);
    return [...locals.values()].map((vals) => (f(vals as bigint[]) === true ? '1' : '0')).join('');
  };
  const mine = bits(pred);
  const negated = [...mine].map((b) => (b === '1' ? '0' : '1')).join('');
  return !mine.includes('0') || !mine.includes('1') || known.some((t) => [mine, negated].includes(bits(t)));
}

/** Whether θ admits a state where no thread moves though one has not ended: every thread has a view at some g that cannot move, one of them not idle. */
function mayDeadlock(theta: SplitInvariant, threads: number): boolean {
  for (const g of theta.shared.values()) {
    const stuck = theta.frames.actors(null, g, threads).map((a) => viewsAt(theta, a.thread, g).views.filter((w) => w.moves.length === 0));
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

/** P̄[θ,i] (Definition 2) multiplied with the automaton of ¬φ; the other threads act by groups (frames.ts). */
function abstractProduct(q: Program, theta: SplitInvariant, i: number, prop: LtlProperty, letterOf: (g: string) => Set<string>, range: readonly [bigint, bigint]): AbstractProduct {
  const A = prop.negated;
  const T = theta.threads.get(i)!;
  const { width, frames } = theta;
  const nodes = new ProductNodes<View, string>((v, s) => `${v.key}|${s}`);
  const out: AbstractEdge[][] = [];
  const groups: Map<string, GroupAt>[] = [];
  const viewOf = (vals: readonly bigint[]): View => T.byKey.get(inFrame(frames, i, vals, width).join(','))!;
  /** i's view with shared values g2 (a key, in the frame of the view it leaves) and locals `local`: g2's frame is kept per g2. */
  const framed = new Map<string, string>();
  const viewAfter = (g2: readonly bigint[], key: string, local: readonly bigint[]): View => {
    let gk = framed.get(key);
    if (gk === undefined) framed.set(key, (gk = frames.canon(i, g2).g.join(',')));
    return T.byKey.get(local.length ? `${gk},${local.join(',')}` : gk)!;
  };
  const initial: number[] = [];
  const all = new Layout([...q.vars.keys()]);
  for (const s of initialStates(q, all, range).states) {
    const v = viewOf(T.layout.names.map((x) => s[all.index.get(x)!]));
    for (const s2 of automatonSteps(A, 0, letterOf(v.gKey))) {
      const n = nodes.node(v, s2);
      if (!initial.includes(n)) initial.push(n);
    }
  }
  for (let n = 0; n < nodes.size; n++) {
    const v = nodes.state[n];
    const g = theta.shared.get(v.gKey)!;
    const edges: AbstractEdge[] = [];
    const to = (v2: View, e: Omit<AbstractEdge, 'to'>): void => {
      for (const s2 of automatonSteps(A, nodes.q[n], letterOf(v2.gKey))) edges.push({ ...e, to: nodes.node(v2, s2) });
    };
    if (v.moves.length) for (const m of v.moves) to(viewOf(m.next), { thread: i, move: m });
    else if (!v.idle) to(v, { thread: i });
    const local = v.vals.slice(width);
    const here = new Map<string, GroupAt>();
    let othersMayEnd = true;
    for (const a of frames.actors(i, g, q.threads.length)) {
      const { views, perm } = viewsAt(theta, a.thread, g);
      here.set(a.group, { idle: views.some((w) => w.idle), disabled: views.some((w) => w.moves.length === 0) });
      othersMayEnd &&= views.some((w) => w.idle);
      const seen = new Set<string>();
      for (const w of views)
        for (const g2 of nextShared(theta, w, perm)) {
          const key = g2.join(',');
          if (!seen.has(key)) (seen.add(key), to(viewAfter(g2, key, local), { thread: a.thread, group: a.group, g2: key }));
        }
    }
    // Termination, if every other thread may have ended too: the state repeats.
    if (v.idle && othersMayEnd) to(v, { thread: -1 });
    out.push(edges);
    groups.push(here);
  }
  return { initial, out, view: nodes.state, q: nodes.q, groups };
}

/**
 * What a fair run of P̄[θ,i] sees infinitely often (§3.6: fairness carried over to the
 * abstract processes by the index of the moving thread). For thread i and every thread
 * outside the classes: its step, or a node where it may have ended (unconditional) or
 * may be blocked (weak). For instances grouped by their ghost values a thread's index is
 * not kept, so each group asks for less: a step of the group, a node where no instance
 * is in it, or one where an instance in it may have ended or be blocked. Every fair run
 * of the program meets that (an instance leaves its group only by a step of its own), so
 * no counterexample is lost; a lasso that is fair only for the groups is replayed and
 * its fairness checked thread by thread.
 */
function fairness(product: AbstractProduct, i: number, kind: Fairness): Requirement<AbstractEdge>[] {
  if (kind === 'none') return [];
  const excused = (at: GroupAt | undefined): boolean => !at || at.idle || (kind === 'weak' && at.disabled);
  const own: Requirement<AbstractEdge> = {
    edge: (_from, e) => e.thread === i,
    node: (n) => product.view[n].idle || (kind === 'weak' && product.view[n].moves.length === 0),
  };
  const names = new Set(product.groups.flatMap((m) => [...m.keys()]));
  return [own, ...[...names].map((name): Requirement<AbstractEdge> => ({ edge: (_from, e) => e.group === name, node: (n) => excused(product.groups[n].get(name)) }))];
}

/**
 * The lasso's steps of other threads that are not must-transitions, each with its
 * obstacle p_k (§4): the local states of thread k (of its representative, whose views
 * stand for k's) from which k cannot make the step at the source's shared values. §4
 * takes the local states θ_k allows there; p_k here is the same test over every local
 * state θ_k has anywhere, which agrees with §4's where θ_k holds (so it is as new) and
 * does not depend on which states the lasso met: one bit such as "waiting at J1"
 * instead of a set that varies with the shared state.
 */
function mayTransitions(q: Program, theta: SplitInvariant, product: AbstractProduct, lasso: GraphLasso<AbstractEdge>, i: number): Obstacle[] {
  const out: Obstacle[] = [];
  const { frames, width } = theta;
  for (const path of [lasso.stem, lasso.cycle])
    path.edges.forEach((e, m) => {
      if (e.thread === i) return;
      const g = theta.shared.get(product.view[path.nodes[m]].gKey)!;
      // Termination is a must-transition when every other thread has ended in every view at g.
      const actors = e.thread < 0 ? frames.actors(i, g, q.threads.length).map((a) => a.thread) : [e.thread];
      for (const k of actors) {
        const { views, perm } = viewsAt(theta, k, g);
        const makes = (w: View): boolean => (e.thread < 0 ? w.idle : nextShared(theta, w, perm).some((g2) => g2.join(',') === e.g2));
        if (views.every(makes)) continue;
        const T = theta.threads.get(frames.rep(k))!;
        const gk = frames.apply(g, perm);
        const target = e.g2 === undefined ? undefined : frames.apply(e.g2.split(',').map(BigInt), perm).join(',');
        const locals = new Map([...T.byKey.values()].map((w) => [w.vals.slice(width).join(','), w.vals.slice(width)] as const));
        const blocked = [...locals.values()].filter((l) => {
          const vals = [...gk, ...l];
          const moves = T.moves.real(vals);
          if (e.thread < 0) return !T.moves.idle(vals);
          const next = moves.length ? moves.map((mv) => mv.next.slice(0, width).join(',')) : T.moves.idle(vals) ? [] : [gk.join(',')];
          return !next.includes(target!);
        });
        out.push({ k: frames.rep(k), locals: blocked, universe: [...locals.values()] });
      }
    });
  return out;
}

/** An obstacle p_k: the local states of (representative) thread k in `locals`, out of those θ_k has, `universe`. */
interface Obstacle {
  readonly k: number;
  readonly locals: readonly (readonly bigint[])[];
  readonly universe: readonly (readonly bigint[])[];
}

/**
 * p_k as a predicate over the fewest of the thread's locals that tell its states in
 * `universe` apart (its location alone, most often): "waiting at J1", not a list of
 * every value a scratch variable may hold there.
 */
function obstaclePredicate(names: readonly string[], pc: number, locals: readonly (readonly bigint[])[], universe: readonly (readonly bigint[])[]): Term {
  const inside = new Set(locals.map((l) => l.join(',')));
  const project = (l: readonly bigint[], cols: readonly number[]): string => cols.map((c) => l[c]).join(',');
  const determines = (cols: readonly number[]): boolean => {
    const verdict = new Map<string, boolean>();
    return universe.every((l) => {
      const key = project(l, cols);
      const yes = inside.has(l.join(','));
      return verdict.get(key) === undefined ? (verdict.set(key, yes), true) : verdict.get(key) === yes;
    });
  };
  const all = [...names.keys()];
  const candidates = [[pc], ...all.filter((j) => j !== pc).map((j) => [pc, j]), all];
  const cols = candidates.find(determines) ?? all;
  const picked = new Map(locals.map((l) => [project(l, cols), l] as const));
  return or(...[...picked.values()].map((l) => and(...cols.map((c) => eq(mkVar(names[c]), num(l[c]))))));
}

/**
 * Theorem 6: the global run along an abstract lasso of must-transitions. From an
 * initial state matching the lasso's first view, each abstract step of thread k is
 * made by a step of k (a must-transition has one from every local state θ_k allows);
 * a step of a group is made by the instance in it that moved least recently, so that
 * running the cycle again lets each take its turn. The cycle is run until the state at
 * its start (with that order) repeats, which closes the global lasso. Returns the lasso
 * over `p`'s variables, or why it could not be built.
 */
function concretize(p: Program, q: Program, theta: SplitInvariant, product: AbstractProduct, lasso: GraphLasso<AbstractEdge>, i: number, range: readonly [bigint, bigint], hidden: ((k: number) => ReadonlySet<string>) | null): ConcreteLasso | string {
  const { frames, width } = theta;
  const { layout, threads: raw } = globalMoves(q, range);
  const threads = raw.map((m, k) => macroMoves(q, q.threads[k], m, layout.index.get(q.threads[k].pc)!, hidden && hidden(k)));
  const viewSlots = theta.threads.get(i)!.layout.names.map((v) => layout.index.get(v)!);
  const viewKey = (vals: readonly bigint[]): string => inFrame(frames, i, viewSlots.map((s) => vals[s]), width).join(',');
  const shared = (vals: readonly bigint[]): bigint[] => q.globals.map((_, k) => vals[viewSlots[k]]);
  const start = initialStates(q, layout, range).states.find((s) => viewKey(s) === product.view[lasso.stem.nodes[0]].key);
  if (!start) return 'no initial state matches it';
  const original = new Map(p.threads.flatMap((th) => th.transitions.map((t) => [t.id, t] as const)));
  const states: bigint[][] = [start];
  const steps: RunStep[] = [];
  const last = new Map<number, number>();
  const follow = (e: AbstractEdge): boolean => {
    const cur = states[states.length - 1];
    const want = product.view[e.to].key;
    let candidates = [e.thread];
    if (e.thread >= 0 && e.thread !== i) {
      // The edge's thread is named in the frame of the canonical view; the actual instances of its group.
      const g = shared(cur);
      const { perm } = frames.canon(i, g);
      const actual = frames.moved(e.thread, frames.inverse(perm));
      candidates = frames.peers(i, g, actual).sort((a, b) => (last.get(a) ?? -1) - (last.get(b) ?? -1) || a - b);
    }
    for (const k of candidates) {
      const ms = k < 0 ? [] : threads[k].real(cur);
      const waits = k < 0 ? threads.every((m) => m.idle(cur)) : !threads[k].idle(cur);
      const next = ms.length ? ms.find((m) => viewKey(m.next) === want) : waits && viewKey(cur) === want ? { path: [] } : undefined;
      if (!next) continue;
      if (!next.path.length) (states.push(cur), steps.push({ thread: k, aux: new Map() }));
      for (const m of next.path) {
        const t = original.get(m.t.id)!;
        states.push(m.next);
        steps.push({ thread: k, transition: t, aux: new Map(t.aux.map((a, j) => [a, m.aux[j]] as const)) });
      }
      last.set(k, steps.length);
      return true;
    }
    return false;
  };
  for (const e of lasso.stem.edges) if (!follow(e)) return 'a stem step has no concrete counterpart';
  const starts = new Map<string, number>();
  const MAX_STEPS = 1_000_000;
  while (steps.length < MAX_STEPS) {
    const order = frames.symmetric ? [...threads.keys()].sort((a, b) => (last.get(a) ?? -1) - (last.get(b) ?? -1) || a - b).join(',') : '';
    const key = `${states[states.length - 1].join(',')}|${order}`;
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

/**
 * Liveness by global model checking: the product of all threads (every
 * interleaving, moves.ts) with the Büchi automaton of the negated property, explored
 * breadth-first, then fair accepting cycles by strongly connected components
 * (core/fair-cycles.ts). The baseline the split engine is measured against, and its
 * oracle in the differential test. A reachable deadlock is reported first, with its
 * run: the property's runs are infinite only under the paper's deadlock-freedom
 * assumption, which is then checked rather than assumed.
 */
import type { Program } from '../../program/program.js';
import { compile, type Compiled } from '../../core/compile.js';
import type { Buchi } from '../../core/buchi.js';
import { automatonSteps, type LtlProperty } from '../../core/property.js';
import { fairCycle, fairnessRequirements, shortestPath, type Edge, type Path } from '../../core/fair-cycles.js';
import type { ConcreteLasso, LivenessOutcome, RunStep, StepRun } from '../../core/lasso.js';
import { DEFAULT_MAX_STATES, DEFAULT_NONDET_RANGE, explore } from './explore.js';
import { findSymmetry } from './symmetry.js';
import { deadlocked, globalMoves, type RealMove, type ThreadMoves } from './moves.js';
import { initialStates, type Layout } from './steps.js';
import { ProductNodes } from './product-nodes.js';
import { deadlockFailure, lassoFailure } from './lasso.js';
import { ranOut, type Budget } from '../../core/budget.js';

export interface LivenessOptions {
  readonly nondetRange?: readonly [bigint, bigint];
  readonly maxStates?: number;
  /** Ticked per state: past its deadline or memory limit the check stops (UNKNOWN); Cancelled from it is thrown on. */
  readonly budget?: Budget;
}

export interface GlobalLivenessStats {
  readonly timeMs: number;
  /** Product states (program state, automaton state). */
  readonly states: number;
  /** Program states. */
  readonly programStates: number;
  readonly automatonStates: number;
}

/** An edge of the program's graph or of the product: the thread's move (undefined: its self-loop, or thread -1's repetition of a final state). */
interface ProductEdge extends Edge {
  readonly move?: RealMove;
}

/** The product of the program with the automaton of ¬φ, and its fair accepting cycles. */
export function checkLivenessGlobal(p: Program, prop: LtlProperty, opts: LivenessOptions = {}): LivenessOutcome<GlobalLivenessStats> {
  const c = new GlobalLiveness(p, prop, opts);
  try {
    return c.programGraph() ?? c.product() ?? c.verdict();
  } catch (e) {
    return { verdict: 'unknown', reason: ranOut(e).message, stats: c.stats() };
  }
}

type Outcome = LivenessOutcome<GlobalLivenessStats>;

/** One check of checkLivenessGlobal, step by step: the program's graph, the product, its fair accepting cycle. */
class GlobalLiveness {
  private readonly t0 = performance.now();
  private readonly range: readonly [bigint, bigint];
  private readonly maxStates: number;
  private readonly layout: Layout;
  private readonly threads: readonly ThreadMoves[];
  private readonly atoms: (readonly [string, Compiled])[];
  private readonly A: Buchi;
  private clipped = false;

  // Program states.
  private readonly values: bigint[][] = [];
  private readonly letters: Set<string>[] = [];
  private readonly stateId = new Map<string, number>();
  /** Per program state: the moves of each thread (an empty list: its self-loop). */
  private readonly movesOf: RealMove[][][] = [];
  private readonly idle: boolean[][] = [];
  private readonly progOut: ProductEdge[][] = [];
  private roots: number[] = [];

  /** Product nodes: (program state, automaton state). */
  private readonly nodes: ProductNodes<number, number>;
  private readonly out: ProductEdge[][] = [];
  private readonly initial: number[] = [];

  constructor(
    private readonly p: Program,
    private readonly prop: LtlProperty,
    private readonly opts: LivenessOptions,
  ) {
    this.range = opts.nondetRange ?? DEFAULT_NONDET_RANGE;
    this.maxStates = opts.maxStates ?? DEFAULT_MAX_STATES;
    ({ layout: this.layout, threads: this.threads } = globalMoves(p, this.range));
    this.atoms = [...prop.atoms].map(([text, term]) => [text, compile(term, this.layout.slot)] as const);
    this.A = prop.negated;
    this.nodes = new ProductNodes((s, q) => s * this.A.size + q);
  }

  /**
   * The program's own graph first: every reachable state is checked for a deadlock,
   * whatever the automaton does (it may reject a prefix the program still runs on).
   * An outcome if a deadlock or the state limit ends the check; the budget throws.
   */
  programGraph(): Outcome | undefined {
    const { threads, values, movesOf, idle } = this;
    const init = initialStates(this.p, this.layout, this.range);
    this.clipped = init.clipped;
    this.roots = [...new Set(init.states.map((v) => this.stateOf(v)))];
    for (let s = 0; s < values.length; s++) {
      this.opts.budget?.tick();
      if (values.length > this.maxStates) return { verdict: 'unknown', reason: `state limit: more than ${this.maxStates} program states`, stats: this.stats() };
      movesOf[s] = threads.map((m) => m.real(values[s]));
      idle[s] = threads.map((m) => m.idle(values[s]));
      const edges: ProductEdge[] = [];
      movesOf[s].forEach((ms, k) => {
        for (const m of ms) edges.push({ to: this.stateOf(m.next), thread: k, move: m });
        if (!ms.length && !idle[s][k]) edges.push({ to: s, thread: k }); // blocked: its self-loop
      });
      if (idle[s].every(Boolean)) edges.push({ to: s, thread: -1 }); // terminated: the last state repeats
      this.progOut.push(edges);
      if (deadlocked(threads, values[s])) return this.deadlock(s);
    }
    return undefined;
  }

  /** The product of the program's graph with the automaton; an outcome if the state limit ends it; the budget throws. */
  product(): Outcome | undefined {
    const { A, nodes } = this;
    for (const s of this.roots) for (const q of automatonSteps(A, 0, this.letters[s])) if (!this.initial.includes(nodes.node(s, q))) this.initial.push(nodes.node(s, q));
    for (let n = 0; n < nodes.size; n++) {
      this.opts.budget?.tick();
      if (nodes.size > this.maxStates) return { verdict: 'unknown', reason: `state limit: more than ${this.maxStates} product states`, stats: this.stats() };
      this.out.push(this.progOut[nodes.state[n]].flatMap((e) => automatonSteps(A, nodes.q[n], this.letters[e.to]).map((q2) => ({ ...e, to: nodes.node(e.to, q2) }))));
    }
    return undefined;
  }

  /** A fair accepting cycle of the product, as a lasso replayed on the program; none: the property holds. */
  verdict(): Outcome {
    const { p, prop, range, nodes } = this;
    this.clipped ||= this.threads.some((m) => m.clipped);
    const reqs = [
      { node: (n: number) => this.A.accepting.has(nodes.q[n]) },
      ...fairnessRequirements<ProductEdge>(p.threads.length, prop.fairness, {
        idle: (n, k) => this.idle[nodes.state[n]][k],
        disabled: (n, k) => this.movesOf[nodes.state[n]][k].length === 0,
      }),
    ];
    const found = fairCycle({ initial: this.initial, out: this.out }, reqs);
    if (!found) {
      if (this.clipped) return { verdict: 'unknown', reason: `no counterexample with nondeterministic values in ${range[0]}..${range[1]}, which the program does not bound itself`, stats: this.stats() };
      return { verdict: 'holds', stats: this.stats() };
    }
    const run = concreteRun(this.layout.names, this.values, (n) => nodes.state[n], { nodes: [...found.stem.nodes, ...found.cycle.nodes.slice(1)], edges: [...found.stem.edges, ...found.cycle.edges] });
    const lasso: ConcreteLasso = { ...run, loopAt: found.stem.edges.length };
    const bad = lassoFailure(p, prop, lasso, range);
    if (bad) return { verdict: 'unknown', reason: `internal: the lasso does not replay (${bad})`, stats: this.stats() };
    return { verdict: 'fails', lasso, stats: this.stats() };
  }

  stats(): GlobalLivenessStats {
    return { timeMs: performance.now() - this.t0, states: this.nodes.size, programStates: this.values.length, automatonStates: this.A.size };
  }

  private stateOf(vals: bigint[]): number {
    const key = vals.join(',');
    let id = this.stateId.get(key);
    if (id === undefined) {
      id = this.values.length;
      this.stateId.set(key, id);
      this.values.push(vals);
      this.letters.push(new Set(this.atoms.filter(([, f]) => f(vals) === true).map(([t]) => t)));
    }
    return id;
  }

  /** The run to the deadlocked state s, replayed. */
  private deadlock(s: number): Outcome {
    const { roots } = this;
    const path = shortestPath({ initial: roots, out: this.progOut }, roots, (x) => x === s)!;
    const run = concreteRun(this.layout.names, this.values, (x) => x, path);
    const bad = deadlockFailure(this.p, run, this.range);
    if (bad) return { verdict: 'unknown', reason: `internal: the deadlock run does not replay (${bad})`, stats: this.stats() };
    return { verdict: 'deadlock', run, stats: this.stats() };
  }
}

/** The program's run along a path of the product. */
function concreteRun(names: readonly string[], values: readonly bigint[][], stateOfNode: (n: number) => number, path: Path<ProductEdge>): StepRun {
  const state = (n: number): Map<string, bigint> => new Map(names.map((v, i) => [v, values[stateOfNode(n)][i]]));
  const steps: RunStep[] = path.edges.map((e) => ({
    thread: e.thread,
    transition: e.move?.t,
    aux: new Map(e.move ? e.move.t.aux.map((a, i) => [a, e.move!.aux[i]] as const) : []),
  }));
  return { states: path.nodes.map(state), steps };
}

/**
 * A reachable deadlock of `p`, searched over the product of all threads up to the
 * symmetry of identical instances (symmetry.ts): the check behind the split engine's
 * deadlock-freedom assumption when its split invariant cannot rule a deadlock out.
 * 'none' only after an exhaustive search; 'unknown' with the reason otherwise.
 */
export function findDeadlock(p: Program, opts: LivenessOptions = {}): { run: StepRun } | 'none' | { unknown: string } {
  const range = opts.nondetRange ?? DEFAULT_NONDET_RANGE;
  const { threads } = globalMoves(p, range);
  const r = explore(p, { nondetRange: range, maxStates: opts.maxStates, budget: opts.budget, symmetry: findSymmetry(p), target: (vals) => deadlocked(threads, vals) });
  if (r.errorReachable && r.run) {
    const run: StepRun = { states: r.run.states, steps: r.run.steps.map((s) => ({ thread: s.transition.thread, transition: s.transition, aux: s.aux })) };
    const bad = deadlockFailure(p, run, range);
    return bad ? { unknown: `internal: the deadlock run does not replay (${bad})` } : { run };
  }
  if (!r.complete) return { unknown: `the search for a deadlock stopped (${r.stoppedBy})` };
  return 'none';
}

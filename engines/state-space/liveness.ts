/**
 * Liveness by global model checking (issue 22): the product of all threads (every
 * interleaving, moves.ts) with the Büchi automaton of the negated property, explored
 * breadth-first, then fair accepting cycles by strongly connected components
 * (core/fair-cycles.ts). The baseline the split engine is measured against, and its
 * oracle in the differential test. A reachable deadlock is reported first, with its
 * run: the property's runs are infinite only under the paper's deadlock-freedom
 * assumption, which is then checked rather than assumed.
 */
import type { Program } from '../../program/program.js';
import { compile } from '../../core/compile.js';
import { automatonSteps, type LtlProperty } from '../../core/property.js';
import { fairCycle, fairnessRequirements, shortestPath, type Edge, type Path } from '../../core/fair-cycles.js';
import type { ConcreteLasso, LivenessOutcome, RunStep, StepRun } from '../../core/lasso.js';
import { DEFAULT_MAX_STATES, DEFAULT_NONDET_RANGE, explore } from './explore.js';
import { findSymmetry } from './symmetry.js';
import { deadlocked, globalMoves, type RealMove } from './moves.js';
import { initialStates } from './steps.js';
import { deadlockFailure, lassoFailure } from './lasso.js';

export interface LivenessOptions {
  readonly nondetRange?: readonly [bigint, bigint];
  readonly maxStates?: number;
  /** performance.now() past which the search stops (UNKNOWN). */
  readonly deadline?: number;
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
  const t0 = performance.now();
  const range = opts.nondetRange ?? DEFAULT_NONDET_RANGE;
  const maxStates = opts.maxStates ?? DEFAULT_MAX_STATES;
  const { layout, threads } = globalMoves(p, range);
  const atoms = [...prop.atoms].map(([text, term]) => [text, compile(term, layout.slot)] as const);
  const A = prop.negated;

  const values: bigint[][] = [];
  const letters: Set<string>[] = [];
  const stateId = new Map<string, number>();
  /** Per program state: the moves of each thread (an empty list: its self-loop). */
  const movesOf: RealMove[][][] = [];
  const idle: boolean[][] = [];
  const stateOf = (vals: bigint[]): number => {
    const key = vals.join(',');
    let id = stateId.get(key);
    if (id === undefined) {
      id = values.length;
      stateId.set(key, id);
      values.push(vals);
      letters.push(new Set(atoms.filter(([, f]) => f(vals) === true).map(([t]) => t)));
    }
    return id;
  };
  // Product nodes: (program state, automaton state).
  const nodeOf = new Map<number, number>();
  const nodeState: number[] = [];
  const nodeQ: number[] = [];
  const out: ProductEdge[][] = [];
  const node = (s: number, q: number): number => {
    const key = s * A.size + q;
    let n = nodeOf.get(key);
    if (n === undefined) {
      n = nodeState.length;
      nodeOf.set(key, n);
      nodeState.push(s);
      nodeQ.push(q);
    }
    return n;
  };
  const stats = (): GlobalLivenessStats => ({ timeMs: performance.now() - t0, states: nodeState.length, programStates: values.length, automatonStates: A.size });

  // The program's own graph first: every reachable state is checked for a deadlock,
  // whatever the automaton does (it may reject a prefix the program still runs on).
  const init = initialStates(p, layout, range);
  const roots = [...new Set(init.states.map(stateOf))];
  const progOut: ProductEdge[][] = [];
  for (let s = 0; s < values.length; s++) {
    if ((s & 1023) === 0 && opts.deadline !== undefined && performance.now() > opts.deadline) return { verdict: 'unknown', reason: 'timeout', stats: stats() };
    if (values.length > maxStates) return { verdict: 'unknown', reason: `state limit: more than ${maxStates} program states`, stats: stats() };
    movesOf[s] = threads.map((m) => m.real(values[s]));
    idle[s] = threads.map((m) => m.idle(values[s]));
    const edges: ProductEdge[] = [];
    movesOf[s].forEach((ms, k) => {
      for (const m of ms) edges.push({ to: stateOf(m.next), thread: k, move: m });
      if (!ms.length && !idle[s][k]) edges.push({ to: s, thread: k }); // blocked: its self-loop
    });
    if (idle[s].every(Boolean)) edges.push({ to: s, thread: -1 }); // terminated: the last state repeats
    progOut.push(edges);
    if (deadlocked(threads, values[s])) {
      const path = shortestPath({ initial: roots, out: progOut }, roots, (x) => x === s)!;
      const run = concreteRun(layout.names, values, (x) => x, path);
      const bad = deadlockFailure(p, run, range);
      if (bad) return { verdict: 'unknown', reason: `internal: the deadlock run does not replay (${bad})`, stats: stats() };
      return { verdict: 'deadlock', run, stats: stats() };
    }
  }
  const initial: number[] = [];
  for (const s of roots) for (const q of automatonSteps(A, 0, letters[s])) if (!initial.includes(node(s, q))) initial.push(node(s, q));
  for (let n = 0; n < nodeState.length; n++) {
    if ((n & 1023) === 0 && opts.deadline !== undefined && performance.now() > opts.deadline) return { verdict: 'unknown', reason: 'timeout', stats: stats() };
    if (nodeState.length > maxStates) return { verdict: 'unknown', reason: `state limit: more than ${maxStates} product states`, stats: stats() };
    out.push(progOut[nodeState[n]].flatMap((e) => automatonSteps(A, nodeQ[n], letters[e.to]).map((q2) => ({ ...e, to: node(e.to, q2) }))));
  }
  let clipped = init.clipped;
  clipped ||= threads.some((m) => m.clipped);
  const graph = { initial, out };
  const reqs = [
    { node: (n: number) => A.accepting.has(nodeQ[n]) },
    ...fairnessRequirements<ProductEdge>(p.threads.length, prop.fairness, {
      idle: (n, k) => idle[nodeState[n]][k],
      disabled: (n, k) => movesOf[nodeState[n]][k].length === 0,
    }),
  ];
  const found = fairCycle(graph, reqs);
  if (!found) {
    if (clipped) return { verdict: 'unknown', reason: `no counterexample with nondeterministic values in ${range[0]}..${range[1]}, which the program does not bound itself`, stats: stats() };
    return { verdict: 'holds', stats: stats() };
  }
  const run = concreteRun(layout.names, values, (n) => nodeState[n], { nodes: [...found.stem.nodes, ...found.cycle.nodes.slice(1)], edges: [...found.stem.edges, ...found.cycle.edges] });
  const lasso: ConcreteLasso = { ...run, loopAt: found.stem.edges.length };
  const bad = lassoFailure(p, prop, lasso, range);
  if (bad) return { verdict: 'unknown', reason: `internal: the lasso does not replay (${bad})`, stats: stats() };
  return { verdict: 'fails', lasso, stats: stats() };
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
  const r = explore(p, { nondetRange: range, maxStates: opts.maxStates, deadline: opts.deadline, symmetry: findSymmetry(p), target: (vals) => deadlocked(threads, vals) });
  if (r.errorReachable && r.run) {
    const run: StepRun = { states: r.run.states, steps: r.run.steps.map((s) => ({ thread: s.transition.thread, transition: s.transition, aux: s.aux })) };
    const bad = deadlockFailure(p, run, range);
    return bad ? { unknown: `internal: the deadlock run does not replay (${bad})` } : { run };
  }
  if (!r.complete) return { unknown: `the search for a deadlock stopped (${r.stoppedBy})` };
  return 'none';
}

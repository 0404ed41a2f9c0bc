/**
 * Fair accepting cycles in a finite graph: the emptiness check shared by
 * the liveness engines. A node is a program state (global, or one abstract process's)
 * paired with a Büchi state; an edge is one thread's step. A run is a counterexample
 * when it visits what the acceptance condition asks for infinitely often and is fair;
 * both are "requirements" an infinite run must meet infinitely often, each met by an
 * edge or by a node. For the fairness notions here (unconditional and weak, with a
 * thread's absence met by a node where it cannot move) every requirement is of that
 * kind, so a strongly connected component that holds a witness of each requirement
 * holds a fair accepting cycle, and a component that does not holds none in any part
 * of it: Tarjan's components decide emptiness without Emerson–Lei's recursion.
 */

/** One step of the graph: where it goes and which thread moves (-1: none). */
export interface Edge {
  readonly to: number;
  readonly thread: number;
}

/** The explored graph: nodes 0..out.length-1, the edges out of each, and where runs start. */
export interface Graph<E extends Edge> {
  readonly initial: readonly number[];
  readonly out: readonly (readonly E[])[];
}

/** Something a run must see infinitely often: an edge or a node (either suffices). */
export interface Requirement<E extends Edge> {
  readonly edge?: (from: number, e: E) => boolean;
  readonly node?: (n: number) => boolean;
}

/** A path: nodes n_0..n_k and the edges between them. */
export interface Path<E extends Edge> {
  readonly nodes: readonly number[];
  readonly edges: readonly E[];
}

/** A lasso: a stem from an initial node to the cycle's first node, and a cycle back to it (at least one edge). */
export interface GraphLasso<E extends Edge> {
  readonly stem: Path<E>;
  readonly cycle: Path<E>;
}

/** The fairness assumption of `--fairness`. */
export type Fairness = 'none' | 'unconditional' | 'weak';

/** What a node says of thread k, for its fairness requirement. */
export interface ThreadAt {
  /** The thread may have ended (or not yet started) here. */
  idle(n: number, k: number): boolean;
  /** The thread may have no transition enabled here (it would take a self-loop). */
  disabled(n: number, k: number): boolean;
}

/**
 * Per thread, what a fair run must see of it infinitely often. unconditional: a step
 * of the thread (a blocked thread's self-loop counts), unless it has ended; weak: a
 * step, or a moment where it is not enabled; none: nothing.
 */
export function fairnessRequirements<E extends Edge>(threads: number, fairness: Fairness, at: ThreadAt): Requirement<E>[] {
  if (fairness === 'none') return [];
  return [...Array(threads).keys()].map((k) => ({
    edge: (_from: number, e: E) => e.thread === k,
    node: fairness === 'weak' ? (n: number) => at.disabled(n, k) || at.idle(n, k) : (n: number) => at.idle(n, k),
  }));
}

/** Strongly connected components of the nodes reachable from the initial ones (Tarjan, iterative). */
function components<E extends Edge>(g: Graph<E>): { comp: Int32Array; members: number[][] } {
  const n = g.out.length;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const comp = new Int32Array(n).fill(-1);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const members: number[][] = [];
  let next = 0;
  for (const root of g.initial) {
    if (index[root] >= 0) continue;
    const work: [number, number][] = [[root, 0]];
    index[root] = low[root] = next++;
    stack.push(root);
    onStack[root] = 1;
    while (work.length) {
      const top = work[work.length - 1];
      const [v, i] = top;
      if (i < g.out[v].length) {
        top[1]++;
        const w = g.out[v][i].to;
        if (index[w] < 0) {
          index[w] = low[w] = next++;
          stack.push(w);
          onStack[w] = 1;
          work.push([w, 0]);
        } else if (onStack[w]) low[v] = Math.min(low[v], index[w]);
        continue;
      }
      work.pop();
      if (work.length) low[work[work.length - 1][0]] = Math.min(low[work[work.length - 1][0]], low[v]);
      if (low[v] === index[v]) {
        const c: number[] = [];
        let w: number;
        do {
          w = stack.pop()!;
          onStack[w] = 0;
          comp[w] = members.length;
          c.push(w);
        } while (w !== v);
        members.push(c);
      }
    }
  }
  return { comp, members };
}

/** A shortest path from any of `from` to a node `goal` accepts, through nodes `inside` accepts (breadth-first). */
export function shortestPath<E extends Edge>(g: Graph<E>, from: readonly number[], goal: (n: number) => boolean, inside: (n: number) => boolean = () => true): Path<E> | undefined {
  const parent = new Map<number, { prev: number; e: E } | null>(from.map((n) => [n, null]));
  const queue = [...from];
  for (let h = 0; h < queue.length; h++) {
    const v = queue[h];
    if (goal(v)) {
      const nodes = [v];
      const edges: E[] = [];
      for (let p = parent.get(v); p; p = parent.get(p.prev)) (nodes.push(p.prev), edges.push(p.e));
      return { nodes: nodes.reverse(), edges: edges.reverse() };
    }
    for (const e of g.out[v])
      if (!parent.has(e.to) && inside(e.to)) {
        parent.set(e.to, { prev: v, e });
        queue.push(e.to);
      }
  }
  return undefined;
}

const join = <E extends Edge>(a: Path<E>, b: Path<E>): Path<E> => ({ nodes: [...a.nodes, ...b.nodes.slice(1)], edges: [...a.edges, ...b.edges] });

/**
 * A reachable cycle that meets every requirement, as a lasso, or undefined when
 * there is none (the graph's language under the requirements is empty).
 */
export function fairCycle<E extends Edge>(g: Graph<E>, reqs: readonly Requirement<E>[]): GraphLasso<E> | undefined {
  const { comp, members } = components(g);
  for (const [c, nodes] of members.entries()) {
    const inC = (n: number): boolean => comp[n] === c;
    if (!nodes.some((v) => g.out[v].some((e) => inC(e.to)))) continue; // no cycle here
    // Per requirement, a witness inside the component: [node to reach, edge to take then].
    const witnesses: [number, E | undefined][] = [];
    for (const r of reqs) {
      let w: [number, E | undefined] | undefined;
      for (const v of nodes) {
        if (r.node?.(v)) w = [v, undefined];
        const e = r.edge && g.out[v].find((e) => inC(e.to) && r.edge!(v, e));
        if (e) w = [v, e];
        if (w) break;
      }
      if (!w) break;
      witnesses.push(w);
    }
    if (witnesses.length < reqs.length) continue;
    const start = witnesses[0]?.[0] ?? nodes[0];
    const stem = shortestPath(g, g.initial, (n) => n === start)!;
    let cycle: Path<E> = { nodes: [start], edges: [] };
    const walk = (to: number): void => {
      const here = cycle.nodes[cycle.nodes.length - 1];
      cycle = join(cycle, shortestPath(g, [here], (n) => n === to, inC)!);
    };
    for (const [v, e] of witnesses) {
      walk(v);
      if (e) cycle = join(cycle, { nodes: [v, e.to], edges: [e] });
    }
    if (cycle.edges.length === 0) {
      const e = g.out[start].find((e) => inC(e.to))!;
      cycle = { nodes: [start, e.to], edges: [e] };
    }
    walk(start);
    return { stem, cycle };
  }
  return undefined;
}

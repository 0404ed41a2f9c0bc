/**
 * The split invariant θ (Cohen–Namjoshi §3.1) of a finite-state program, as the
 * thread-modular fixpoint: per thread k the views (shared values g, its locals l_k)
 * it reaches when every other thread j may make any shared update it makes from one
 * of its own views with the same g (Flanagan–Qadeer's guarantee). The conjunction of
 * the views over-approximates the reachable states, which is all §3's rule needs of
 * θ. Each view also records where the thread's own steps lead: the abstract
 * processes (Definition 2) and the must/may analysis (Theorem 6) read them.
 */
import type { Program } from '../frontend/program.js';
import { Layout, ThreadMoves, initialStates, type RealMove } from '../explicit/api.js';

type Vec = readonly bigint[];

/** One view of thread k: the shared values, then its locals. */
export interface View {
  readonly vals: Vec;
  readonly key: string;
  readonly gKey: string;
  /** Its real steps (empty: it takes a self-loop). */
  readonly moves: readonly RealMove[];
  /** The shared values its steps (or its self-loop, when blocked) lead to; none when idle. */
  readonly nextG: ReadonlySet<string>;
  readonly idle: boolean;
}

export interface ThreadViews {
  readonly moves: ThreadMoves;
  readonly layout: Layout;
  readonly byKey: Map<string, View>;
  /** θ_k(g): the views with shared values g. */
  readonly byG: Map<string, View[]>;
  /** The shared updates (g, g') its views make, g ≠ g'. */
  readonly guarantee: Map<string, Set<string>>;
}

export interface SplitInvariant {
  readonly threads: readonly ThreadViews[];
  /** Shared values by key. */
  readonly shared: Map<string, Vec>;
  /** Number of shared variables (a view's first entries). */
  readonly width: number;
  /** Some choice was enumerated over the clipped nondet range. */
  readonly clipped: boolean;
  /** Σ_k |θ_k|. */
  readonly size: number;
}

/** The strongest thread-modular split invariant of `p`, or 'timeout'. */
export function splitInvariant(p: Program, range: readonly [bigint, bigint], deadline?: number): SplitInvariant | 'timeout' {
  const width = p.globals.length;
  const shared = new Map<string, Vec>();
  const gKeyOf = (vals: Vec): string => {
    const g = vals.slice(0, width);
    const k = g.join(',');
    if (!shared.has(k)) shared.set(k, g);
    return k;
  };
  const threads: ThreadViews[] = p.threads.map((th) => {
    const layout = new Layout([...p.globals, ...th.locals]);
    return { moves: new ThreadMoves(p, th, layout, range), layout, byKey: new Map(), byG: new Map(), guarantee: new Map() };
  });
  const work: [number, Vec][] = [];
  const seen = threads.map(() => new Set<string>());
  const add = (k: number, vals: Vec): void => {
    const key = vals.join(',');
    if (!seen[k].has(key)) (seen[k].add(key), work.push([k, vals]));
  };
  const all = new Layout([...p.vars.keys()]);
  const init = initialStates(p, all, range);
  for (const s of init.states) threads.forEach((T, k) => add(k, T.layout.names.map((v) => s[all.index.get(v)!])));
  let steps = 0;
  while (work.length) {
    if ((++steps & 255) === 0 && deadline !== undefined && performance.now() > deadline) return 'timeout';
    const [k, vals] = work.pop()!;
    const T = threads[k];
    const gKey = gKeyOf(vals);
    const moves = T.moves.real(vals);
    const idle = T.moves.idle(vals);
    const nextG = new Set(moves.length ? moves.map((m) => gKeyOf(m.next)) : idle ? [] : [gKey]);
    const view: View = { vals, key: vals.join(','), gKey, moves, nextG, idle };
    T.byKey.set(view.key, view);
    if (!T.byG.has(gKey)) T.byG.set(gKey, []);
    T.byG.get(gKey)!.push(view);
    const local = vals.slice(width);
    // Its own steps.
    for (const m of moves) add(k, m.next);
    // The others' known updates from g, applied to this view.
    threads.forEach((U, j) => {
      if (j !== k) for (const g2 of U.guarantee.get(gKey) ?? []) add(k, [...shared.get(g2)!, ...local]);
    });
    // Its new updates, applied to the others' views at g.
    for (const g2 of nextG) {
      if (g2 === gKey) continue;
      const mine = T.guarantee.get(gKey) ?? new Set<string>();
      if (mine.has(g2)) continue;
      T.guarantee.set(gKey, mine.add(g2));
      threads.forEach((U, j) => {
        if (j !== k) for (const w of U.byG.get(gKey) ?? []) add(j, [...shared.get(g2)!, ...w.vals.slice(width)]);
      });
    }
  }
  return {
    threads,
    shared,
    width,
    clipped: init.clipped || threads.some((T) => T.moves.clipped),
    size: threads.reduce((n, T) => n + T.byKey.size, 0),
  };
}

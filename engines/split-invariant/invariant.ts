/**
 * The split invariant θ (Cohen–Namjoshi §3.1) of a finite-state program, as the
 * thread-modular fixpoint: per thread k the views (shared values g, its locals l_k)
 * it reaches when every other thread j may make any shared update it makes from one
 * of its own views with the same g (Flanagan–Qadeer's guarantee). The conjunction of
 * the views over-approximates the reachable states, which is all §3's rule needs of
 * θ. Each view also records where the thread's own steps lead: the abstract
 * processes (Definition 2) and the must/may analysis (Theorem 6) read them.
 */
import type { Program } from '../../program/program.js';
import { Layout, ThreadMoves, initialStates } from '../state-space/api.js';
import { macroMoves, type MacroMove, type Moves } from './macro-steps.js';
import type { Actor, Frames, Perm } from './frames.js';

type Vec = readonly bigint[];

/** One view of thread k: the shared values, then its locals. */
export interface View {
  readonly vals: Vec;
  readonly key: string;
  readonly gKey: string;
  /** Its real steps, run through invisible locations (empty: it takes a self-loop). */
  readonly moves: readonly MacroMove[];
  /** The shared values its steps (or its self-loop, when blocked) lead to; none when idle. */
  readonly nextG: ReadonlySet<string>;
  readonly idle: boolean;
}

export interface ThreadViews {
  readonly moves: Moves;
  readonly layout: Layout;
  readonly byKey: Map<string, View>;
  /** θ_k(g): the views with shared values g. */
  readonly byG: Map<string, View[]>;
  /** The shared updates (g, g') its views make, g ≠ g'. */
  readonly guarantee: Map<string, Set<string>>;
}

export interface SplitInvariant {
  readonly frames: Frames;
  /** The views of each representative thread (frames.ts), in its own frame. */
  readonly threads: ReadonlyMap<number, ThreadViews>;
  /** Shared values by key. */
  readonly shared: Map<string, Vec>;
  /** Number of shared variables (a view's first entries). */
  readonly width: number;
  /** Some choice was enumerated over the clipped nondet range. */
  readonly clipped: boolean;
  /** Σ_k |θ_k| over the representatives. */
  readonly size: number;
  /** viewsAt's answers, by thread and shared values. */
  readonly cache: Map<string, { views: readonly View[]; perm: Perm | null }>;
}

/** θ_j at shared values `g` (any thread j, g in any frame): the views, in the frame `perm` takes g to. */
export function viewsAt(theta: SplitInvariant, j: number, g: Vec): { views: readonly View[]; perm: Perm | null } {
  const key = `${j}|${g.join(',')}`;
  let r = theta.cache.get(key);
  if (!r) {
    const { g: gc, perm } = theta.frames.canon(j, g);
    theta.cache.set(key, (r = { views: theta.threads.get(theta.frames.rep(j))!.byG.get(gc.join(',')) ?? [], perm }));
  }
  return r;
}

/** Where a view's steps take the shared values, back in the frame of `perm`'s source. */
export function nextShared(theta: SplitInvariant, w: View, perm: Perm | null): Vec[] {
  const back = theta.frames.inverse(perm);
  return [...w.nextG].map((k) => theta.frames.apply(theta.shared.get(k)!, back));
}

/** A view of thread k (shared values then its locals) in k's frame. */
export function inFrame(frames: Frames, k: number, vals: Vec, width: number): Vec {
  const { g, perm } = frames.canon(k, vals.slice(0, width));
  return perm ? [...g, ...vals.slice(width)] : vals;
}

/** The strongest thread-modular split invariant of `p` up to the symmetry of `frames`, or 'timeout'. */
export function splitInvariant(p: Program, frames: Frames, hidden: ((k: number) => ReadonlySet<string>) | null, range: readonly [bigint, bigint], deadline?: number): SplitInvariant | 'timeout' {
  const width = p.globals.length;
  const shared = new Map<string, Vec>();
  const gKeyOf = (vals: Vec): string => {
    const g = vals.slice(0, width);
    const k = g.join(',');
    if (!shared.has(k)) shared.set(k, g);
    return k;
  };
  const threads = new Map<number, ThreadViews>(
    frames.reps.map((k) => {
      const layout = new Layout([...p.globals, ...p.threads[k].locals]);
      const moves = macroMoves(p, p.threads[k], new ThreadMoves(p, p.threads[k], layout, range), layout.index.get(p.threads[k].pc)!, hidden && hidden(k));
      return [k, { moves, layout, byKey: new Map(), byG: new Map(), guarantee: new Map() }];
    }),
  );
  const theta: SplitInvariant = { frames, threads, shared, width, clipped: false, size: 0, cache: new Map() };
  const work: [number, Vec][] = [];
  const seen = new Map(frames.reps.map((k) => [k, new Set<string>()]));
  /** Views by the orbit of their shared values: another thread's new update there may apply to them. */
  const byOrbit = new Map<string, [number, View][]>();
  const orbit = (g: Vec): string => frames.canon(null, g).g.join(',');
  /** A view of thread t (any instance), stored as its representative's. */
  const add = (t: number, vals: Vec, framed = false): void => {
    const k = frames.rep(t);
    const v = framed ? vals : inFrame(frames, t, vals, width);
    const key = v.join(',');
    if (!seen.get(k)!.has(key)) (seen.get(k)!.add(key), work.push([k, v]));
  };
  // Frames are recomputed for the same few shared valuations over and over: kept, by a number per valuation.
  const ids = new Map<string, number>();
  const id = (gKey: string): number => ids.get(gKey) ?? (ids.set(gKey, ids.size), ids.size - 1);
  const memo = <T>(m: Map<string, T>, key: string, make: () => T): T => {
    let v = m.get(key);
    if (v === undefined) m.set(key, (v = make()));
    return v;
  };
  const actorsMemo = new Map<string, Actor[]>();
  const framesMemo = new Map<string, { gc: string; back: Perm | null }>();
  const updateMemo = new Map<string, Vec>();
  /** The others' known updates at view w of k, applied to it. */
  const interfere = (k: number, w: View): void => {
    const g = shared.get(w.gKey)!;
    const at = id(w.gKey);
    const local = w.vals.slice(width);
    for (const a of memo(actorsMemo, `${k}|${at}`, () => frames.actors(k, g, p.threads.length))) {
      const { gc, back } = memo(framesMemo, `${a.thread}|${at}`, () => {
        const { g: gc, perm } = frames.canon(a.thread, g);
        return { gc: gc.join(','), back: frames.inverse(perm) };
      });
      for (const g2 of threads.get(frames.rep(a.thread))!.guarantee.get(gc) ?? []) {
        const mine = memo(updateMemo, `${k}|${a.thread}|${at}|${id(g2)}`, () => frames.canon(k, frames.apply(shared.get(g2)!, back)).g);
        add(k, [...mine, ...local], true);
      }
    }
  };
  const all = new Layout([...p.vars.keys()]);
  const init = initialStates(p, all, range);
  for (const s of init.states) for (const th of p.threads) add(th.index, [...p.globals, ...th.locals].map((v) => s[all.index.get(v)!]));
  let steps = 0;
  while (work.length) {
    if ((++steps & 255) === 0 && deadline !== undefined && performance.now() > deadline) return 'timeout';
    const [k, vals] = work.pop()!;
    const T = threads.get(k)!;
    const gKey = gKeyOf(vals);
    const moves = T.moves.real(vals);
    const idle = T.moves.idle(vals);
    const nextG = new Set(moves.length ? moves.map((m) => gKeyOf(m.next)) : idle ? [] : [gKey]);
    const view: View = { vals, key: vals.join(','), gKey, moves, nextG, idle };
    T.byKey.set(view.key, view);
    if (!T.byG.has(gKey)) T.byG.set(gKey, []);
    T.byG.get(gKey)!.push(view);
    const o = orbit(shared.get(gKey)!);
    if (!byOrbit.has(o)) byOrbit.set(o, []);
    byOrbit.get(o)!.push([k, view]);
    for (const m of moves) add(k, m.next);
    interfere(k, view);
    // Its new updates, applied to every view they may act on (the others', and, in a class, the other instances' acting on the representative's).
    let fresh = false;
    for (const g2 of nextG) {
      if (g2 === gKey) continue;
      const mine = T.guarantee.get(gKey) ?? new Set<string>();
      if (mine.has(g2)) continue;
      T.guarantee.set(gKey, mine.add(g2));
      fresh = true;
    }
    if (fresh) for (const [j, w] of byOrbit.get(o)!) if (j !== k || frames.symmetric) interfere(j, w);
  }
  return { ...theta, clipped: init.clipped || [...threads.values()].some((T) => T.moves.clipped), size: [...threads.values()].reduce((n, T) => n + T.byKey.size, 0) };
}

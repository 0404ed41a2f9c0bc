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
import type { Budget } from '../../core/budget.js';
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

/** The strongest thread-modular split invariant of `p` up to the symmetry of `frames`; `budget` ticked per view expanded. */
export function splitInvariant(p: Program, frames: Frames, hidden: ((k: number) => ReadonlySet<string>) | null, range: readonly [bigint, bigint], budget: Budget): SplitInvariant {
  const f = new Fixpoint(p, frames, hidden, range);
  const all = new Layout([...p.vars.keys()]);
  const init = initialStates(p, all, range);
  for (const s of init.states) for (const th of p.threads) f.add(th.index, [...p.globals, ...th.locals].map((v) => s[all.index.get(v)!]));
  while (f.pending()) {
    budget.tick();
    f.expand();
  }
  const { threads } = f;
  return { frames, threads, shared: f.shared, width: f.width, clipped: init.clipped || [...threads.values()].some((T) => T.moves.clipped), size: [...threads.values()].reduce((n, T) => n + T.byKey.size, 0), cache: new Map() };
}

/** The value `make` gives for `key`, made once. */
function memo<T>(m: Map<string, T>, key: string, make: () => T): T {
  let v = m.get(key);
  if (v === undefined) m.set(key, (v = make()));
  return v;
}

/** The fixpoint behind splitInvariant: the views found, those still to expand, and the step that expands one. */
class Fixpoint {
  readonly width: number;
  readonly shared = new Map<string, Vec>();
  readonly threads: Map<number, ThreadViews>;
  private readonly work: [number, Vec][] = [];
  private readonly seen: Map<number, Set<string>>;
  /** Views by the orbit of their shared values: another thread's new update there may apply to them. */
  private readonly byOrbit = new Map<string, [number, View][]>();
  // Frames are recomputed for the same few shared valuations over and over: kept, by a number per valuation.
  private readonly ids = new Map<string, number>();
  private readonly actorsMemo = new Map<string, Actor[]>();
  private readonly framesMemo = new Map<string, { gc: string; back: Perm | null }>();
  private readonly updateMemo = new Map<string, Vec>();

  constructor(
    private readonly p: Program,
    private readonly frames: Frames,
    hidden: ((k: number) => ReadonlySet<string>) | null,
    range: readonly [bigint, bigint],
  ) {
    this.width = p.globals.length;
    this.threads = new Map(
      frames.reps.map((k) => {
        const layout = new Layout([...p.globals, ...p.threads[k].locals]);
        const moves = macroMoves(p, p.threads[k], new ThreadMoves(p, p.threads[k], layout, range), layout.index.get(p.threads[k].pc)!, hidden && hidden(k));
        return [k, { moves, layout, byKey: new Map(), byG: new Map(), guarantee: new Map() }];
      }),
    );
    this.seen = new Map(frames.reps.map((k) => [k, new Set<string>()]));
  }

  /** A view of thread t (any instance), stored as its representative's. */
  add(t: number, vals: Vec, framed = false): void {
    const k = this.frames.rep(t);
    const v = framed ? vals : inFrame(this.frames, t, vals, this.width);
    const key = v.join(',');
    const seen = this.seen.get(k)!;
    if (!seen.has(key)) (seen.add(key), this.work.push([k, v]));
  }

  pending(): boolean {
    return this.work.length > 0;
  }

  /** The newest view to expand: stored with its steps, its successors added, the others' updates applied to it and its new updates to theirs. */
  expand(): void {
    const { frames } = this;
    const [k, vals] = this.work.pop()!;
    const T = this.threads.get(k)!;
    const gKey = this.gKeyOf(vals);
    const moves = T.moves.real(vals);
    const idle = T.moves.idle(vals);
    const nextG = new Set(moves.length ? moves.map((m) => this.gKeyOf(m.next)) : idle ? [] : [gKey]);
    const view: View = { vals, key: vals.join(','), gKey, moves, nextG, idle };
    T.byKey.set(view.key, view);
    if (!T.byG.has(gKey)) T.byG.set(gKey, []);
    T.byG.get(gKey)!.push(view);
    const o = frames.canon(null, this.shared.get(gKey)!).g.join(',');
    if (!this.byOrbit.has(o)) this.byOrbit.set(o, []);
    this.byOrbit.get(o)!.push([k, view]);
    for (const m of moves) this.add(k, m.next);
    this.interfere(k, view);
    // Its new updates, applied to every view they may act on (the others', and, in a class, the other instances' acting on the representative's).
    let fresh = false;
    for (const g2 of nextG) {
      if (g2 === gKey) continue;
      const mine = T.guarantee.get(gKey) ?? new Set<string>();
      if (mine.has(g2)) continue;
      T.guarantee.set(gKey, mine.add(g2));
      fresh = true;
    }
    if (fresh) for (const [j, w] of this.byOrbit.get(o)!) if (j !== k || frames.symmetric) this.interfere(j, w);
  }

  /** The key of a view's shared values, which are kept by it. */
  private gKeyOf(vals: Vec): string {
    const g = vals.slice(0, this.width);
    const k = g.join(',');
    if (!this.shared.has(k)) this.shared.set(k, g);
    return k;
  }

  private id(gKey: string): number {
    const { ids } = this;
    return ids.get(gKey) ?? (ids.set(gKey, ids.size), ids.size - 1);
  }

  /** The others' known updates at view w of k, applied to it. */
  private interfere(k: number, w: View): void {
    const { frames, shared } = this;
    const g = shared.get(w.gKey)!;
    const at = this.id(w.gKey);
    const local = w.vals.slice(this.width);
    for (const a of memo(this.actorsMemo, `${k}|${at}`, () => frames.actors(k, g, this.p.threads.length))) {
      const { gc, back } = memo(this.framesMemo, `${a.thread}|${at}`, () => {
        const { g: gc, perm } = frames.canon(a.thread, g);
        return { gc: gc.join(','), back: frames.inverse(perm) };
      });
      for (const g2 of this.threads.get(frames.rep(a.thread))!.guarantee.get(gc) ?? []) {
        const mine = memo(this.updateMemo, `${k}|${a.thread}|${at}|${this.id(g2)}`, () => frames.canon(k, frames.apply(shared.get(g2)!, back)).g);
        this.add(k, [...mine, ...local], true);
      }
    }
  }
}

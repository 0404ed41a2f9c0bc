/**
 * Views up to symmetry (Cohen–Namjoshi §3.6: symmetry "can also be exploited to
 * reduce the computations for the split invariance calculation, and to reduce the
 * number of checks"). Identical instances (engines/state-space/symmetry.ts, which checks that
 * every transposition maps the program, exposed booleans included, onto itself) share
 * one set of views: an instance's view (g, l) is stored as its class representative's,
 * with g permuted so that the instance takes the representative's place and the other
 * instances are ordered by their ghost values; a thread outside every class sees all
 * instances ordered. N instances with exposed booleans then give shared states that
 * count instances per valuation of the booleans (a counter abstraction), not 2^N of
 * them. Without symmetry every thread is its own representative and nothing moves.
 */
import type { Program } from '../../program/program.js';
import type { Symmetry } from '../state-space/api.js';

type Vec = readonly bigint[];
/** Per class: to[old] = new, positions in the class. */
export type Perm = readonly (readonly number[])[];

/** A thread acting on a view, standing for the instances of its group (same class, same ghost values), which act alike up to a permutation fixing the view. */
export interface Actor {
  readonly thread: number;
  /** The group's name: the thread's own index outside every class. */
  readonly group: string;
}

interface FrameClass {
  readonly threads: readonly number[];
  /** Per position, the slots of the instance's ghost variables in g. */
  readonly slots: readonly (readonly number[])[];
  /** Per position, the instance's locals (corresponding across positions). */
  readonly locals: readonly (readonly string[])[];
}

export class Frames {
  private readonly classes: readonly FrameClass[];
  /** Per thread in a class: [class, position]. */
  private readonly place = new Map<number, readonly [number, number]>();
  private readonly idSlots: readonly number[];
  /** The threads whose views are computed: each class's first instance and every thread outside the classes. */
  readonly reps: readonly number[];

  constructor(q: Program, sym: Symmetry | null) {
    const slot = new Map(q.globals.map((g, k) => [g, k] as const));
    this.classes = (sym?.classes ?? []).map((c) => ({
      threads: c.threads,
      slots: c.vars.map((vs, pos) => vs.slice(q.threads[c.threads[pos]].locals.length).map((v) => slot.get(v)!)),
      locals: c.vars.map((vs, pos) => vs.slice(0, q.threads[c.threads[pos]].locals.length)),
    }));
    this.classes.forEach((c, k) => c.threads.forEach((t, pos) => this.place.set(t, [k, pos])));
    this.idSlots = (sym?.idVars ?? []).map((v) => slot.get(v)!);
    this.reps = q.threads.map((t) => t.index).filter((t) => this.rep(t) === t);
  }

  get symmetric(): boolean {
    return this.classes.length > 0;
  }

  /** Each class as `P#2..P#9 (8 instances)`. */
  describe(q: Program): string[] {
    return this.classes.map((c) => `${q.threads[c.threads[0]].name}..${q.threads[c.threads[c.threads.length - 1]].name} (${c.threads.length} instances)`);
  }

  /** The thread whose views stand for `k`'s. */
  rep(k: number): number {
    const at = this.place.get(k);
    return at ? this.classes[at[0]].threads[0] : k;
  }

  /** Per instance of `rep`'s class, its locals in the order of `rep`'s ([[rep's]] outside the classes). */
  instanceLocals(rep: number, own: readonly string[]): { thread: number; locals: readonly string[] }[] {
    const at = this.place.get(rep);
    if (!at) return [{ thread: rep, locals: own }];
    const c = this.classes[at[0]];
    return c.threads.map((thread, pos) => ({ thread, locals: c.locals[pos] }));
  }

  /** The thread in `k`'s place after `perm`. */
  moved(k: number, perm: Perm | null): number {
    const at = this.place.get(k);
    return at && perm ? this.classes[at[0]].threads[perm[at[0]][at[1]]] : k;
  }

  /** `g` with each instance's ghost values (and the identities threads hold) moved as `perm` says. */
  apply(g: Vec, perm: Perm | null): Vec {
    if (!perm) return g;
    const out = [...g];
    this.classes.forEach((c, k) => c.slots.forEach((slots, old) => slots.forEach((s, j) => (out[c.slots[perm[k][old]][j]] = g[s]))));
    for (const s of this.idSlots) out[s] = BigInt(this.moved(Number(g[s]) - 1, perm) + 1);
    return out;
  }

  inverse(perm: Perm | null): Perm | null {
    return perm && perm.map((to) => to.reduce((inv, n, o) => ((inv[n] = o), inv), [...to]));
  }

  /** What orders a class's instances: their ghost values (as a number when they are flags), then the identity slots holding them. */
  private ranks(g: Vec, c: FrameClass): (number | string)[] {
    if (!this.idSlots.length && c.slots.every((slots) => slots.every((s) => g[s] === 0n || g[s] === 1n)))
      return c.slots.map((slots) => slots.reduce((code, s) => code * 2 + Number(g[s]), 0));
    return c.slots.map((slots, pos) => {
      const held = this.idSlots.filter((s) => g[s] === BigInt(c.threads[pos] + 1));
      return `${slots.map((s) => g[s]).join(',')}|${held.join(',')}`;
    });
  }

  /** `g` in `k`'s frame: k in its representative's place (when in a class), the other instances ordered; `k` null orders all. */
  canon(k: number | null, g: Vec): { g: Vec; perm: Perm | null } {
    if (!this.classes.length) return { g, perm: null };
    const own = k === null ? undefined : this.place.get(k);
    let moved = false;
    const perm = this.classes.map((c, ci) => {
      const fixed = own?.[0] === ci ? own[1] : -1;
      const ranks = this.ranks(g, c);
      // Stable by position within a rank; few distinct ranks, so grouped rather than sorted.
      const byRank = new Map<number | string, number[]>();
      ranks.forEach((r, pos) => {
        if (pos !== fixed) byRank.get(r)?.push(pos) ?? byRank.set(r, [pos]);
      });
      const order = [...(fixed >= 0 ? [fixed] : []), ...[...byRank.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).flatMap((r) => byRank.get(r)!)];
      const to: number[] = [];
      order.forEach((old, n) => (to[old] = n));
      moved ||= to.some((n, o) => n !== o);
      return to;
    });
    return moved ? { g: this.apply(g, perm), perm } : { g, perm: null };
  }

  /** The instances other than `k` in the group of `t` at `g` (t's class, t's rank), t among them; just t outside the classes. */
  peers(k: number, g: Vec, t: number): number[] {
    const at = this.place.get(t);
    if (!at) return [t];
    const c = this.classes[at[0]];
    const ranks = this.ranks(g, c);
    return c.threads.filter((u, pos) => u !== k && ranks[pos] === ranks[at[1]]);
  }

  /** The threads other than `k` that act on a view of k with shared values `g`: every thread outside the classes, and per class one instance per rank. */
  actors(k: number | null, g: Vec, threads: number): Actor[] {
    const out: Actor[] = [];
    for (let t = 0; t < threads; t++) if (t !== k && !this.place.has(t)) out.push({ thread: t, group: String(t) });
    this.classes.forEach((c, ci) => {
      const seen = new Set<string>();
      const ranks = this.ranks(g, c);
      c.threads.forEach((t, pos) => {
        const group = `${ci}:${ranks[pos]}`;
        if (t !== k && !seen.has(group)) (seen.add(group), out.push({ thread: t, group }));
      });
    });
    return out;
  }
}

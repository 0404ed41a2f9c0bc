/**
 * The components without the memory (every side but S1): each thread reads the globals it
 * reads from its views in R (read-set.ts, grown round by round), so they run without each
 * other; a step that touches a global is, to the rest of the system, an event
 * (assume-guarantee.ts). Here: their transition systems, their alphabets, and
 * the recursive rule of Cobleigh's generalized decompositions (Chapter 5) that checks
 * ⟨true⟩ C_1 ‖ … ‖ C_m ⟨A⟩ by learning an assumption for C_2 ‖ … ‖ C_m at each level.
 */
import { isFrameAtom, type Program, type Transition } from '../../program/program.js';
import { unprimed, varsOf } from '../../solver/formula.js';
import type { Layout, RealMove, ThreadMoves } from '../state-space/api.js';
import type { Dfa, LearnResult, Table, Teacher, Word } from './lstar.js';
import { interleave, lift, search, wordOf, type Step, type Vec } from './search.js';
import type { ReadSet } from './read-set.js';

/** A step that touches the globals, as the others see it. */
export interface AgEvent {
  /** Global slots and the values read there. */
  readonly reads: readonly (readonly [number, bigint])[];
  /** Global slots and the values written there. */
  readonly writes: readonly (readonly [number, bigint])[];
  /** The step reaches its thread's error location. */
  readonly err: boolean;
}

/** What the sides share: the program, its moves, the events found so far, the bounds. */
export interface AgContext {
  readonly p: Program;
  readonly layout: Layout;
  readonly threads: readonly ThreadMoves[];
  /** Initial states, all variables. */
  readonly init: readonly Vec[];
  readonly maxStates: number;
  /** A step of a check: throws (Budget.tick) past the run's deadline or memory limit. */
  tick(): void;
  /** A check held this many states (the memory measure). */
  note(states: number): void;
  /** L* over `alphabet` letters with this teacher, its table seeded with `seed`; it throws as tick does. */
  learn(alphabet: number, teacher: Teacher, seed?: Table): LearnResult;
}

/** A run of a side (or of several, merged) and the local values it started from. */
export interface Cex {
  readonly path: readonly Step[];
  readonly start: ReadonlyMap<number, bigint>;
}

export const localSlots = (ctx: AgContext, ks: readonly number[]): number[] => ks.flatMap((k) => ctx.p.threads[k].locals.map((v) => ctx.layout.index.get(v)!));

export const errorAt = (ctx: AgContext, k: number, vals: Vec): boolean => ctx.p.threads[k].errorPc !== undefined && Number(vals[ctx.layout.index.get(ctx.p.threads[k].pc)!]) === ctx.p.threads[k].errorPc;

/** The globals a transition reads (outside its frame atoms) and writes, as slots. */
export function footprint(p: Program, layout: Layout, t: Transition): { reads: number[]; writes: number[] } {
  const global = (v: string): boolean => p.vars.get(v)?.owner === null;
  const reads = new Set<number>();
  for (const a of t.atoms) if (!isFrameAtom(a)) for (const v of varsOf(a)) if (v === unprimed(v) && global(v)) reads.add(layout.index.get(v)!);
  return { reads: [...reads].sort((a, b) => a - b), writes: t.writes.filter(global).map((v) => layout.index.get(v)!).sort((a, b) => a - b) };
}

/**
 * The memoryless threads' steps, each thread alone over the read set, with their events;
 * memoized. The read set grows between rounds; an event keeps its number for good, so
 * what was learned over the events of one round stays meaningful in the next.
 */
export class Memoryless {
  readonly events: AgEvent[] = [];
  private readonly eventIds = new Map<string, number>();
  private readonly footprints = new Map<number, { reads: number[]; writes: number[] }>();
  private moves = new Map<number, Map<string, [Vec, Step][]>>();
  private alphabets = new Map<number, number[]>();

  constructor(
    readonly ctx: AgContext,
    /** R: what each thread may read. */
    readonly read: ReadSet,
  ) {}

  /** R has grown: the steps found for the last one are forgotten. */
  readAgain(): void {
    this.moves = new Map();
    this.alphabets = new Map();
  }

  footprintOf(t: Transition): { reads: number[]; writes: number[] } {
    let f = this.footprints.get(t.id);
    if (!f) this.footprints.set(t.id, (f = footprint(this.ctx.p, this.ctx.layout, t)));
    return f;
  }

  /** The event of thread k's move m from vals (null: it touches no global). */
  private eventOf(k: number, vals: Vec, m: RealMove): number | null {
    const f = this.footprintOf(m.t);
    const err = errorAt(this.ctx, k, m.next);
    if (!f.reads.length && !f.writes.length && !err) return null;
    const e: AgEvent = { reads: f.reads.map((s) => [s, vals[s]] as const), writes: f.writes.map((s) => [s, m.next[s]] as const), err };
    const key = JSON.stringify([e.reads.map(([s, v]) => [s, String(v)]), e.writes.map(([s, v]) => [s, String(v)]), err]);
    let id = this.eventIds.get(key);
    if (id === undefined) (id = this.events.length), this.eventIds.set(key, id), this.events.push(e);
    return id;
  }

  /** Thread k's steps from its locals `l`, over every valuation it may read. */
  next(k: number, l: Vec): [Vec, Step][] {
    let memo = this.moves.get(k);
    if (!memo) this.moves.set(k, (memo = new Map()));
    const key = l.join(',');
    const known = memo.get(key);
    if (known) return known;
    const { ctx } = this;
    const slots = localSlots(ctx, [k]);
    const out: [Vec, Step][] = [];
    const seen = new Set<string>();
    const at = this.read.slotsOf.get(k)!;
    for (const g of this.read.of(k)) {
      ctx.tick();
      const vals = [...ctx.init[0]];
      at.forEach((s, j) => (vals[s] = g[j]));
      slots.forEach((s, j) => (vals[s] = l[j]));
      for (const m of ctx.threads[k].real(vals)) {
        const e = this.eventOf(k, vals, m);
        const n = slots.map((s) => m.next[s]);
        const mk = `${e}|${m.t.id}|${n.join(',')}`;
        if (!seen.has(mk)) (seen.add(mk), out.push([n, { thread: k, move: m, event: e }]));
      }
    }
    memo.set(key, out);
    return out;
  }

  /** The events thread k can make (run alone over the read set), sorted. */
  alphabet(k: number): number[] {
    let sigma = this.alphabets.get(k);
    if (sigma) return sigma;
    const found = new Set<number>();
    const slots = localSlots(this.ctx, [k]);
    const r = search<Vec>(
      this.ctx.init.map((v) => slots.map((s) => v[s])),
      (l) => l.join(','),
      (l) => this.next(k, l).map(([n, st]) => ('event' in st && st.event !== null && found.add(st.event), [n, st])),
      () => false,
      this.ctx.maxStates,
      () => this.ctx.tick(),
    );
    if ('states' in r) this.ctx.note(r.states);
    this.alphabets.set(k, (sigma = [...found].sort((a, b) => a - b)));
    return sigma;
  }
}

/** A component: some memoryless threads as one transition system over their locals. */
export class Side {
  readonly slots: number[];
  readonly start: Vec[];
  readonly sigma: number[];
  private readonly offsets: number[];

  constructor(
    private readonly m: Memoryless,
    readonly ks: readonly number[],
  ) {
    const { ctx } = m;
    this.slots = localSlots(ctx, ks);
    this.offsets = ks.map((_, j) => localSlots(ctx, ks.slice(0, j)).length);
    this.start = [...new Map(ctx.init.map((v) => this.slots.map((s) => v[s])).map((l) => [l.join(','), l] as const)).values()];
    this.sigma = [...new Set(ks.flatMap((k) => m.alphabet(k)))].sort((a, b) => a - b);
  }

  /** Every thread's steps, the others' locals kept. */
  next(l: Vec): [Vec, Step][] {
    return this.ks.flatMap((k, j) => {
      const [from, to] = [this.offsets[j], this.offsets[j] + this.m.ctx.p.threads[k].locals.length];
      return this.m.next(k, l.slice(from, to)).map(([n, st]): [Vec, Step] => [[...l.slice(0, from), ...n, ...l.slice(to)], st]);
    });
  }

  startMap(l: Vec): Map<number, bigint> {
    return new Map(this.slots.map((s, j) => [s, l[j]] as const));
  }
}

/**
 * ⟨B⟩ C ⟨A⟩ (B undefined: ⟨true⟩ C ⟨A⟩): C's run, interleaved with events B accepts
 * (consumed), whose word A rejects; null if none. B and A are over all events.
 */
export function premise(ctx: AgContext, c: Side, b: Dfa | undefined, a: Dfa): { path: Step[]; start: Vec } | null {
  type N = { l: Vec; qb: number; q: number };
  const r = search<N>(
    // An assumption that rejects the empty word admits no run at all.
    b && !b.accepting[0] ? [] : c.start.map((l) => ({ l, qb: 0, q: 0 })),
    (n) => `${n.qb}|${n.q}|${n.l.join(',')}`,
    (n) => {
      const out = c.next(n.l).map(([l, st]): [N, Step] => [{ l, qb: n.qb, q: 'event' in st && st.event !== null ? a.next[n.q][st.event] : n.q }, st]);
      if (b) b.next[n.qb].forEach((qb, e) => b.accepting[qb] && out.push([{ l: n.l, qb, q: a.next[n.q][e] }, { consumed: e }]));
      return out;
    },
    (n) => !a.accepting[n.q],
    ctx.maxStates,
    () => ctx.tick(),
  );
  if ('states' in r) return (ctx.note(r.states), null);
  return { path: r.path, start: r.start.l };
}

/**
 * A run of C whose events, those of `visible` only (all when undefined), are the word
 * `w`; null if C has none. With `visible`, C's other events may come anywhere in between.
 */
export function produce(ctx: AgContext, c: Side, w: readonly number[], visible?: ReadonlySet<number>): { path: Step[]; start: Vec } | null {
  type N = { l: Vec; i: number };
  const r = search<N>(
    c.start.map((l) => ({ l, i: 0 })),
    (n) => `${n.i}|${n.l.join(',')}`,
    (n) =>
      c.next(n.l).flatMap(([l, st]): [N, Step][] => {
        const e = 'event' in st ? st.event : null;
        if (e === null || (visible && !visible.has(e))) return [[{ l, i: n.i }, st]];
        return n.i < w.length && w[n.i] === e ? [[{ l, i: n.i + 1 }, st]] : [];
      }),
    (n) => n.i === w.length,
    ctx.maxStates,
    () => ctx.tick(),
  );
  if ('states' in r) return (ctx.note(r.states), null);
  return { path: r.path, start: r.start.l };
}

/** C's run interleaved with the word `w` (consumed in order, maybe in part) whose merged word A rejects; null if none: ⟨w's prefixes⟩ C ⟨A⟩. */
function violates(ctx: AgContext, c: Side, w: Word, a: Dfa): { path: Step[]; start: Vec } | null {
  const sink = w.length + 1;
  const next = Array.from({ length: sink + 1 }, (_, q) => Array.from({ length: a.alphabet }, (_, e) => (q < w.length && w[q] === e ? q + 1 : sink)));
  return premise(ctx, c, { alphabet: a.alphabet, accepting: next.map((_, q) => q < sink), next }, a);
}

/**
 * ⟨true⟩ C_1 ‖ … ‖ C_m ⟨A⟩, Cobleigh's generalized decomposition: for m = 1 one
 * search; else the two-way rule with C_1 against an assumption B on C_2 ‖ … ‖ C_m that
 * L* learns (the teacher of §4.1, its second premise this function again, one level
 * down). Returns the assumptions of every level (B, then those below), or a run of the
 * components, merged, whose word A rejects.
 */
export function holds(ctx: AgContext, chain: readonly Side[], a: Dfa): { assumptions: Dfa[] } | { cex: Cex } {
  const [c, ...rest] = chain;
  if (!rest.length) {
    const r = premise(ctx, c, undefined, a);
    return r ? { cex: { path: r.path, start: c.startMap(r.start) } } : { assumptions: [] };
  }
  const sigma = [...new Set(rest.flatMap((s) => s.sigma))].sort((x, y) => x - y);
  const local = (w: readonly number[]): Word => w.map((e) => sigma.indexOf(e));
  const total = a.alphabet;
  let below: Dfa[] = [];
  let real: Cex | undefined;
  ctx.learn(sigma.length, {
    member: (u) => violates(ctx, c, u.map((i) => sigma[i]), a) === null,
    conjecture: (candidate) => {
      const b = lift(candidate, sigma, total);
      const v1 = premise(ctx, c, b, a);
      if (v1) return local(v1.path.flatMap((s) => ('consumed' in s ? [s.consumed] : [])));
      const r = holds(ctx, rest, b);
      if ('assumptions' in r) return (below = [b, ...r.assumptions]), null;
      const u = wordOf(r.cex.path);
      const v = violates(ctx, c, u, a);
      if (!v) return local(u);
      real = { path: interleave(v.path, r.cex.path), start: new Map([...c.startMap(v.start), ...r.cex.start]) };
      return null;
    },
  });
  return real ? { cex: real } : { assumptions: below };
}

/** The premises of a chain's proof, each by a fresh search: ⟨B_1⟩ C_1 ⟨A⟩, ⟨B_2⟩ C_2 ⟨B_1⟩, …, ⟨true⟩ C_m ⟨B_{m−1}⟩. */
export function chainHolds(ctx: AgContext, chain: readonly Side[], a: Dfa, assumptions: readonly Dfa[]): boolean {
  return chain.every((c, j) => premise(ctx, c, assumptions[j], j === 0 ? a : assumptions[j - 1]) === null);
}

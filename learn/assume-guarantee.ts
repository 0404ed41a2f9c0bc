/**
 * Assume-guarantee reasoning with a learned assumption (Cobleigh's thesis, Chapter 4):
 * the rule ⟨A⟩ S1 ⟨P⟩, ⟨true⟩ S2 ⟨A⟩ ⊢ ⟨true⟩ S1 ‖ S2 ⟨P⟩ for a split of the threads,
 * P "no error location is reached", and A learned by L* (lstar.ts) from the teacher of
 * §4.1. As LTSA places a shared variable's process on one side (§4.2), S1 holds the
 * memory — every global — and S2 its threads' locals only: an S2 step is, to S1, one
 * event, the values its transition reads from the globals and the values it writes
 * (an S2 step into its error location is marked: Σ_P ∩ Σ_S2). Steps that touch no
 * global are no events. Σ_A is the set of events S2 can make (§4.2.1).
 *
 * S2 alone cannot know the memory, so its reads range over per-global domains that
 * over-approximate the values the globals can take (each thread alone, the memory
 * havocked over the domains found so far, until no new value is written). Finite-state
 * programs only: a domain past `maxValues` values is UNKNOWN.
 */
import { isFrameAtom, type Program, type Transition } from '../frontend/program.js';
import { unprimed, varsOf } from '../solver/formula.js';
import { globalMoves, initialStates, threadModularViews, type Layout, type RealMove } from '../explicit/api.js';
import { replay, type Run } from '../core/replay.js';
import type { TraceStep } from '../core/trace.js';
import { lstar, type Dfa, type LearnStats, type Word } from './lstar.js';

type Vec = readonly bigint[];

/** An S2 step as S1 sees it. */
export interface AgEvent {
  /** Global slots and the values read there. */
  readonly reads: readonly (readonly [number, bigint])[];
  /** Global slots and the values written there. */
  readonly writes: readonly (readonly [number, bigint])[];
  /** The step reaches its thread's error location. */
  readonly err: boolean;
}

export interface AgOptions {
  readonly nondetRange?: readonly [bigint, bigint];
  readonly deadline?: number;
  /** Values a global's domain may hold before the split is given up. */
  readonly maxValues?: number;
  /** States any one search may hold. */
  readonly maxStates?: number;
}

export interface AgStats {
  readonly timeMs: number;
  readonly queries: number;
  readonly conjectures: number;
  /** |Σ_A|. */
  readonly events: number;
  /** The largest state space any one check held (the thesis's memory measure). */
  readonly largestCheck: number;
  /** States of the learned assumption. */
  readonly assumptionStates: number;
}

export type AgOutcome =
  | { readonly verdict: 'safe'; readonly assumption: Dfa; readonly events: readonly string[]; readonly stats: AgStats }
  | { readonly verdict: 'unsafe'; readonly trace: readonly TraceStep[]; readonly stats: AgStats }
  | { readonly verdict: 'unknown'; readonly reason: string; readonly stats: AgStats };

class Unknown extends Error {}

/** One step of a search's run: a thread's move (on S2's side, with the event it makes, if any), or (S1's side) an event consumed. */
type Step = { readonly thread: number; readonly move: RealMove; readonly event?: number | null } | { readonly event: number };

/** Breadth-first search from `starts`; `next` lists successors with the step taken; stops at a state `bad` accepts and returns its path from the start it came from. */
function search<S>(starts: readonly S[], key: (s: S) => string, next: (s: S) => [S, Step][], bad: (s: S) => boolean, maxStates: number, deadline?: number): { path: Step[]; start: S; end: S } | { states: number } {
  const parent = new Map<string, [S, Step] | null>();
  const queue: S[] = [];
  for (const s of starts) if (!parent.has(key(s))) (parent.set(key(s), null), queue.push(s));
  for (let k = 0; k < queue.length; k++) {
    const s = queue[k];
    if (bad(s)) {
      const path: Step[] = [];
      let start = s;
      for (let at = parent.get(key(s)); at; at = parent.get(key(at[0]))) (path.unshift(at[1]), (start = at[0]));
      return { path, start, end: s };
    }
    if ((k & 255) === 0 && deadline !== undefined && performance.now() > deadline) throw new Unknown('timeout');
    for (const [t, step] of next(s)) {
      const kt = key(t);
      if (parent.has(kt)) continue;
      if (parent.size >= maxStates) throw new Unknown(`a check reached its bound of ${maxStates} states`);
      parent.set(kt, [s, step]);
      queue.push(t);
    }
  }
  return { states: parent.size };
}

/** The globals a transition reads (outside its frame atoms) and writes, as slots. */
function footprint(p: Program, layout: Layout, t: Transition): { reads: number[]; writes: number[] } {
  const global = (v: string): boolean => p.vars.get(v)?.owner === null;
  const reads = new Set<number>();
  for (const a of t.atoms) if (!isFrameAtom(a)) for (const v of varsOf(a)) if (v === unprimed(v) && global(v)) reads.add(layout.index.get(v)!);
  return { reads: [...reads].sort((a, b) => a - b), writes: t.writes.filter(global).map((v) => layout.index.get(v)!).sort((a, b) => a - b) };
}

/** Cobleigh's rule for `p` split into threads `s1` (with the memory) and `s2`. */
export function checkAssumeGuarantee(p: Program, s1: readonly number[], s2: readonly number[], opts: AgOptions = {}): AgOutcome {
  const t0 = performance.now();
  const all = [...s1, ...s2].sort((a, b) => a - b);
  if (all.length !== p.threads.length || all.some((k, j) => k !== j)) throw new Error(`internal: the split ${s1.join(',')} | ${s2.join(',')} does not partition the ${p.threads.length} threads`);
  const range = opts.nondetRange ?? [-2n, 2n];
  const maxStates = opts.maxStates ?? 1_000_000;
  const { layout, threads } = globalMoves(p, range);
  const gSlots = p.globals.map((g) => layout.index.get(g)!);
  const localSlots = (ks: readonly number[]): number[] => ks.flatMap((k) => p.threads[k].locals.map((v) => layout.index.get(v)!));
  const s1Slots = [...gSlots, ...localSlots(s1)];
  const s2Slots = localSlots(s2);
  const initial = initialStates(p, layout, range);
  const init = initial.states;
  const errorAt = (k: number, vals: Vec): boolean => p.threads[k].errorPc !== undefined && Number(vals[layout.index.get(p.threads[k].pc)!]) === p.threads[k].errorPc;
  const footprints = new Map<number, { reads: number[]; writes: number[] }>();
  const footprintOf = (t: Transition) => footprints.get(t.id) ?? (footprints.set(t.id, footprint(p, layout, t)), footprints.get(t.id)!);
  let largest = 0;
  let learned: LearnStats = { queries: 0, conjectures: 0 };
  const events: AgEvent[] = [];
  const eventIds = new Map<string, number>();
  const stats = (assumptionStates = 0): AgStats => ({ timeMs: performance.now() - t0, ...learned, events: events.length, largestCheck: largest, assumptionStates });
  const note = (r: { states: number } | { path: Step[] }): void => {
    if ('states' in r) largest = Math.max(largest, r.states);
  };
  let ticks = 0;
  /** Throws when the time is up; cheap enough for inner loops (the clock is read every 256 calls). */
  const tick = (): void => {
    if ((++ticks & 255) === 0 && opts.deadline !== undefined && performance.now() > opts.deadline) throw new Unknown('timeout');
  };
  try {
    // Threads share globals only: one that reads another's locals cannot be split from it.
    for (const th of p.threads)
      for (const t of th.transitions)
        for (const a of t.atoms)
          if (!isFrameAtom(a))
            for (const v of varsOf(a)) {
              const owner = p.vars.get(unprimed(v))?.owner;
              if (owner !== null && owner !== undefined && owner !== th.index) throw new Unknown(`unsupported: ${th.name} reads ${unprimed(v)}, a local of another thread`);
            }
    // What S2 may read: the global valuations of the thread-modular fixpoint's views
    // (Flanagan–Qadeer: they over-approximate the reachable states; exact and re-checked,
    // else none), or else every combination of per-global domains, each thread run alone
    // on a memory havocked over the domains found so far until no new value is written.
    const views = threadModularViews(p, { maxStates, deadline: opts.deadline ?? performance.now() + 60_000 });
    const projected = views?.flatMap((T) => [...T.byPc.values()].flat().map((st) => p.globals.map((name) => st[T.names.indexOf(name)])));
    const domainValuations = projected ? [...new Map(projected.map((g) => [g.join(','), g] as const)).values()] : havocValuations();
    function havocValuations(): bigint[][] {
      const domains = gSlots.map((s) => new Set(init.map((v) => v[s])));
      const valuations = (): bigint[][] => {
        let out: bigint[][] = [[]];
        for (const d of domains) out = out.flatMap((g) => [...d].map((v) => [...g, v]));
        return out;
      };
      const alone = (k: number, each: (vals: Vec, m: RealMove) => void): void => {
        const slots = localSlots([k]);
        const seen = new Set<string>();
        const work = init.map((v) => slots.map((s) => v[s]));
        while (work.length) {
          const l = work.pop()!;
          const key = l.join(',');
          if (seen.has(key)) continue;
          seen.add(key);
          for (const g of valuations()) {
            tick();
            const vals = [...init[0]];
            gSlots.forEach((s, j) => (vals[s] = g[j]));
            slots.forEach((s, j) => (vals[s] = l[j]));
            for (const m of threads[k].real(vals)) (each(vals, m), work.push(slots.map((s) => m.next[s])));
          }
        }
      };
      for (let grown = true; grown; ) {
        grown = false;
        for (const k of p.threads.keys())
          alone(k, (_vals, m) =>
            gSlots.forEach((s, j) => {
              if (!domains[j].has(m.next[s])) (domains[j].add(m.next[s]), (grown = true));
              if (domains[j].size > (opts.maxValues ?? 16)) throw new Unknown(`the values of ${p.globals[j]} grow past ${opts.maxValues ?? 16}: the program is not finite-state enough for this split`);
            }),
          );
      }
      return valuations();
    }

    // S2 alone, its reads over the domains: its steps, as events (alphabet), from each S2 local state.
    const eventOf = (k: number, vals: Vec, m: RealMove): number | null => {
      const f = footprintOf(m.t);
      const err = errorAt(k, m.next);
      if (!f.reads.length && !f.writes.length && !err) return null;
      const e: AgEvent = { reads: f.reads.map((s) => [s, vals[s]] as const), writes: f.writes.map((s) => [s, m.next[s]] as const), err };
      const key = JSON.stringify([e.reads.map(([s, v]) => [s, String(v)]), e.writes.map(([s, v]) => [s, String(v)]), err]);
      let id = eventIds.get(key);
      if (id === undefined) (id = events.length), eventIds.set(key, id), events.push(e);
      return id;
    };
    const s2Next = (l: Vec): [Vec, Step, number | null][] => {
      const out: [Vec, Step, number | null][] = [];
      const seen = new Set<string>();
      for (const g of domainValuations) {
        tick();
        const vals = [...init[0]];
        gSlots.forEach((s, j) => (vals[s] = g[j]));
        s2Slots.forEach((s, j) => (vals[s] = l[j]));
        for (const k of s2)
          for (const m of threads[k].real(vals)) {
            const e = eventOf(k, vals, m);
            const n = s2Slots.map((s) => m.next[s]);
            const key = `${e}|${k}|${m.t.id}|${n.join(',')}`;
            if (!seen.has(key)) (seen.add(key), out.push([n, { thread: k, move: m, event: e }, e]));
          }
      }
      return out;
    };
    const s2Start: Vec[] = init.map((v) => s2Slots.map((s) => v[s]));
    // Σ_A: every event of S2's steps from the local states S2 reaches alone.
    note(search<Vec>(s2Start, (l) => l.join(','), (l) => s2Next(l).map(([n, st]) => [n, st]), () => false, maxStates, opts.deadline));

    // S1 with the memory, consuming events.
    const s1Key = (v: Vec): string => s1Slots.map((s) => v[s]).join(',');
    const applies = (e: AgEvent, v: Vec): boolean => e.reads.every(([s, x]) => v[s] === x);
    const consume = (e: AgEvent, v: Vec): bigint[] => {
      const out = [...v];
      for (const [s, x] of e.writes) out[s] = x;
      return out;
    };
    const s1Moves = (v: Vec): [Vec, Step][] => s1.flatMap((k) => threads[k].real(v).map((m): [Vec, Step] => [m.next, { thread: k, move: m }]));
    const s1Error = (v: Vec): boolean => s1.some((k) => errorAt(k, v));
    /** A run of S1 that consumes `w` (or a prefix of it ending in an err event) and reaches an error, or null. */
    const violates = (w: Word): { path: Step[]; start: Vec } | null => {
      type N = { v: Vec; i: number; err: boolean };
      const r = search<N>(
        init.map((v) => ({ v: [...v], i: 0, err: false })),
        (n) => `${n.i}|${n.err}|${s1Key(n.v)}`,
        (n) => {
          if (n.err) return [];
          const out: [N, Step][] = s1Moves(n.v).map(([v, st]) => [{ v, i: n.i, err: false }, st]);
          const e = events[w[n.i]];
          if (n.i < w.length && applies(e, n.v)) out.push([{ v: consume(e, n.v), i: n.i + 1, err: e.err }, { event: w[n.i] }]);
          return out;
        },
        (n) => n.err || s1Error(n.v),
        maxStates,
        opts.deadline,
      );
      note(r);
      return 'path' in r ? { path: r.path, start: r.start.v } : null;
    };

    /** Premise 1, ⟨C⟩ S1 ⟨P⟩: the events of a run of S1 under C that reaches an error (C accepts them), or null. */
    const premise1 = (c: Dfa): Word | null => {
      type N = { v: Vec; q: number; err: boolean; w: Word };
      const r = search<N>(
        c.accepting[0] ? init.map((v) => ({ v: [...v], q: 0, err: false, w: [] })) : [],
        (n) => `${n.q}|${n.err}|${s1Key(n.v)}`,
        (n) => {
          if (n.err) return [];
          const out: [N, Step][] = s1Moves(n.v).map(([v, st]) => [{ ...n, v }, st]);
          events.forEach((e, id) => {
            const q = c.next[n.q][id];
            if (c.accepting[q] && applies(e, n.v)) out.push([{ v: consume(e, n.v), q, err: e.err, w: [...n.w, id] }, { event: id }]);
          });
          return out;
        },
        (n) => n.err || s1Error(n.v),
        maxStates,
        opts.deadline,
      );
      note(r);
      return 'end' in r ? r.end.w : null;
    };

    /** Premise 2, ⟨true⟩ S2 ⟨C⟩: S2's run and events up to the first event C rejects, or null. */
    const premise2 = (c: Dfa): { w: Word; path: Step[]; start: Vec } | null => {
      type N = { l: Vec; q: number; w: Word };
      const r = search<N>(
        s2Start.map((l) => ({ l, q: 0, w: [] })),
        (n) => `${n.q}|${n.l.join(',')}`,
        (n) => (c.accepting[n.q] ? s2Next(n.l).map(([l, st, e]): [N, Step] => [e === null ? { ...n, l } : { l, q: c.next[n.q][e], w: [...n.w, e] }, st]) : []),
        (n) => !c.accepting[n.q],
        maxStates,
        opts.deadline,
      );
      note(r);
      return 'end' in r ? { w: r.end.w, path: r.path, start: r.start.l } : null;
    };

    let real: { s1: Step[]; s2: Step[]; start: Vec } | undefined;
    const empty = violates([]);
    if (empty) real = { s1: empty.path, s2: [], start: empty.start };
    const result = real
      ? undefined
      : lstar(events.length, {
          member: (w) => violates(w) === null,
          conjecture: (c) => {
            const w1 = premise1(c);
            if (w1) return w1;
            const v2 = premise2(c);
            if (!v2) return null;
            const s1run = violates(v2.w);
            if (!s1run) return v2.w;
            const start = [...s1run.start];
            s2Slots.forEach((s, j) => (start[s] = v2.start[j]));
            real = { s1: s1run.path, s2: v2.path, start };
            return null;
          },
        }, opts.deadline);
    if (result) learned = result.stats;
    if (real) return unsafe(p, layout, real.start, real.s1, real.s2, footprintOf, stats());
    if (!result || 'timeout' in result) throw new Unknown('timeout');
    // The proof, re-checked by fresh searches of both premises against the final assumption.
    if (premise1(result.dfa) || premise2(result.dfa)) throw new Unknown('internal: the learned assumption fails a premise on its re-check');
    // A choice the program does not bound was drawn from the range: the proof covers those values only.
    if (initial.clipped || threads.some((m) => m.clipped)) throw new Unknown(`no violation with nondeterministic values in ${range[0]}..${range[1]}, which the program does not bound itself`);
    return { verdict: 'safe', assumption: result.dfa, events: events.map((e) => showEvent(p, layout, e)), stats: stats(result.dfa.accepting.length) };
  } catch (e) {
    if (e instanceof Unknown) return { verdict: 'unknown', reason: e.message, stats: stats() };
    throw e;
  }
}

/** An event as `x==1 y==0 / x=0` (`!err` when it reaches an error). */
export function showEvent(p: Program, layout: Layout, e: AgEvent): string {
  const name = (s: number): string => p.vars.get(layout.names[s])?.cname ?? layout.names[s];
  return [...e.reads.map(([s, v]) => `${name(s)}==${v}`), '/', ...e.writes.map(([s, v]) => `${name(s)}=${v}`), ...(e.err ? ['!err'] : [])].join(' ');
}

/**
 * The global run of a violation: S1's run, with S2's steps for each event it consumes
 * (and S2's eventless steps before it) put in where S1 consumed it, then replayed in the
 * interpreter: UNSAFE only if it replays. An S2 step was computed on guessed values of
 * the globals it does not read; it keeps the actual ones and sets only what it writes.
 */
function unsafe(p: Program, layout: Layout, start: Vec, s1: readonly Step[], s2: readonly Step[], footprintOf: (t: Transition) => { writes: number[] }, stats: AgStats): AgOutcome {
  const queue = [...s2];
  const steps: { transition: Transition; aux: ReadonlyMap<string, bigint> }[] = [];
  const states: Vec[] = [start];
  const take = (thread: number, m: RealMove, own: boolean): void => {
    const next = [...states[states.length - 1]];
    // S1's steps ran on the actual memory (all globals are right); S2's on guessed values of the globals they do not read.
    const globals = own ? p.globals.map((g) => layout.index.get(g)!) : footprintOf(m.t).writes;
    const slots = [...p.threads[thread].locals.map((v) => layout.index.get(v)!), ...globals];
    for (const s of slots) next[s] = m.next[s];
    steps.push({ transition: m.t, aux: new Map(m.t.aux.map((a, j) => [a, m.aux[j]] as const)) });
    states.push(next);
  };
  for (const st of s1) {
    if ('thread' in st) take(st.thread, st.move, true);
    else
      for (let s = queue.shift(); s && 'thread' in s; s = queue.shift()) {
        take(s.thread, s.move, false);
        if (s.event !== null && s.event !== undefined) break;
      }
  }
  const names = [...p.vars.keys()];
  const run: Run = { states: states.map((v) => new Map(names.map((n) => [n, v[layout.index.get(n)!]]))), steps };
  const r = replay(p, run);
  if ('failure' in r) return { verdict: 'unknown', reason: `the violation S1 and S2 agree on is not a run of the program (${r.failure})`, stats };
  return { verdict: 'unsafe', trace: r.trace, stats };
}

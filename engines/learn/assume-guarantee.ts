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
 * S2 alone cannot know the memory, so its reads range over valuations of it: those S1
 * reaches under the assumption, found round by round (`round`). With more than two components
 * S2 is itself split (C_2 | … | C_m) and ⟨true⟩ S2 ⟨A⟩ checked by the rule again, one
 * level down: Cobleigh's generalized decompositions (Chapter 5). Finite-state programs
 * only.
 */
import { isFrameAtom, type Program, type Transition } from '../../program/program.js';
import { unprimed, varsOf } from '../../solver/formula.js';
import { globalMoves, initialStates, type Layout } from '../state-space/api.js';
import { replay, type Run } from '../../core/replay.js';
import type { TraceStep } from '../../core/trace.js';
import { lstar, type Dfa, type Word } from './lstar.js';
import { interleave, lift, search, wordOf, Unknown, type Step, type Vec } from './search.js';
import { Memoryless, Side, chainHolds, errorAt, holds, localSlots, type AgContext, type AgEvent } from './sides.js';

export type { AgEvent } from './sides.js';

export interface AgOptions {
  readonly nondetRange?: readonly [bigint, bigint];
  readonly deadline?: number;
  /** States any one search may hold. */
  readonly maxStates?: number;
}

export interface AgStats {
  readonly timeMs: number;
  /** Over every level's L*. */
  readonly queries: number;
  readonly conjectures: number;
  /** |Σ_A|. */
  readonly events: number;
  /** The largest state space any one check held (the thesis's memory measure). */
  readonly largestCheck: number;
  /** S1's states kept between checks (its moves are computed once). */
  readonly cachedStates: number;
  /** States of the learned assumption A (on S2). */
  readonly assumptionStates: number;
  /** States of every level's assumption, A first. */
  readonly assumptions: readonly number[];
}

export type AgOutcome =
  | { readonly verdict: 'safe'; readonly assumption: Dfa; readonly events: readonly string[]; readonly stats: AgStats }
  | { readonly verdict: 'unsafe'; readonly trace: readonly TraceStep[]; readonly stats: AgStats }
  | { readonly verdict: 'unknown'; readonly reason: string; readonly stats: AgStats };

/** Prefixes' reachable sets kept for membership queries, in states (then forgotten). */
const LAYER_CACHE = 2_000_000;

/**
 * Cobleigh's rule for `p` split into `components` (thread indices): the first, S1,
 * with the memory; two components are the two-way rule, more the generalized
 * decomposition C_1 | (C_2 | (… | C_m)).
 */
export function checkAssumeGuarantee(p: Program, components: readonly (readonly number[])[], opts: AgOptions = {}): AgOutcome {
  const t0 = performance.now();
  const all = components.flat().sort((a, b) => a - b);
  if (components.length < 2 || components.some((c) => !c.length) || all.length !== p.threads.length || all.some((k, j) => k !== j))
    throw new Error(`internal: the split ${components.map((c) => c.join(',')).join(' | ')} does not partition the ${p.threads.length} threads in two or more`);
  const s1 = components[0];
  const range = opts.nondetRange ?? [-2n, 2n];
  const maxStates = opts.maxStates ?? 1_000_000;
  const { layout, threads } = globalMoves(p, range);
  const initial = initialStates(p, layout, range);
  const init = initial.states;
  let largest = 0;
  let [queries, conjectures] = [0, 0];
  let events: readonly AgEvent[] = [];
  let assumptions: number[] = [];
  let ticks = 0;
  const s1Vecs: Vec[] = [];
  const stats = (): AgStats => ({ timeMs: performance.now() - t0, queries, conjectures, events: events.length, largestCheck: largest, cachedStates: s1Vecs.length, assumptionStates: assumptions[0] ?? 0, assumptions });
  const ctx: AgContext = {
    p,
    layout,
    threads,
    init,
    maxStates,
    // The clock is read every 256 calls: cheap enough for inner loops.
    tick: () => {
      if ((++ticks & 255) === 0 && opts.deadline !== undefined && performance.now() > opts.deadline) throw new Unknown('timeout');
    },
    note: (states) => void (largest = Math.max(largest, states)),
    // Counted here, as the teacher answers: a deadline may end L* inside a query.
    learn: (alphabet, teacher) => {
      const r = lstar(alphabet, { member: (w) => (queries++, teacher.member(w)), conjecture: (c) => (conjectures++, teacher.conjecture(c)) }, opts.deadline);
      if ('timeout' in r) throw new Unknown('timeout');
      return r.dfa;
    },
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
    // S1 with the memory, its states interned: their moves are computed once for every check.
    const gSlots = p.globals.map((g) => layout.index.get(g)!);
    const s1Slots = [...gSlots, ...localSlots(ctx, s1)];
    const s1Ids = new Map<string, number>();
    const s1Succ: [number, Step][][] = [];
    const s1Err: boolean[] = [];
    const intern = (v: Vec): number => {
      const key = s1Slots.map((s) => v[s]).join(',');
      let id = s1Ids.get(key);
      if (id === undefined) {
        if (s1Vecs.length >= maxStates) throw new Unknown(`S1 reached its bound of ${maxStates} states`);
        (id = s1Vecs.length), s1Ids.set(key, id), s1Vecs.push(v), s1Err.push(s1.some((k) => errorAt(ctx, k, v)));
      }
      return id;
    };
    // A move keeps the interned state as its successor, so a state reached again is held once.
    const succ = (id: number): [number, Step][] =>
      (s1Succ[id] ??= s1.flatMap((k) =>
        threads[k].real(s1Vecs[id]).map((m): [number, Step] => {
          const to = intern(m.next);
          return [to, { thread: k, move: { t: m.t, aux: m.aux, next: s1Vecs[to] }, event: null }];
        }),
      ));
    const initIds = init.map(intern);
    const memoryOf = (id: number): bigint[] => gSlots.map((s) => s1Vecs[id][s]);

    // What the other components may read: the memory's valuations, from the initial ones on,
    // grown by those S1 reaches under a proof's assumption until the proof reads no new one
    // (then no run of the program leaves them: see `round`).
    let valuations = [...new Map(initIds.map((id) => [memoryOf(id).join(','), memoryOf(id)] as const)).values()];
    for (;;) {
      const r = round(valuations);
      if ('outcome' in r) return r.outcome;
      valuations = [...valuations, ...r.more];
    }

    /**
     * One round of learning with the other components reading `valuations`: UNSAFE by a
     * run that replays, or a proof re-checked, or the valuations S1 reaches under the
     * proof's assumption beyond those read. A proof whose S1 side reaches no new
     * valuation is one for the program: a run that first reads a valuation outside
     * would, up to that point, be a run of the components as checked, hence of S1 under
     * the assumption, which reaches none.
     */
    function round(read: readonly bigint[][]): { outcome: AgOutcome } | { more: bigint[][] } {
      assumptions = [];
      const memoryless = new Memoryless(ctx, read);
      const chain = components.slice(1).map((ks) => new Side(memoryless, ks));
      events = memoryless.events;
      const total = events.length;
      const sigma = [...new Set(chain.flatMap((c) => c.sigma))].sort((x, y) => x - y);
      const s1After: Int32Array[] = [];
      /** The state S1 is in after consuming event e at `id`; −1 where e does not apply (its reads do not hold). */
      const after = (id: number, e: number): number => {
        const row = (s1After[id] ??= new Int32Array(total).fill(-2));
        if (row[e] === -2) {
          const v = s1Vecs[id];
          const ev = events[e];
          row[e] = ev.reads.every(([s, x]) => v[s] === x) ? intern(v.map((x, s) => ev.writes.find(([w]) => w === s)?.[1] ?? x)) : -1;
        }
        return row[e];
      };

      // Membership (§4.1): does S1, consuming w, reach an error? By the sets S1 reaches after each prefix, kept in a trie for the next query (the answers are prefix-closed).
      type Layer = { readonly set: Int32Array | null; kids: Map<number, Layer> };
      let root: Layer | undefined;
      let layered = 0;
      let mark = new Int32Array(1024);
      let stamp = 0;
      const closure = (seed: readonly number[]): Int32Array | null => {
        stamp++;
        const queue: number[] = [];
        const visit = (x: number): void => {
          if (x >= mark.length) mark = Int32Array.from({ length: 2 * x + 1 }, (_, i) => mark[i] ?? 0);
          if (mark[x] !== stamp) (mark[x] = stamp), queue.push(x);
        };
        seed.forEach(visit);
        for (let i = 0; i < queue.length; i++) {
          ctx.tick();
          if (s1Err[queue[i]]) return null;
          for (const [t] of succ(queue[i])) visit(t);
        }
        return Int32Array.from(queue);
      };
      const member = (w: Word): boolean => {
        let node = (root ??= { set: closure(initIds), kids: new Map() });
        let held = node.set?.length ?? 0;
        for (const e of w) {
          if (!node.set?.length) break;
          let kid = node.kids.get(e);
          if (!kid) {
            const next = [...node.set].map((x) => after(x, e)).filter((x) => x >= 0);
            kid = { set: events[e].err && next.length ? null : closure(next), kids: new Map() };
            if ((layered += kid.set?.length ?? 0) > LAYER_CACHE) (root.kids = new Map()), (layered = 0);
            node.kids.set(e, kid);
          }
          node = kid;
          held += node.set?.length ?? 0;
        }
        ctx.note(held);
        return node.set !== null;
      };
      type N = { id: number; q: number; err: boolean };
      /** S1's search, its own moves and those `events` gives, to an error; `seen` collects the states it expands. */
      const s1Search = (starts: N[], events: (n: N) => [N, Step][], seen?: Set<number>): { path: Step[]; start: N } | null => {
        const next = (n: N): [N, Step][] => (seen?.add(n.id), n.err ? [] : [...succ(n.id).map(([id, st]): [N, Step] => [{ ...n, id }, st]), ...events(n)]);
        const r = search<N>(starts, (n) => `${n.q}|${n.err}|${n.id}`, next, (n) => n.err || s1Err[n.id], maxStates, ctx.tick);
        if ('states' in r) return (ctx.note(r.states), null);
        return r;
      };
      /** A run of S1 consuming `w` (or a prefix of it ending in an err event) into an error, or null. */
      const violation = (w: Word): { path: Step[]; start: Vec } | null => {
        const r = s1Search(initIds.map((id) => ({ id, q: 0, err: false })), (n) => {
          const to = n.q < w.length ? after(n.id, w[n.q]) : -1;
          return to < 0 ? [] : [[{ id: to, q: n.q + 1, err: events[w[n.q]].err }, { consumed: w[n.q] }]];
        });
        return r && { path: r.path, start: s1Vecs[r.start.id] };
      };
      /** Premise 1, ⟨A⟩ S1 ⟨P⟩: the events of a run of S1 under A (over all events) that reaches an error, or null. */
      const premise1 = (a: Dfa, seen?: Set<number>): Word | null => {
        const r = s1Search(
          a.accepting[0] ? initIds.map((id) => ({ id, q: 0, err: false })) : [],
          (n) =>
            a.next[n.q].flatMap((q, e): [N, Step][] => {
              const to = a.accepting[q] ? after(n.id, e) : -1;
              return to < 0 ? [] : [[{ id: to, q, err: events[e].err }, { consumed: e }]];
            }),
          seen,
        );
        return r && wordOf(r.path);
      };

      const local = (w: readonly number[]): Word => w.map((e) => sigma.indexOf(e));
      let real: { s1: Step[]; s2: readonly Step[]; start: Vec } | undefined;
      let proof: { a: Dfa; below: Dfa[] } | undefined;
      const empty = violation([]);
      if (empty) real = { s1: empty.path, s2: [], start: empty.start };
      else
        ctx.learn(sigma.length, {
          member: (w) => member(w.map((i) => sigma[i])),
          conjecture: (candidate) => {
            const a = lift(candidate, sigma, total);
            const w1 = premise1(a);
            if (w1) return local(w1);
            const r = holds(ctx, chain, a);
            if ('assumptions' in r) return (proof = { a, below: r.assumptions }), null;
            const s1run = violation(wordOf(r.cex.path));
            if (!s1run) return local(wordOf(r.cex.path));
            const start = [...s1run.start];
            for (const [s, v] of r.cex.start) start[s] = v;
            real = { s1: s1run.path, s2: r.cex.path, start };
            return null;
          },
        });
      if (events.length !== total) throw new Error('internal: an event appeared after the alphabet was fixed');
      if (real) return { outcome: unsafe(p, layout, real.start, interleave(real.s1, real.s2), s1, (t) => memoryless.footprintOf(t), stats()) };
      if (!proof) throw new Error('internal: L* ended without a proof or a violation');
      assumptions = [proof.a, ...proof.below].map((d) => d.accepting.filter((x) => x).length);
      // The proof, re-checked by fresh searches of every premise against the final assumptions.
      const seen = new Set<number>();
      if (premise1(proof.a, seen) || !chainHolds(ctx, chain, proof.a, proof.below)) throw new Unknown('internal: a learned assumption fails a premise on its re-check');
      const known = new Set(read.map((g) => g.join(',')));
      const more = new Map<string, bigint[]>();
      for (const id of seen) {
        const g = memoryOf(id);
        if (!known.has(g.join(','))) more.set(g.join(','), g);
      }
      if (more.size) return { more: [...more.values()] };
      // A choice the program does not bound was drawn from the range: the proof covers those values only.
      if (initial.clipped || threads.some((m) => m.clipped)) throw new Unknown(`no violation with nondeterministic values in ${range[0]}..${range[1]}, which the program does not bound itself`);
      return { outcome: { verdict: 'safe', assumption: proof.a, events: events.map((e) => showEvent(p, layout, e)), stats: stats() } };
    }
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
 * The global run of a violation, S1's run with the other sides' steps put in where S1
 * consumed their events, replayed in the interpreter: UNSAFE only if it replays. A
 * memoryless side's step was computed on guessed values of the globals it does not
 * read; it keeps the actual ones and sets only its locals and what it writes.
 */
function unsafe(p: Program, layout: Layout, start: Vec, merged: readonly Step[], s1: readonly number[], footprintOf: (t: Transition) => { writes: number[] }, stats: AgStats): AgOutcome {
  const steps: Run['steps'][number][] = [];
  const states: Vec[] = [start];
  for (const st of merged) {
    if ('consumed' in st) throw new Error('internal: a merged run consumes an event');
    const { thread, move: m } = st;
    const next = [...states[states.length - 1]];
    const globals = s1.includes(thread) ? p.globals.map((g) => layout.index.get(g)!) : footprintOf(m.t).writes;
    for (const s of [...p.threads[thread].locals.map((v) => layout.index.get(v)!), ...globals]) next[s] = m.next[s];
    steps.push({ transition: m.t, aux: new Map(m.t.aux.map((a, j) => [a, m.aux[j]] as const)) });
    states.push(next);
  }
  const names = [...p.vars.keys()];
  const run: Run = { states: states.map((v) => new Map(names.map((n) => [n, v[layout.index.get(n)!]]))), steps };
  const r = replay(p, run);
  if ('failure' in r) return { verdict: 'unknown', reason: `the violation the components agree on is not a run of the program (${r.failure})`, stats };
  return { verdict: 'unsafe', trace: r.trace, stats };
}

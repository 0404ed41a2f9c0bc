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
 * S2 alone cannot know the memory, so its reads range over a set R of valuations of the
 * globals it reads, grown round by round (round.ts) by those S1 and S2 really reach;
 * Σ_A starts small and grows by alphabet refinement. With more than two components
 * S2 is itself split (C_2 | … | C_m) and ⟨true⟩ S2 ⟨A⟩ checked by the rule again, one
 * level down: Cobleigh's generalized decompositions (Chapter 5). Finite-state programs
 * only.
 */
import { isFrameAtom, type Program, type Transition } from '../../program/program.js';
import { unprimed, varsOf } from '../../solver/formula.js';
import { globalMoves, initialStates, type Layout, type ThreadMoves } from '../state-space/api.js';
import { replay, type Run } from '../../core/replay.js';
import type { TraceStep } from '../../core/trace.js';
import { lstar, type ConjectureNote, type Dfa, type Table } from './lstar.js';
import { MemorySide } from './memory-side.js';
import { Membership } from './membership.js';
import { ReadSet } from './read-set.js';
import { Round, eventsOf, type AssumptionTarget } from './round.js';
import { interleave, Unknown, type Step, type Vec } from './search.js';
import { Memoryless, footprint, type AgContext, type AgEvent } from './sides.js';
import { ranOut, type Budget } from '../../core/budget.js';

export type { AgEvent } from './sides.js';

export interface AgOptions {
  readonly nondetRange?: readonly [bigint, bigint];
  /** Ticked per state of a check: past its deadline or memory limit the check stops (UNKNOWN); Cancelled from it is thrown on. */
  readonly budget?: Budget;
  /** States any one search may hold. */
  readonly maxStates?: number;
  /** What L* learns (round.ts); default strongest. */
  readonly assumption?: AssumptionTarget;
  /** Told of every conjecture and every end of a round (diagnostics). */
  readonly onProgress?: (note: ProgressNote) => void;
}

/** What `onProgress` is told: a conjecture of L* (with its table's size and counterexample), or how a round ended. */
export type ProgressNote =
  | ({ readonly kind: 'conjecture'; readonly round: number; readonly level: number } & ConjectureNote)
  | { readonly kind: 'round'; readonly round: number; readonly end: 'proof' | 'violation' | 'grow' | 'refine'; readonly added: number; readonly visible: number; readonly hidden: number; readonly read: number };

export interface AgStats {
  readonly timeMs: number;
  /** Over every level's L*. */
  readonly queries: number;
  readonly conjectures: number;
  /** The events S2 can make (|Σ|) … */
  readonly events: number;
  /** … and those the assumption sees (|Σ_A|), after alphabet refinement. */
  readonly visible: number;
  /** Rounds of L*: one per read set and interface alphabet. */
  readonly rounds: number;
  /** Valuations of the memory S2 reads from at the end. */
  readonly read: number;
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

/** What a check has counted so far, for its statistics. */
interface Tally {
  largest: number;
  queries: number;
  conjectures: number;
  events: number;
  visible: number;
  rounds: number;
  read: number;
  /** L*'s nesting: 0 for A, 1 for the level below, … */
  level: number;
  /** The states of the assumptions, once there is a proof. */
  assumptions: number[];
}

/**
 * Cobleigh's rule for `p` split into `components` (thread indices): the first, S1,
 * with the memory; two components are the two-way rule, more the generalized
 * decomposition C_1 | (C_2 | (… | C_m)).
 *
 * Rounds (round.ts) learn A for a read set R and an interface alphabet Σ_A, starting from
 * the initial valuations and no visible event but S2's errors. A round ends with a
 * proof; a violation; valuations S1 and S2 really reach outside R (R grows); or hidden
 * events that made a counterexample spurious (Σ_A grows). Each round starts from the
 * last one's observation table. The proof's property includes "the memory stays in R":
 * a run that first left R would, up to there, be a run of S2 over R and of S1 under A,
 * which premise 1 excludes; so every run reads from R, and premise 2 covers S2's part.
 */
export function checkAssumeGuarantee(p: Program, components: readonly (readonly number[])[], opts: AgOptions = {}): AgOutcome {
  const t0 = performance.now();
  const all = components.flat().sort((a, b) => a - b);
  if (components.length < 2 || components.some((c) => !c.length) || all.length !== p.threads.length || all.some((k, j) => k !== j))
    throw new Error(`internal: the split ${components.map((c) => c.join(',')).join(' | ')} does not partition the ${p.threads.length} threads in two or more`);
  const range = opts.nondetRange ?? [-2n, 2n];
  const { layout, threads } = globalMoves(p, range);
  const initial = initialStates(p, layout, range);
  const tally: Tally = { largest: 0, queries: 0, conjectures: 0, events: 0, visible: 0, rounds: 0, read: 0, level: 0, assumptions: [] };
  const ctx = context(p, layout, threads, initial.states, opts, tally);
  const s1 = new MemorySide(ctx, components[0]);
  const read = new ReadSet(new Map(components.slice(1).flat().map((k) => [k, [...new Set(p.threads[k].transitions.flatMap((t) => footprint(p, layout, t).reads))].sort((a, b) => a - b)])));
  const memoryless = new Memoryless(ctx, read);
  const stats = (): AgStats => ({
    timeMs: performance.now() - t0,
    queries: tally.queries,
    conjectures: tally.conjectures,
    events: tally.events,
    visible: tally.visible,
    rounds: tally.rounds,
    read: tally.read,
    largestCheck: tally.largest,
    cachedStates: s1.vecs.length,
    assumptionStates: tally.assumptions[0] ?? 0,
    assumptions: tally.assumptions,
  });
  try {
    readsNoOtherLocals(p);
    const initIds = initial.states.map((v) => s1.intern(v));
    for (const v of initial.states) read.add(v);
    let alphabet: number[] = [];
    let membership: Membership | undefined;
    let seed: Table | undefined;
    const rest = components.slice(1);
    for (;;) {
      tally.rounds++;
      memoryless.readAgain();
      const sigma = eventsOf(memoryless, rest);
      const fresh = sigma.filter((e) => !alphabet.includes(e) && !membership?.hidden.has(e));
      // Once L* has asked, events new with R are seen, so its answers stand; before, they are
      // hidden but S2's errors (a hidden one could not be told apart from a harmless step).
      if (membership?.used) alphabet = [...alphabet, ...fresh];
      else {
        alphabet = [...alphabet, ...fresh.filter((e) => memoryless.events[e].err)];
        membership = new Membership(ctx, s1, initIds, memoryless.events, read, new Set(sigma.filter((e) => !alphabet.includes(e))));
      }
      const round = new Round(ctx, s1, initIds, memoryless, rest, membership, alphabet, opts.assumption ?? 'strongest');
      Object.assign(tally, { events: sigma.length, visible: alphabet.length, read: read.size, level: 0, assumptions: [] });
      const { end, table } = round.learn(seed);
      seed = table;
      const note = (kind: 'proof' | 'violation' | 'grow' | 'refine', added: number): void =>
        opts.onProgress?.({ kind: 'round', round: tally.rounds, end: kind, added, visible: alphabet.length, hidden: membership?.hidden.size ?? 0, read: read.size });
      if ('violation' in end) {
        note('violation', 0);
        const { start, s1: s1run, s2 } = end.violation;
        return unsafe(p, layout, start, interleave(s1run, s2), s1.ks, (t) => memoryless.footprintOf(t), stats());
      }
      if ('grow' in end) {
        note('grow', end.grow);
        continue;
      }
      if ('refine' in end) {
        note('refine', end.refine.length);
        alphabet = [...alphabet, ...end.refine];
        membership = undefined;
        continue;
      }
      note('proof', 0);
      tally.assumptions = [end.proof.a, ...end.proof.below].map((d) => d.accepting.filter((x) => x).length);
      if (!round.recheck(end.proof)) throw new Unknown('internal: a learned assumption fails a premise on its re-check');
      // A choice the program does not bound was drawn from the range: the proof covers those values only.
      if (initial.clipped || threads.some((m) => m.clipped)) throw new Unknown(`no violation with nondeterministic values in ${range[0]}..${range[1]}, which the program does not bound itself`);
      return { verdict: 'safe', assumption: end.proof.a, events: alphabet.map((e) => showEvent(p, layout, memoryless.events[e])), stats: stats() };
    }
  } catch (e) {
    return { verdict: 'unknown', reason: e instanceof Unknown ? e.message : ranOut(e).message, stats: stats() };
  }
}

/** The sides' shared context: the bounds, the clock, and the counts kept in `tally`. */
function context(p: Program, layout: Layout, threads: readonly ThreadMoves[], init: readonly Vec[], opts: AgOptions, tally: Tally): AgContext {
  const { budget, onProgress } = opts;
  return {
    p,
    layout,
    threads,
    init,
    maxStates: opts.maxStates ?? 1_000_000,
    tick: () => budget?.tick(),
    note: (states) => void (tally.largest = Math.max(tally.largest, states)),
    // Counted here, as the teacher answers: a deadline may end L* inside a query.
    learn: (alphabet, teacher, seed) => {
      const level = tally.level++;
      try {
        return lstar(
          alphabet,
          { member: (w) => (tally.queries++, teacher.member(w)), conjecture: (c) => (tally.conjectures++, teacher.conjecture(c)) },
          { budget, seed, onConjecture: onProgress && ((n) => onProgress({ kind: 'conjecture', round: tally.rounds, level, ...n })) },
        );
      } finally {
        tally.level--;
      }
    },
  };
}

/** Threads share globals only: one that reads another's locals cannot be split from it (Unknown). */
function readsNoOtherLocals(p: Program): void {
  for (const th of p.threads)
    for (const t of th.transitions)
      for (const a of t.atoms)
        if (!isFrameAtom(a))
          for (const v of varsOf(a)) {
            const owner = p.vars.get(unprimed(v))?.owner;
            if (owner !== null && owner !== undefined && owner !== th.index) throw new Unknown(`unsupported: ${th.name} reads ${unprimed(v)}, a local of another thread`);
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

/**
 * One round of the rule (assume-guarantee.ts) for a fixed read set R (read-set.ts) and a
 * fixed interface alphabet Σ_A. The components after S1 read the memory from R; L*
 * learns an assumption A over Σ_A with the teacher of Cobleigh's §4.1, the property being
 * "no error, and the memory stays in R". Its target: what S2 makes (strongest,
 * producible.ts) or every word S1 stays good with (weakest, Cobleigh's, membership.ts);
 * any A between the two is a proof. The other events S2 can make are hidden from A: S1
 * may consume them at any time (Gheorghiu, Giannakopoulou, Păsăreanu, "Refining interface
 * alphabets for compositional verification", TACAS'07). A counterexample that the hidden
 * events make spurious ends the round with the events to show A (alphabet refinement);
 * one S2 really makes ends it with a violation, or with R grown by what S1 and S2 really
 * reach outside it. */
import type { Dfa, Table, Word } from './lstar.js';
import type { MemorySide } from './memory-side.js';
import type { Membership } from './membership.js';
import { Producible } from './producible.js';
import { lift, search, wordOf, type Step, type Vec } from './search.js';
import { Side, chainHolds, holds, produce, type AgContext, type Memoryless } from './sides.js';

/** A state of S1's searches: an interned state, the state of the word or DFA it consumes, whether an err event was consumed. */
type N = { id: number; q: number; err: boolean };

/** Where a search's successors go, each state as its number. */
type Successors = { readonly out: [number, Step][]; readonly code: (id: number, q: number, err: boolean) => number };

/** A violation both sides agree on: S1's run, the other components' run whose events it consumed, the state they start from. */
export interface Violation {
  readonly s1: readonly Step[];
  readonly s2: readonly Step[];
  readonly start: Vec;
}

/** A proof: the assumption A over Σ_A (its letter i is event alphabet[i]), lifted over every event, and the assumptions of the levels below (generalized decomposition). */
export interface Proof {
  readonly a: Dfa;
  readonly lifted: Dfa;
  readonly below: readonly Dfa[];
}

/** What L* learns (see Round). */
export type AssumptionTarget = 'strongest' | 'weakest';

export type RoundEnd =
  | { readonly proof: Proof }
  | { readonly violation: Violation }
  /** R has grown by this many views (thread, values of the globals it reads) that S1 and S2 together reach. */
  | { readonly grow: number }
  /** Hidden events to show the assumption. */
  | { readonly refine: readonly number[] };

/** What a round's L* ends with: how the round ends, and its table to seed the next. */
export interface RoundResult {
  readonly end: RoundEnd;
  readonly table: Table;
}

/** The events the components make (over the read set memoryless has now). */
export function eventsOf(memoryless: Memoryless, components: readonly (readonly number[])[]): number[] {
  return [...new Set(components.flatMap((ks) => new Side(memoryless, ks).sigma))].sort((x, y) => x - y);
}

export class Round {
  private readonly hidden: ReadonlySet<number>;
  private readonly letter: Map<number, number>;
  private readonly chain: Side[];
  /** Every component after S1 as one, to ask whether it makes a word. */
  private readonly s2: Side;

  constructor(
    private readonly ctx: AgContext,
    private readonly s1: MemorySide,
    private readonly initIds: readonly number[],
    private readonly memoryless: Memoryless,
    components: readonly (readonly number[])[],
    /** Membership queries over R, the hidden events free. */
    private readonly membership: Membership,
    /** Σ_A: the events the assumption sees, its letters in order; with the hidden ones, every event the components make. */
    private readonly alphabet: readonly number[],
    /** What L* learns: what S2 makes (strongest) or every word S1 stays good with (weakest, Cobleigh's). */
    target: AssumptionTarget,
  ) {
    this.chain = components.map((ks) => new Side(memoryless, ks));
    this.s2 = new Side(memoryless, components.flat());
    this.letter = new Map(alphabet.map((e, i) => [e, i]));
    this.hidden = membership.hidden;
    if (this.s2.sigma.some((e) => !this.letter.has(e) && !this.hidden.has(e))) throw new Error('internal: an event neither seen nor hidden');
    const producible = target === 'strongest' ? new Producible(ctx, this.s2, new Set(alphabet)) : undefined;
    this.member = producible ? (w) => producible.member(w) : (w) => membership.member(w);
  }

  /** The membership query of the round's target, on a word of events. */
  private readonly member: (w: readonly number[]) => boolean;

  /** L* over Σ_A with the teacher of §4.1 (seeded with `seed`), until the round ends. */
  learn(seed?: Table): RoundResult {
    const alone = this.s1Search([], 'exact');
    if (alone) return { end: this.real(alone, { path: [], start: this.s2.start[0] }, []), table: seed ?? { S: [[]], E: [[]] } };
    let end: RoundEnd | undefined;
    const total = this.memoryless.events.length;
    const { table } = this.ctx.learn(
      this.alphabet.length,
      {
        member: (w) => this.member(w.map((i) => this.alphabet[i])),
        conjecture: (candidate) => {
          const lifted = lift(candidate, this.alphabet, total, this.hidden);
          const r = this.conjecture(candidate, lifted);
          if ('cex' in r) return r.cex;
          end = r;
          return null;
        },
      },
      seed,
    );
    if (this.memoryless.events.length !== total) throw new Error('internal: an event appeared after the alphabet was fixed');
    if (!end) throw new Error('internal: L* ended without an end of the round');
    return { end, table };
  }

  /** The teacher's answer to a conjecture: a counterexample for L* (letters), or how the round ends. */
  private conjecture(a: Dfa, lifted: Dfa): { cex: Word } | RoundEnd {
    const letters = (w: readonly number[]): { cex: Word } => ({ cex: w.map((e) => this.letter.get(e)!) });
    const shown = (w: readonly number[]): number[] => w.filter((e) => this.letter.has(e));
    const p1 = this.premise1(lifted);
    if (p1) {
      // S1 under A reaches a bad state on the word t: real if S2 makes t, a counterexample
      // for L* if S2 cannot make what A sees of it, else the hidden events made it spurious.
      const t = wordOf(p1.path);
      const exact = produce(this.ctx, this.s2, t);
      if (exact) return this.real(p1, exact, t, lifted);
      const seen = produce(this.ctx, this.s2, shown(t), new Set(this.alphabet));
      if (!seen) return letters(shown(t));
      return { refine: this.hiddenIn([t, wordOf(seen.path)]) };
    }
    const r = holds(this.ctx, this.chain, lifted);
    if ('assumptions' in r) return { proof: { a, lifted, below: r.assumptions } };
    // S2 makes v, whose visible part u A rejects: a counterexample for L* if u is in the
    // target (always for the strongest; for the weakest if S1, hiding the rest, is fine
    // with u); else real if S1 fails on v itself, or spurious by the hidden events.
    const v = wordOf(r.cex.path);
    const u = shown(v);
    if (this.member(u)) return letters(u);
    const onV = this.s1Search(v, 'exact');
    if (onV) return this.real(onV, { path: r.cex.path, start: this.s2.slots.map((s) => r.cex.start.get(s)!) }, v, lifted);
    const onU = this.s1Search(u, 'hiding');
    if (!onU) throw new Error('internal: a rejected membership query has no run');
    return { refine: this.hiddenIn([v, wordOf(onU.path)]) };
  }

  /** The hidden events in `words` (there is one: else the counterexample would have been real). */
  private hiddenIn(words: readonly (readonly number[])[]): number[] {
    const found = [...new Set(words.flat().filter((e) => this.hidden.has(e)))];
    if (!found.length) throw new Error('internal: a spurious counterexample without hidden events');
    return found;
  }

  /**
   * S1's bad run on a word S2 makes: a violation if it ends in an error. Else R grows by
   * what S2's threads see of the states S1 reaches on the word, and, while S1 under the
   * same A leaves the grown R on words S2 makes, by those too (each is a run of the
   * program, whatever R is): one round for many views.
   */
  private real(s1run: { path: Step[]; start: N; end: N }, s2run: { path: readonly Step[]; start: Vec }, t: readonly number[], lifted?: Dfa): RoundEnd {
    if (s1run.end.err || this.s1.err[s1run.end.id]) {
      const start = [...this.s1.vecs[s1run.start.id]];
      this.s2.slots.forEach((s, j) => (start[s] = s2run.start[j]));
      return { violation: { s1: s1run.path, s2: s2run.path, start } };
    }
    let added = 0;
    for (let word: readonly number[] | undefined = t; word; ) {
      const seen = new Set<number>();
      this.s1Search(word, 'exact', seen, () => false);
      for (const id of seen) added += this.memoryless.read.add(this.s1.vecs[id]);
      this.membership.grown();
      const next = lifted && this.premise1(lifted);
      word = next && !(next.end.err || this.s1.err[next.end.id]) && produce(this.ctx, this.s2, wordOf(next.path)) ? wordOf(next.path) : undefined;
    }
    return { grow: added };
  }

  /**
   * S1's search, its own moves and those `consume` gives (the word's or DFA's states q
   * below qs), to a bad state (`bad`, by default the round's); `seen` collects the states
   * it expands. A state (id, q, err) is searched as one number, a small integer while it
   * can be: premise 1 expands millions of states per round, and objects per state made
   * the garbage collector a fifth of the time.
   */
  private search(starts: readonly number[], qs: number, consume: (id: number, q: number, out: Successors) => void, seen?: Set<number>, bad = (id: number, err: boolean): boolean => err || this.membership.bad(id)): { path: Step[]; start: N; end: N } | null {
    const code = (id: number, q: number, err: boolean): number => (id * qs + q) * 2 + (err ? 1 : 0);
    const decode = (k: number): N => ({ id: Math.floor(k / (2 * qs)), q: Math.floor(k / 2) % qs, err: k % 2 === 1 });
    const next = (k: number): [number, Step][] => {
      const id = Math.floor(k / (2 * qs));
      seen?.add(id);
      const out: [number, Step][] = [];
      if (k % 2 === 1) return out;
      const q = Math.floor(k / 2) % qs;
      for (const [to, st] of this.s1.succ(id)) out.push([code(to, q, false), st]);
      consume(id, q, { out, code });
      return out;
    };
    const r = search<number>(
      starts.map((id) => code(id, 0, false)),
      (k) => k,
      next,
      (k) => bad(Math.floor(k / (2 * qs)), k % 2 === 1),
      this.ctx.maxStates,
      this.ctx.tick,
    );
    if ('states' in r) return (this.ctx.note(r.states), null);
    return { path: r.path, start: decode(r.start), end: decode(r.end) };
  }

  /** S1 consuming event e in state id, the word's or DFA's state going to q. */
  private consume(id: number, e: number, q: number, to: Successors): void {
    const after = this.s1.after(id, e, this.memoryless.events);
    if (after >= 0) to.out.push([to.code(after, q, this.memoryless.events[e].err), this.consumed(e)]);
  }

  /** The step that consumes event e, one object per event (steps are never changed). */
  private consumed(e: number): Step {
    return (this.consumedSteps[e] ??= { consumed: e });
  }
  private readonly consumedSteps: Step[] = [];

  /** enabled[id]: the events of S2 whose reads hold in S1's state id (the states after them are interned only when consumed). */
  private readonly enabled: Int32Array[] = [];
  private enabledAt(id: number): Int32Array {
    const v = this.s1.vecs[id];
    return (this.enabled[id] ??= Int32Array.from(this.s2.sigma.filter((e) => this.memoryless.events[e].reads.every(([s, x]) => v[s] === x))));
  }

  /** S1's run consuming `w` in order (or a prefix of it), with the hidden events at any time too when `hiding`, into a bad state; null if none. */
  private s1Search(w: readonly number[], mode: 'exact' | 'hiding', seen?: Set<number>, bad?: (id: number, err: boolean) => boolean): { path: Step[]; start: N; end: N } | null {
    return this.search(
      this.initIds,
      w.length + 1,
      (id, q, out) => {
        if (q < w.length) this.consume(id, w[q], q + 1, out);
        if (mode === 'hiding') for (const e of this.hidden) this.consume(id, e, q, out);
      },
      seen,
      bad,
    );
  }

  /** Premise 1, ⟨A⟩ S1 ⟨good⟩ for A lifted over every event (the hidden ones free): S1's run under A into a bad state, or null. */
  private premise1(a: Dfa): { path: Step[]; start: N; end: N } | null {
    return this.search(
      a.accepting[0] ? this.initIds : [],
      a.accepting.length,
      // A lifted over every event sends those S2 does not make to its sink: only S2's are tried, and of those only the ones S1 can consume.
      (id, q, out) => {
        const row = a.next[q];
        for (const e of this.enabledAt(id)) if (a.accepting[row[e]]) this.consume(id, e, row[e], out);
      },
    );
  }

  /** The proof re-checked by fresh searches of every premise against its assumptions. */
  recheck(proof: Proof): boolean {
    return !this.premise1(proof.lifted) && chainHolds(this.ctx, this.chain, proof.lifted, proof.below);
  }
}

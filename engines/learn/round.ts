/**
 * One round of the rule (assume-guarantee.ts): the components after S1 read the
 * memory from a fixed set of valuations, and L* learns an assumption on them with the
 * teacher of Cobleigh's §4.1 — membership by S1's reachable sets after each prefix,
 * conjectures by premise 1 on S1 and premise 2 on the other components (sides.ts).
 * The round ends with a run that violates P in both, or a proof, re-checked, and the
 * valuations S1 reaches under its assumption.
 */
import type { Dfa, Word } from './lstar.js';
import type { MemorySide } from './memory-side.js';
import { lift, search, wordOf, Unknown, type Step, type Vec } from './search.js';
import { Memoryless, Side, chainHolds, holds, type AgContext, type AgEvent } from './sides.js';

/** Prefixes' reachable sets kept for membership queries, in states (then forgotten). */
const LAYER_CACHE = 2_000_000;

/** A node of the membership trie: the set of S1's states after a prefix (null: it reaches an error), by the next event. */
type Layer = { readonly set: Int32Array | null; kids: Map<number, Layer> };

/** A state of S1's searches: an interned state, the state of the word or DFA it consumes, whether an err event was consumed. */
type N = { id: number; q: number; err: boolean };

/** A violation both sides agree on: S1's run, the other components' run whose events it consumed, the state they start from. */
export interface Violation {
  readonly s1: readonly Step[];
  readonly s2: readonly Step[];
  readonly start: Vec;
}

/** A proof: the assumption A on the components after S1, and the assumptions of the levels below (generalized decomposition). */
export interface Proof {
  readonly a: Dfa;
  readonly below: readonly Dfa[];
}

export class Round {
  readonly memoryless: Memoryless;
  /** Every event of the components after S1: Σ_A's universe, fixed once the alphabets are. */
  readonly events: readonly AgEvent[];
  private readonly chain: Side[];
  /** Σ_A: the events the components after S1 can make, sorted. */
  private readonly sigma: number[];
  private readonly total: number;
  /** after[id][e]: S1's state after consuming event e at id (−1: its reads do not hold; −2: not computed yet). */
  private readonly afterRows: Int32Array[] = [];
  private root: Layer | undefined;
  /** States in the trie's sets, to bound it. */
  private layered = 0;
  private mark = new Int32Array(1024);
  private stamp = 0;

  constructor(
    private readonly ctx: AgContext,
    private readonly s1: MemorySide,
    private readonly initIds: readonly number[],
    components: readonly (readonly number[])[],
    /** The valuations of the memory the other components may read. */
    readonly read: readonly (readonly bigint[])[],
  ) {
    this.memoryless = new Memoryless(ctx, read);
    this.chain = components.map((ks) => new Side(this.memoryless, ks));
    this.events = this.memoryless.events;
    this.total = this.events.length;
    this.sigma = [...new Set(this.chain.flatMap((c) => c.sigma))].sort((x, y) => x - y);
  }

  /** L* with the teacher of §4.1 over Σ_A: a violation (S1 alone or both sides), or a proof. */
  learn(): { violation: Violation } | { proof: Proof } {
    let real: Violation | undefined;
    let proof: Proof | undefined;
    const local = (w: readonly number[]): Word => w.map((e) => this.sigma.indexOf(e));
    const empty = this.violation([]);
    if (empty) real = { s1: empty.path, s2: [], start: empty.start };
    else
      this.ctx.learn(this.sigma.length, {
        member: (w) => this.member(w.map((i) => this.sigma[i])),
        conjecture: (candidate) => {
          const a = lift(candidate, this.sigma, this.total);
          const w1 = this.premise1(a);
          if (w1) return local(w1);
          const r = holds(this.ctx, this.chain, a);
          if ('assumptions' in r) return (proof = { a, below: r.assumptions }), null;
          const s1run = this.violation(wordOf(r.cex.path));
          if (!s1run) return local(wordOf(r.cex.path));
          const start = [...s1run.start];
          for (const [s, v] of r.cex.start) start[s] = v;
          real = { s1: s1run.path, s2: r.cex.path, start };
          return null;
        },
      });
    if (this.events.length !== this.total) throw new Error('internal: an event appeared after the alphabet was fixed');
    if (real) return { violation: real };
    if (!proof) throw new Error('internal: L* ended without a proof or a violation');
    return { proof };
  }

  /**
   * The proof re-checked by fresh searches of every premise against its assumptions
   * (Unknown if one fails), and the valuations of the memory S1 reaches under A that
   * the round did not read.
   */
  recheck(proof: Proof): bigint[][] {
    const seen = new Set<number>();
    if (this.premise1(proof.a, seen) || !chainHolds(this.ctx, this.chain, proof.a, proof.below)) throw new Unknown('internal: a learned assumption fails a premise on its re-check');
    const known = new Set(this.read.map((g) => g.join(',')));
    const more = new Map<string, bigint[]>();
    for (const id of seen) {
      const g = this.s1.memoryOf(id);
      if (!known.has(g.join(','))) more.set(g.join(','), g);
    }
    return [...more.values()];
  }

  /** The state S1 is in after consuming event e at `id`; −1 where e does not apply (its reads do not hold). */
  private after(id: number, e: number): number {
    const row = (this.afterRows[id] ??= new Int32Array(this.total).fill(-2));
    if (row[e] === -2) {
      const v = this.s1.vecs[id];
      const ev = this.events[e];
      row[e] = ev.reads.every(([s, x]) => v[s] === x) ? this.s1.intern(v.map((x, s) => ev.writes.find(([w]) => w === s)?.[1] ?? x)) : -1;
    }
    return row[e];
  }

  /** The states S1 reaches by its own moves from `seed`, or null if one is an error. */
  private closure(seed: readonly number[]): Int32Array | null {
    const stamp = ++this.stamp;
    const queue: number[] = [];
    const visit = (x: number): void => {
      if (x >= this.mark.length) this.mark = Int32Array.from({ length: 2 * x + 1 }, (_, i) => this.mark[i] ?? 0);
      if (this.mark[x] !== stamp) (this.mark[x] = stamp), queue.push(x);
    };
    seed.forEach(visit);
    for (let i = 0; i < queue.length; i++) {
      this.ctx.tick();
      if (this.s1.err[queue[i]]) return null;
      for (const [t] of this.s1.succ(queue[i])) visit(t);
    }
    return Int32Array.from(queue);
  }

  /**
   * Membership (§4.1): does S1, consuming w, reach no error? By the sets S1 reaches after
   * each prefix, kept in a trie for the next query (the answers are prefix-closed).
   */
  private member(w: Word): boolean {
    let node = (this.root ??= { set: this.closure(this.initIds), kids: new Map() });
    let held = node.set?.length ?? 0;
    for (const e of w) {
      if (!node.set?.length) break;
      let kid = node.kids.get(e);
      if (!kid) {
        const next = [...node.set].map((x) => this.after(x, e)).filter((x) => x >= 0);
        kid = { set: this.events[e].err && next.length ? null : this.closure(next), kids: new Map() };
        if ((this.layered += kid.set?.length ?? 0) > LAYER_CACHE) (this.root.kids = new Map()), (this.layered = 0);
        node.kids.set(e, kid);
      }
      node = kid;
      held += node.set?.length ?? 0;
    }
    this.ctx.note(held);
    return node.set !== null;
  }

  /** S1's search, its own moves and those `consume` gives, to an error; `seen` collects the states it expands. */
  private s1Search(starts: N[], consume: (n: N) => [N, Step][], seen?: Set<number>): { path: Step[]; start: N } | null {
    const next = (n: N): [N, Step][] => (seen?.add(n.id), n.err ? [] : [...this.s1.succ(n.id).map(([id, st]): [N, Step] => [{ ...n, id }, st]), ...consume(n)]);
    const r = search<N>(starts, (n) => `${n.q}|${n.err}|${n.id}`, next, (n) => n.err || this.s1.err[n.id], this.ctx.maxStates, this.ctx.tick);
    if ('states' in r) return (this.ctx.note(r.states), null);
    return r;
  }

  /** A run of S1 consuming `w` (or a prefix of it ending in an err event) into an error, or null. */
  private violation(w: Word): { path: Step[]; start: Vec } | null {
    const r = this.s1Search(
      this.initIds.map((id) => ({ id, q: 0, err: false })),
      (n) => {
        const to = n.q < w.length ? this.after(n.id, w[n.q]) : -1;
        return to < 0 ? [] : [[{ id: to, q: n.q + 1, err: this.events[w[n.q]].err }, { consumed: w[n.q] }]];
      },
    );
    return r && { path: r.path, start: this.s1.vecs[r.start.id] };
  }

  /** Premise 1, ⟨A⟩ S1 ⟨P⟩: the events of a run of S1 under A (over all events) that reaches an error, or null. */
  private premise1(a: Dfa, seen?: Set<number>): Word | null {
    const r = this.s1Search(
      a.accepting[0] ? this.initIds.map((id) => ({ id, q: 0, err: false })) : [],
      (n) =>
        a.next[n.q].flatMap((q, e): [N, Step][] => {
          const to = a.accepting[q] ? this.after(n.id, e) : -1;
          return to < 0 ? [] : [[{ id: to, q, err: this.events[e].err }, { consumed: e }]];
        }),
      seen,
    );
    return r && wordOf(r.path);
  }
}

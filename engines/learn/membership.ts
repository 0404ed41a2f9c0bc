/**
 * Membership queries of the teacher (Cobleigh's §4.1) for a round (round.ts): does S1,
 * consuming a word of Σ_A with the hidden events at any time, stay good — no error, the
 * memory in R (read-set.ts)? Answered by the sets of S1's states after each prefix, kept
 * in a trie (prefix-trie.ts). The trie outlives a round while the hidden events
 * stay: when R grows only the answers that left R can change, and those nodes are dropped.
 */
import type { MemorySide } from './memory-side.js';
import type { ReadSet } from './read-set.js';
import type { AgContext, AgEvent } from './sides.js';
import { PrefixTrie, type Layer } from './prefix-trie.js';

const GOOD = 1;
const ERROR = 2;
const OUTSIDE = 3;

export class Membership {
  private readonly trie: PrefixTrie;
  private mark = new Int32Array(1024);
  private stamp = 0;
  /** badness[id]: 0 not known yet, GOOD, ERROR (S1's own error) or OUTSIDE (memory outside R). */
  private badness = new Int8Array(1024);

  constructor(
    private readonly ctx: AgContext,
    private readonly s1: MemorySide,
    initIds: readonly number[],
    /** Every event so far (the list grows with R). */
    private readonly events: readonly AgEvent[],
    /** R, which grows between rounds (see grown). */
    private readonly read: ReadSet,
    /** The events S1 may consume at any time. */
    readonly hidden: ReadonlySet<number>,
  ) {
    this.trie = new PrefixTrie(
      ctx,
      () => this.layer(initIds, false),
      (set, e) => this.layer([...set].map((x) => s1.after(x, e, events)).filter((x) => x >= 0), events[e].err),
    );
  }

  /** Some query was answered: the trie holds what was learned. */
  get used(): boolean {
    return this.trie.used;
  }

  /** R has grown: answers that stayed in R stand, those that left it are asked again. */
  grown(): void {
    this.badness = this.badness.map((b) => (b === OUTSIDE ? 0 : b));
    this.trie.drop((l) => l.set === null && l.left === true);
  }

  /** S1's state is bad: an error of its own, or a valuation of the memory outside R. */
  bad(id: number): boolean {
    return this.badnessOf(id) !== GOOD;
  }

  private badnessOf(id: number): number {
    if (id >= this.badness.length) this.badness = Int8Array.from({ length: 2 * id + 1 }, (_, i) => this.badness[i] ?? 0);
    if (!this.badness[id]) this.badness[id] = this.s1.err[id] ? ERROR : this.read.has(this.s1.vecs[id]) ? GOOD : OUTSIDE;
    return this.badness[id];
  }

  /** The states S1 reaches by its own moves and the hidden events from `seed`, or the first bad one's badness. */
  private closure(seed: readonly number[]): Int32Array | number {
    const stamp = ++this.stamp;
    const queue: number[] = [];
    const visit = (x: number): void => {
      if (x >= this.mark.length) this.mark = Int32Array.from({ length: 2 * x + 1 }, (_, i) => this.mark[i] ?? 0);
      if (this.mark[x] !== stamp) (this.mark[x] = stamp), queue.push(x);
    };
    seed.forEach(visit);
    for (let i = 0; i < queue.length; i++) {
      this.ctx.tick();
      const b = this.badnessOf(queue[i]);
      if (b !== GOOD) return b;
      for (const [t] of this.s1.succ(queue[i])) visit(t);
      for (const e of this.hidden) {
        const t = this.s1.after(queue[i], e, this.events);
        if (t >= 0) visit(t);
      }
    }
    return Int32Array.from(queue);
  }

  private layer(seed: readonly number[], err: boolean): Layer {
    if (err && seed.length) return { set: null, left: false, kids: new Map() };
    const c = this.closure(seed);
    return typeof c === 'number' ? { set: null, left: c === OUTSIDE, kids: new Map() } : { set: c, left: false, kids: new Map() };
  }

  /** Does S1, consuming `w` (events) with the hidden events at any time, stay good? */
  member(w: readonly number[]): boolean {
    return this.trie.walk(w).set !== null;
  }
}

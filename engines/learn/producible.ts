/**
 * Membership queries for the strongest assumption (round.ts): does S2 make the word w of
 * Σ_A, its other events (hidden from A) anywhere in between? The target of L* is then
 * what S2 itself does as A sees it — small when S2 is, however large S1 is. Answered by
 * the sets of S2's states after each prefix, kept in a trie (prefix-trie.ts); S2's states
 * are interned.
 */
import { PrefixTrie } from './prefix-trie.js';
import { Unknown, type Vec } from './search.js';
import type { AgContext, Side } from './sides.js';

export class Producible {
  private readonly ids = new Map<string, number>();
  private readonly vecs: Vec[] = [];
  /** succs[id]: S2's moves from id, as (state, event or null). */
  private readonly succs: (readonly (readonly [number, number | null])[])[] = [];
  private readonly trie: PrefixTrie;

  constructor(
    private readonly ctx: AgContext,
    private readonly s2: Side,
    /** Σ_A. */
    private readonly visible: ReadonlySet<number>,
  ) {
    this.trie = new PrefixTrie(
      ctx,
      () => ({ set: this.closure(s2.start.map((l) => this.intern(l))), kids: new Map() }),
      (set, e) => ({ set: this.closure([...set].flatMap((id) => this.succ(id).flatMap(([to, x]) => (x === e ? [to] : [])))), kids: new Map() }),
    );
  }

  private intern(l: Vec): number {
    const key = l.join(',');
    let id = this.ids.get(key);
    if (id === undefined) {
      if (this.vecs.length >= this.ctx.maxStates) throw new Unknown(`S2 reached its bound of ${this.ctx.maxStates} states`);
      (id = this.vecs.length), this.ids.set(key, id), this.vecs.push(l);
    }
    return id;
  }

  private succ(id: number): readonly (readonly [number, number | null])[] {
    return (this.succs[id] ??= this.s2.next(this.vecs[id]).map(([l, st]) => [this.intern(l), 'event' in st ? st.event : null] as const));
  }

  /** The states S2 reaches from `seed` by steps A does not see. */
  private closure(seed: readonly number[]): Int32Array {
    const seen = new Set(seed);
    const queue = [...seen];
    for (let i = 0; i < queue.length; i++) {
      this.ctx.tick();
      for (const [to, e] of this.succ(queue[i])) if ((e === null || !this.visible.has(e)) && !seen.has(to)) (seen.add(to), queue.push(to));
    }
    return Int32Array.from(queue);
  }

  /** Does S2 make `w` (events of Σ_A), the others in between? */
  member(w: readonly number[]): boolean {
    return (this.trie.walk(w).set?.length ?? 0) > 0;
  }
}

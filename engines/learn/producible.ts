/**
 * Membership queries for the strongest assumption (round.ts): does S2 make the word w of
 * Σ_A, its other events (hidden from A) anywhere in between? The target of L* is then
 * what S2 itself does as A sees it — small when S2 is, however large S1 is. Answered by
 * the sets of S2's states after each prefix, kept in a trie; S2's states are interned.
 */
import { LAYER_CACHE } from './membership.js';
import { Unknown, type Vec } from './search.js';
import type { AgContext, Side } from './sides.js';

type Layer = { readonly set: Int32Array; kids: Map<number, Layer> };

export class Producible {
  private readonly ids = new Map<string, number>();
  private readonly vecs: Vec[] = [];
  /** succs[id]: S2's moves from id, as (state, event or null). */
  private readonly succs: (readonly (readonly [number, number | null])[])[] = [];
  private root: Layer | undefined;
  private layered = 0;

  constructor(
    private readonly ctx: AgContext,
    private readonly s2: Side,
    /** Σ_A. */
    private readonly visible: ReadonlySet<number>,
  ) {}

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

  /** Does S2 make `w` (events of Σ_A), the others in between? The answers are prefix-closed. */
  member(w: readonly number[]): boolean {
    let node = (this.root ??= { set: this.closure(this.s2.start.map((l) => this.intern(l))), kids: new Map() });
    let held = node.set.length;
    for (const e of w) {
      if (!node.set.length) break;
      let kid = node.kids.get(e);
      if (!kid) {
        kid = { set: this.closure([...node.set].flatMap((id) => this.succ(id).flatMap(([to, x]) => (x === e ? [to] : [])))), kids: new Map() };
        if ((this.layered += kid.set.length) > LAYER_CACHE) (this.root.kids = new Map()), (this.layered = 0);
        node.kids.set(e, kid);
      }
      node = kid;
      held += node.set.length;
    }
    this.ctx.note(held);
    return node.set.length > 0;
  }
}

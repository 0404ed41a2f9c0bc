/**
 * The sets of states a side reaches after each prefix of the words L* asks about, kept in
 * a trie so that a query reuses what its prefixes found (membership answers are
 * prefix-closed). Used for both targets' queries: S1's sets (membership.ts) and S2's
 * (producible.ts).
 */
import type { AgContext } from './sides.js';

/** States in the trie's sets before it is emptied, to bound its memory. */
const LAYER_CACHE = 2_000_000;

/** A node: the states after a prefix (null: a bad one was reached; `left`: the first bad one was outside R), by the next event. */
export type Layer = { readonly set: Int32Array | null; readonly left?: boolean; kids: Map<number, Layer> };

export class PrefixTrie {
  private root: Layer | undefined;
  private layered = 0;

  constructor(
    private readonly ctx: AgContext,
    /** The layer of the empty word. */
    private readonly start: () => Layer,
    /** The layer after event e from the states of `set`. */
    private readonly step: (set: Int32Array, e: number) => Layer,
  ) {}

  /** Some query was answered. */
  get used(): boolean {
    return this.root !== undefined;
  }

  /** The layer after `w`, or after its longest prefix whose layer is empty or bad. */
  walk(w: readonly number[]): Layer {
    let node = (this.root ??= this.start());
    let held = node.set?.length ?? 0;
    for (const e of w) {
      if (!node.set?.length) break;
      let kid = node.kids.get(e);
      if (!kid) {
        kid = this.step(node.set, e);
        if ((this.layered += kid.set?.length ?? 0) > LAYER_CACHE) (this.root.kids = new Map()), (this.layered = 0);
        node.kids.set(e, kid);
      }
      node = kid;
      held += node.set?.length ?? 0;
    }
    this.ctx.note(held);
    return node;
  }

  /** Forgets the layers `stale` picks (and what lies below them). */
  drop(stale: (l: Layer) => boolean): void {
    const prune = (node: Layer): void => {
      for (const [e, kid] of node.kids) if (stale(kid)) node.kids.delete(e);
      else prune(kid);
    };
    if (this.root && stale(this.root)) this.root = undefined;
    else if (this.root) prune(this.root);
  }
}

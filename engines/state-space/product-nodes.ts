/**
 * The nodes of a product with the Büchi automaton of a negated property (liveness.ts,
 * and the split engine's abstract processes): pairs (state, automaton state),
 * numbered in the order they are met, so that a graph search can keep its edges by
 * number.
 */
export class ProductNodes<S, K> {
  /** The state of each node. */
  readonly state: S[] = [];
  /** The automaton state of each node. */
  readonly q: number[] = [];
  private readonly ids = new Map<K, number>();

  /** `key` tells pairs apart: equal keys are one node. */
  constructor(private readonly key: (s: S, q: number) => K) {}

  /** The number of (s, q), a new one if the pair was not met before. */
  node(s: S, q: number): number {
    const key = this.key(s, q);
    let n = this.ids.get(key);
    if (n === undefined) {
      n = this.state.length;
      this.ids.set(key, n);
      this.state.push(s);
      this.q.push(q);
    }
    return n;
  }

  get size(): number {
    return this.state.length;
  }
}

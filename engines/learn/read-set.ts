/**
 * R, what the components after S1 may read (assume-guarantee.ts): per thread, the
 * valuations of the globals that thread reads. A thread's step depends on those alone,
 * so two memories it sees alike are one valuation to it; and a memory is outside R only
 * when some thread sees it as it never did.
 */
import type { Vec } from './search.js';

export class ReadSet {
  private readonly views = new Map<number, Map<string, bigint[]>>();

  constructor(
    /** Per thread (by index), the global slots it reads, sorted. */
    readonly slotsOf: ReadonlyMap<number, readonly number[]>,
  ) {
    for (const k of slotsOf.keys()) this.views.set(k, new Map());
  }

  /** What thread k sees of the memory in `v`. */
  private view(k: number, v: Vec): bigint[] {
    return this.slotsOf.get(k)!.map((s) => v[s]);
  }

  /** The views of `v` that R lacks, by thread. */
  missing(v: Vec): [number, bigint[]][] {
    const out: [number, bigint[]][] = [];
    for (const [k, known] of this.views) {
      const g = this.view(k, v);
      if (!known.has(g.join(','))) out.push([k, g]);
    }
    return out;
  }

  has(v: Vec): boolean {
    for (const [k, known] of this.views) if (!known.has(this.view(k, v).join(','))) return false;
    return true;
  }

  /** Adds what every thread sees of `v`; the number of views new to R. */
  add(v: Vec): number {
    return this.grow(this.missing(v));
  }

  /** Adds views (thread, values at its slots); the number new to R. */
  grow(views: readonly (readonly [number, readonly bigint[]])[]): number {
    let added = 0;
    for (const [k, g] of views) {
      const known = this.views.get(k)!;
      if (!known.has(g.join(','))) (known.set(g.join(','), [...g]), added++);
    }
    return added;
  }

  /** Thread k's views, as values at its slots. */
  of(k: number): readonly (readonly bigint[])[] {
    return [...this.views.get(k)!.values()];
  }

  /** Views in all. */
  get size(): number {
    let n = 0;
    for (const known of this.views.values()) n += known.size;
    return n;
  }
}

/**
 * S1, the component with the memory (assume-guarantee.ts): its threads' locals and
 * every global, its states interned so that their moves are computed once for every
 * check of every round.
 */
import { Unknown, type Step, type Vec } from './search.js';
import { errorAt, localSlots, type AgContext, type AgEvent } from './sides.js';

export class MemorySide {
  /** The interned states, by id. */
  readonly vecs: Vec[] = [];
  /** err[id]: some thread of S1 is at its error location in state id. */
  readonly err: boolean[] = [];
  private readonly slots: number[];
  private readonly ids = new Map<string, number>();
  private readonly succs: [number, Step][][] = [];
  /** afters[id][e]: the state after consuming event e at id (−1: its reads do not hold; −2: not computed yet). */
  private readonly afters: Int32Array[] = [];

  constructor(
    private readonly ctx: AgContext,
    /** S1's threads. */
    readonly ks: readonly number[],
  ) {
    this.slots = [...ctx.p.globals.map((g) => ctx.layout.index.get(g)!), ...localSlots(ctx, ks)];
  }

  /** The id of the state of S1 in `v` (its globals and S1's locals); Unknown past the bound on states. */
  intern(v: Vec): number {
    const key = this.slots.map((s) => v[s]).join(',');
    let id = this.ids.get(key);
    if (id === undefined) {
      if (this.vecs.length >= this.ctx.maxStates) throw new Unknown(`S1 reached its bound of ${this.ctx.maxStates} states`);
      (id = this.vecs.length), this.ids.set(key, id), this.vecs.push(v), this.err.push(this.ks.some((k) => errorAt(this.ctx, k, v)));
    }
    return id;
  }

  /** S1's own moves from `id`; a move keeps the interned state as its successor, so a state reached again is held once. */
  succ(id: number): [number, Step][] {
    return (this.succs[id] ??= this.ks.flatMap((k) =>
      this.ctx.threads[k].real(this.vecs[id]).map((m): [number, Step] => {
        const to = this.intern(m.next);
        return [to, { thread: k, move: { t: m.t, aux: m.aux, next: this.vecs[to] }, event: null }];
      }),
    ));
  }

  /** The state after consuming `events[e]` at `id`; −1 where its reads do not hold. */
  after(id: number, e: number, events: readonly AgEvent[]): number {
    let row = this.afters[id];
    if (!row || row.length < events.length) {
      const grown = new Int32Array(events.length).fill(-2);
      if (row) grown.set(row);
      this.afters[id] = row = grown;
    }
    if (row[e] === -2) {
      const v = this.vecs[id];
      const ev = events[e];
      row[e] = ev.reads.every(([s, x]) => v[s] === x) ? this.intern(v.map((x, s) => ev.writes.find(([w]) => w === s)?.[1] ?? x)) : -1;
    }
    return row[e];
  }
}

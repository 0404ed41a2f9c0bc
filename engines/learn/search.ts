/** The searches of the teacher (assume-guarantee.ts, sides.ts): breadth-first, with the run that reached the state sought. */
import type { RealMove } from '../state-space/api.js';
import type { Dfa } from './lstar.js';

export type Vec = readonly bigint[];

/** A thread's move: its transition, the values of its helper variables, the state after it. */
export type Move = Pick<RealMove, 't' | 'aux'> & { readonly next: Vec };

/** One step of a search's run: a thread's move (with the event it makes, if any), or an event the searched side consumed from the other. */
export type Step = { readonly thread: number; readonly move: Move; readonly event: number | null } | { readonly consumed: number };

/** Thrown when a check cannot finish: the run is UNKNOWN with this reason. */
export class Unknown extends Error {}

/** Breadth-first search from `starts`; `next` lists successors with the step taken; stops at a state `bad` accepts and returns its path from the start it came from. `tick` is called per state (deadlines). */
export function search<S>(starts: readonly S[], key: (s: S) => string | number, next: (s: S) => [S, Step][], bad: (s: S) => boolean, maxStates: number, tick: () => void): { path: Step[]; start: S; end: S } | { states: number } {
  const seen = new Set<string | number>();
  // The queue's states, and for each the index of the one it came from (−1 for a start) and the step taken.
  const queue: S[] = [];
  const from: number[] = [];
  const via: (Step | null)[] = [];
  for (const s of starts) if (!seen.has(key(s))) (seen.add(key(s)), queue.push(s), from.push(-1), via.push(null));
  for (let k = 0; k < queue.length; k++) {
    const s = queue[k];
    if (bad(s)) {
      const path: Step[] = [];
      let i = k;
      for (; from[i] >= 0; i = from[i]) path.unshift(via[i]!);
      return { path, start: queue[i], end: s };
    }
    tick();
    for (const [t, step] of next(s)) {
      const kt = key(t);
      if (seen.has(kt)) continue;
      if (seen.size >= maxStates) throw new Unknown(`a check reached its bound of ${maxStates} states`);
      seen.add(kt);
      queue.push(t);
      from.push(k);
      via.push(step);
    }
  }
  return { states: seen.size };
}

/** The events of a run, in order: what it made and what it consumed. */
export function wordOf(path: readonly Step[]): number[] {
  return path.flatMap((s) => ('consumed' in s ? [s.consumed] : s.event === null ? [] : [s.event]));
}

/**
 * Two runs as one: each event `outer` consumed is replaced by `inner`'s steps up to the
 * one that made it (its eventless steps before it too), so the result's events are the
 * word `outer` checked.
 */
export function interleave(outer: readonly Step[], inner: readonly Step[]): Step[] {
  const queue = [...inner];
  const out: Step[] = [];
  for (const st of outer) {
    if (!('consumed' in st)) {
      out.push(st);
      continue;
    }
    for (let s = queue.shift(); s; s = queue.shift()) {
      out.push(s);
      if (!('consumed' in s) && s.event !== null) break;
    }
  }
  return out;
}

/**
 * `d` over the events `sigma` (its letter i is event sigma[i]) as a DFA over all `total`
 * events: the events of `free` leave its state as it is, the others lead to a rejecting sink.
 */
export function lift(d: Dfa, sigma: readonly number[], total: number, free: ReadonlySet<number> = new Set()): Dfa {
  const sink = d.accepting.length;
  const local = new Map(sigma.map((e, i) => [e, i]));
  const row = (q: number): number[] => Array.from({ length: total }, (_, e) => (q === sink ? sink : local.has(e) ? d.next[q][local.get(e)!] : free.has(e) ? q : sink));
  return { alphabet: total, accepting: [...d.accepting, false], next: [...d.next.map((_, q) => row(q)), row(sink)] };
}

/**
 * L* with Rivest–Schapire (engines/learn/lstar.ts) against scripted teachers that know the
 * language: it learns known regular languages exactly, with the minimal number of
 * states, and at most (states − 1) of its conjectures are refuted (the thesis's
 * bound for Rivest and Schapire's version).
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../benchmarks/prng.js';
import { accepts, lstar, type Dfa, type Table, type Word } from '../../../engines/learn/lstar.js';

/** The shortest word on which two DFAs disagree, or null (breadth-first over their product). */
function difference(a: Dfa, b: Dfa): Word | null {
  const seen = new Map<string, Word>([['0,0', []]]);
  const queue: [number, number, Word][] = [[0, 0, []]];
  while (queue.length) {
    const [p, q, w] = queue.shift()!;
    if (a.accepting[p] !== b.accepting[q]) return w;
    for (let e = 0; e < a.alphabet; e++) {
      const key = `${a.next[p][e]},${b.next[q][e]}`;
      if (!seen.has(key)) (seen.set(key, [...w, e]), queue.push([a.next[p][e], b.next[q][e], [...w, e]]));
    }
  }
  return null;
}

/** The number of states of the minimal DFA of `d`'s language (Moore's partition refinement over its reachable states). */
function minimalStates(d: Dfa): number {
  const reach = new Set([0]);
  const stack = [0];
  while (stack.length) for (const t of d.next[stack.pop()!]) if (!reach.has(t)) (reach.add(t), stack.push(t));
  const states = [...reach];
  let cls = new Map(states.map((q) => [q, d.accepting[q] ? 1 : 0]));
  for (;;) {
    const sig = new Map(states.map((q) => [q, `${cls.get(q)}|${d.next[q].map((t) => cls.get(t)).join(',')}`]));
    const ids = new Map<string, number>();
    const next = new Map(states.map((q) => [q, ids.get(sig.get(q)!) ?? (ids.set(sig.get(q)!, ids.size), ids.size - 1)]));
    if (ids.size === new Set(cls.values()).size) return ids.size;
    cls = next;
  }
}

function learn(target: Dfa, seed?: Table) {
  let refuted = 0;
  const r = lstar(
    target.alphabet,
    {
      member: (w) => accepts(target, w),
      conjecture: (c) => {
        const w = difference(target, c);
        if (w) refuted++;
        return w;
      },
    },
    { seed },
  );
  return { ...r, refuted };
}

/** A DFA from a transition function over states 0..n−1. */
const dfa = (alphabet: number, n: number, step: (q: number, a: number) => number, accept: (q: number) => boolean): Dfa => ({
  alphabet,
  accepting: [...Array(n).keys()].map(accept),
  next: [...Array(n).keys()].map((q) => [...Array(alphabet).keys()].map((a) => step(q, a))),
});

describe('L* (Rivest–Schapire)', () => {
  const known: [string, Dfa, number][] = [
    ['the empty language', dfa(2, 1, () => 0, () => false), 1],
    ['every word', dfa(2, 1, () => 0, () => true), 1],
    ['#a divisible by 3 (a = 0)', dfa(2, 3, (q, a) => (a === 0 ? (q + 1) % 3 : q), (q) => q === 0), 3],
    ['ends with a b', dfa(2, 3, (q, a) => (a === 0 ? 1 : q === 1 ? 2 : 0), (q) => q === 2), 3],
    ['no two b in a row (prefix-closed, with a sink)', dfa(2, 3, (q, a) => (q === 2 ? 2 : a === 0 ? 0 : q === 1 ? 2 : 1), (q) => q !== 2), 3],
    ['the 4th symbol from the end is a', dfa(2, 16, (q, a) => ((q << 1) | (a === 0 ? 1 : 0)) & 15, (q) => (q & 8) !== 0), 16],
  ];
  for (const [name, target, states] of known)
    it(`learns ${name}: ${states} states, at most ${states - 1} conjectures refuted`, () => {
      const r = learn(target);
      expect(difference(target, r.dfa)).toBeNull();
      expect(r.dfa.accepting.length).toBe(states);
      expect(r.refuted).toBeLessThanOrEqual(states - 1);
      expect(r.stats.conjectures).toBe(r.refuted + 1);
    });

  it('learns 200 random DFAs (3 letters, up to 12 states) exactly and minimally', () => {
    const rnd = mulberry32(23);
    for (let k = 0; k < 200; k++) {
      const n = 1 + Math.floor(rnd() * 12);
      const table = [...Array(n).keys()].map(() => [0, 1, 2].map(() => Math.floor(rnd() * n)));
      const accepting = [...Array(n).keys()].map(() => rnd() < 0.4);
      const target = dfa(3, n, (q, a) => table[q][a], (q) => accepting[q]);
      const r = learn(target);
      const states = minimalStates(target);
      expect(difference(target, r.dfa), `DFA ${k}`).toBeNull();
      expect(r.dfa.accepting.length).toBe(states);
      expect(r.refuted).toBeLessThanOrEqual(states - 1);
    }
  });

  it("seeded with an earlier run's table, it learns the same language with no refuted conjecture; seeded for another language, it still learns that one exactly", () => {
    const target = known[5][1];
    const first = learn(target);
    const again = learn(target, first.table);
    expect(difference(target, again.dfa)).toBeNull();
    expect(again.refuted).toBe(0);
    expect(first.refuted).toBeGreaterThan(0);
    // Rows whose answers now coincide are merged: the hypothesis stays minimal.
    const other = known[2][1];
    const moved = learn(other, first.table);
    expect(difference(other, moved.dfa)).toBeNull();
    expect(moved.dfa.accepting.length).toBe(3);
  });

  it('refuses a counterexample that is none (a teacher bug, not a silent loop)', () => {
    expect(() => lstar(1, { member: () => true, conjecture: () => [0] })).toThrow(/not one/);
  });
});

/**
 * `rely verify` in-process on programs whose refinement takes longer: the statistics name
 * the groups of threads of the readers-writer lock, and a refinement that only counts is
 * widened. The others are in verify.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { rely } from '../helpers.js';

describe('rely verify', () => {
  it('rwlock: the statistics name the groups of threads whose clauses came before the unbiased ones', async () => {
    const text = await rely(['verify', '--engine', 'aret', 'benchmarks/programs/rwlock.c']);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(
      /refinements: 0 modular, [1-9]\d* grouped, \d+ unbiased \(bias: modular; no modular proof exists: thread-modular model checking reached an error; with the threads grouped as \{writer1, writer2\} \{reader, reader#2\} it reaches none, so the grouped clauses come first\)/,
    );
  });

  it('a refinement that only counts (x = 0, 2, 4, …) is widened to a residue and a bound: even-mod.c is SAFE', async () => {
    const j = JSON.parse((await rely(['verify', '--engine', 'aret', '--json', 'test/fixtures/even-mod.c'])).out);
    expect(j).toMatchObject({ verdict: 'safe', proofChecked: true });
    expect(j.stats.horn.widened).toBeGreaterThan(0);
  });
});

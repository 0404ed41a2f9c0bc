/**
 * The ARET engine's slow cases: the readers-writer lock by the grouped clauses (both Horn
 * solvers, and the shape with twin writers), and Bluetooth3-fixed by the Farkas solver
 * with the modular precheck off. The fast cases are in aret.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { run } from './run.js';

describe('protocols and their broken mutants, both bias settings', () => {
  // No modular proof exists (the precheck's thread-modular model checking reaches an
  // error), but one where the writers know where each other are, and the readers
  // too (thread-modular checking with those two groups has no error): the grouped
  // clauses come before the unbiased ones.
  // maxRounds: twice the rounds seen (Spacer 17, linear 55).
  for (const [hornSolver, maxRounds] of [['spacer', 34], ['linear', 110]] as const)
    it(`rwlock (bias modular, ${hornSolver}): safe, by the grouped clauses`, async () => {
      const v = await run('benchmarks/programs/rwlock.c', 'modular', hornSolver);
      expect(v.verdict).toBe('safe');
      if (v.verdict === 'safe') expect(v.proof.modular).toBe(false);
      expect(v.stats.groups).toEqual([['writer1', 'writer2'], ['reader', 'reader#2']]);
      expect(v.stats.refinements.grouped).toBeGreaterThan(0);
      expect(v.stats.iterations, 'refinement rounds').toBeLessThanOrEqual(maxRounds);
    }, 180_000);

  // The shape of Threader's own copy: both writers write 3, so only the readers need
  // each other's locations. Without the bias it is proved too, in ~100 s (Spacer,
  // 26 rounds): too slow even for this suite.
  it('rwlock-twin-writers (bias modular): safe, by the grouped clauses, the writers alone', async () => {
    const v = await run('benchmarks/programs/rwlock-twin-writers.c', 'modular');
    expect(v.verdict).toBe('safe');
    if (v.verdict === 'safe') expect(v.proofChecked).toBe(true);
    expect(v.stats.groups).toEqual([['writer'], ['reader', 'reader#2'], ['writer#2']]);
  }, 180_000);
});

describe('SOLVELINEARHC as the refinement solver (--horn-solver linear)', () => {
  // Bluetooth3-fixed has no modular proof, and linear's relational environment
  // predicates (pendingIo' = pendingIo + 1) let the modular clauses count forever:
  // without the enumeration rule each round learned one more `pendingIo = k`. The
  // precheck skips its modular clauses; the rule still serves where it is off
  // or its search ends without an answer.
  it('bluetooth3-fixed: safe once modular solutions that only enumerate constants are passed over', async () => {
    const v = await run('benchmarks/programs/bluetooth3-fixed.c', 'modular', 'linear', { modularPrecheck: false });
    expect(v.verdict).toBe('safe');
    expect(v.stats.horn.enumerating).toBeGreaterThan(0);
    expect(v.stats.refinements.unbiased).toBeGreaterThan(0);
  }, 180_000);
});

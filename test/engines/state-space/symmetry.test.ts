/**
 * Symmetry of identical thread instances (engines/state-space/symmetry.ts): which instances are
 * found interchangeable (only those whose permutations provably map the program onto
 * itself), the same verdicts with fewer states, and error runs rebuilt from canonical
 * states that the interpreter replays.
 */
import { describe, expect, it } from 'vitest';
import { loadProgram } from '../../../frontend/index.js';
import { explore } from '../../../engines/state-space/explore.js';
import { findSymmetry } from '../../../engines/state-space/symmetry.js';
import { verifyExplicit } from '../../../engines/explicit/verify.js';
import { replay } from '../../../core/replay.js';
import { lower } from '../../helpers.js';

const BLUETOOTH_FIXED = 'benchmarks/programs/hard/bluetooth-n10-fixed.c';
const BLUETOOTH = 'benchmarks/programs/hard/bluetooth-n10.c';
const COUNTER = 'benchmarks/programs/hard/counter-mutex-n4.c';
const load = (file: string, n: number) => loadProgram(file, { defines: { N: String(n) }, calls: 'inline' });

describe('finding identical instances', () => {
  it('the workers of the Bluetooth model form one class, checked transposition by transposition', () => {
    const p = load(BLUETOOTH_FIXED, 4);
    const sym = findSymmetry(p)!;
    expect(sym.classes.map((c) => c.threads.map((t) => p.threads[t].name))).toEqual([['worker', 'worker#2', 'worker#3', 'worker#4']]);
    // Each transition of one worker has its counterpart in another, with the other's variables.
    const [r, a] = sym.classes[0].threads;
    for (const t of p.threads[r].transitions) {
      const u = sym.counterpart(t, a);
      expect(u.thread).toBe(a);
      expect([u.from, u.to]).toEqual([t.from, t.to]);
    }
  });

  it('a mutex records its owner (index + 1): its value is permuted with the instances, which makes them interchangeable', () => {
    const sym = findSymmetry(load(COUNTER, 4))!;
    expect(sym.classes.map((c) => c.threads.length)).toEqual([4]);
    expect(sym.idVars).toEqual(['m']);
    const p = load(COUNTER, 4);
    const [plain, reduced] = [null, sym].map((symmetry) => explore(p, { recheck: true, symmetry }));
    expect(reduced).toMatchObject({ errorReachable: false, complete: true, closed: true });
    expect([plain.states, reduced.states]).toEqual([299, 37]);
    // The racy variant: the error run, rebuilt through permutations that moved the owner too, replays.
    const racy = loadProgram('benchmarks/programs/hard/counter-mutex-n4-racy.c', { calls: 'inline' });
    const r = explore(racy, { symmetry: findSymmetry(racy) });
    expect(r.errorReachable).toBe(true);
    expect('trace' in replay(racy, r.run!)).toBe(true);
  });

  it('instances that differ are not interchangeable: main joins only one', () => {
    const oneJoined = lower(`int a;
      void *f(void *p) { a = a + 1; return 0; }
      int main() { pthread_t x, y; pthread_create(&x, 0, f, 0); pthread_create(&y, 0, f, 0); pthread_join(x, 0); if (a > 2) reach_error(); return 0; }`);
    expect(findSymmetry(oneJoined)).toBeNull();
    const same = lower(`int a;
      void *f(void *p) { a = a + 1; return 0; }
      int main() { pthread_t x, y; pthread_create(&x, 0, f, 0); pthread_create(&y, 0, f, 0); pthread_join(x, 0); pthread_join(y, 0); if (a > 2) reach_error(); return 0; }`);
    expect(findSymmetry(same)?.classes.length).toBe(1);
  });
});

describe('the global search up to symmetry', () => {
  it('the same verdict as the plain search, with fewer states', () => {
    for (const n of [2, 3, 4]) {
      const p = load(BLUETOOTH_FIXED, n);
      const plain = explore(p, { recheck: true });
      const reduced = explore(p, { recheck: true, symmetry: findSymmetry(p) });
      expect(plain).toMatchObject({ errorReachable: false, complete: true, closed: true });
      expect(reduced).toMatchObject({ errorReachable: false, complete: true, closed: true });
      expect(reduced.states).toBeLessThan(plain.states);
    }
  });

  it('an error run rebuilt from canonical states replays in the interpreter', () => {
    for (const n of [2, 3, 4]) {
      const p = load(BLUETOOTH, n);
      const r = explore(p, { symmetry: findSymmetry(p) });
      expect(r.errorReachable).toBe(true);
      const replayed = replay(p, r.run!);
      expect('failure' in replayed ? replayed.failure : 'replayed').toBe('replayed');
    }
  });

  it('explicit-global decides KISS with 10 workers, fixed and unfixed, and says the proof is up to symmetry', () => {
    // Inlined calls, as the portfolio runs it (kept calls add call and return states).
    const safe = verifyExplicit(load(BLUETOOTH_FIXED, 10), 'explicit-global');
    expect(safe).toMatchObject({ verdict: 'safe', proofChecked: true, stats: { symmetry: 'worker ×10', bound: null } });
    const bug = verifyExplicit(load(BLUETOOTH, 10), 'explicit-global');
    expect(bug).toMatchObject({ verdict: 'unsafe', traceReplayed: true });
  });

  it('kept calls: stacks move with their instances, and an error run still replays', () => {
    const keep = (file: string) => loadProgram(file, { defines: { N: '3' }, calls: 'keep' });
    expect(verifyExplicit(keep(BLUETOOTH_FIXED), 'explicit-global')).toMatchObject({ verdict: 'safe', stats: { symmetry: 'worker ×3' } });
    expect(verifyExplicit(keep(BLUETOOTH), 'explicit-global')).toMatchObject({ verdict: 'unsafe', traceReplayed: true, stats: { symmetry: 'worker ×3' } });
  });
});

/**
 * Cone of influence (program/slice.ts): dropping what cannot decide the verdict must
 * not add behaviour that reaches an error. The explorer's answer on the slice is the
 * whole program's (on 200 generated programs in slice.slow.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { loadProgram } from '../../frontend/index.js';
import { coneOfInfluence } from '../../program/slice.js';
import { explore } from '../../engines/state-space/explore.js';
import { PRELUDE, lower } from '../helpers.js';

const errorIn = (p: Parameters<typeof explore>[0]) => explore(p, { nondetRange: [-3n, 3n] }).errorReachable;

describe('cone of influence', () => {
  it('keeps a branch on a value the same block just drew (k\' = 1 ∧ k\' = 2 disables the block)', () => {
    const p = lower(`${PRELUDE}
      int g = 0;
      void *t(void *arg) {
        int k = __VERIFIER_nondet_int();
        if (k == 1) { if (k == 2) { ERROR: reach_error(); } }
        return 0;
      }
      int main(void) { pthread_t a; pthread_create(&a, 0, t, 0); return 0; }`);
    expect(errorIn(p)).toBe(false);
    expect(errorIn(coneOfInfluence(p).program)).toBe(false);
  });

  it('still drops a variable that is only defined (x\' = e) and never decides anything', () => {
    const p = lower(`${PRELUDE}
      int g = 0;
      void *t(void *arg) {
        int unused = __VERIFIER_nondet_int();
        unused = unused + g;
        g = 1;
        if (g != 1) { ERROR: reach_error(); }
        return 0;
      }
      int main(void) { pthread_t a; pthread_create(&a, 0, t, 0); return 0; }`);
    const s = coneOfInfluence(p).program;
    expect([...s.vars.keys()].some((v) => v.endsWith('.unused'))).toBe(false);
    expect(errorIn(s)).toBe(false);
  });

  it('the SV-COMP-style fixture with inlined calls: no error on the slice either (a `switch` on a nondet k)', () => {
    for (const calls of ['inline', 'keep'] as const) {
      const p = loadProgram('test/fixtures/svcomp-style.c', { calls });
      expect([calls, errorIn(coneOfInfluence(p).program)]).toEqual([calls, errorIn(p)]);
    }
  });

});

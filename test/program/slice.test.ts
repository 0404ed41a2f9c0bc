/**
 * Cone of influence (program/slice.ts): dropping what cannot decide the verdict must
 * not add behaviour that reaches an error. The explorer's answer on the slice is the
 * whole program's (on 200 generated programs in slice.slow.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { loadProgram } from '../../frontend/index.js';
import { coneOfInfluence } from '../../program/slice.js';
import { liveVariables } from '../../program/dead-locals.js';
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

describe('the program passes look at the deadline', () => {
  // program/ cannot see the engines' budget: a pass takes a callback that throws to
  // stop, called per transition, so a large program's pass ends at the deadline.
  const source = `${PRELUDE}
    int g = 0;
    void *t(void *arg) { int k = g; g = k + 1; if (g == 5) { ERROR: reach_error(); } return 0; }
    int main(void) { pthread_t a; pthread_create(&a, 0, t, 0); return 0; }`;
  const transitions = (p: ReturnType<typeof lower>): number => p.threads.reduce((n, th) => n + th.transitions.length, 0);
  const stop = (): never => {
    throw new Error('stop');
  };

  it('the cone of influence: at least once per transition; a slice cut short is not kept', () => {
    const p = lower(source);
    let calls = 0;
    coneOfInfluence(lower(source), () => calls++);
    expect(calls).toBeGreaterThanOrEqual(transitions(p));
    expect(() => coneOfInfluence(p, stop)).toThrow('stop');
    expect(coneOfInfluence(p).program.threads.length).toBeGreaterThan(0);
  });

  it('liveness: at least once per transition; an analysis cut short is not kept', () => {
    const p = lower(source);
    const th = p.threads[p.threads.length - 1];
    expect(() => liveVariables(p, th, stop)).toThrow('stop');
    let calls = 0;
    liveVariables(p, th, () => calls++);
    expect(calls).toBeGreaterThanOrEqual(th.transitions.length);
  });
});

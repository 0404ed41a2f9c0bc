/**
 * Cone of influence on 200 generated programs: the explorer's answer on the slice is the
 * whole program's. The other slice tests are in slice.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { compileProgram } from '../../frontend/index.js';
import { coneOfInfluence } from '../../program/slice.js';
import { explore } from '../../engines/state-space/explore.js';
import { generateProgram } from '../../benchmarks/generate-programs.js';

describe('cone of influence', () => {
  it('on 200 generated programs (the differential generator): the slice reaches an error exactly when the program does', () => {
    const differ: number[] = [];
    for (let i = 0; i < 200; i++) {
      const p = compileProgram(generateProgram(7, i), `gen-7-${i}.c`);
      const [whole, slice] = [p, coneOfInfluence(p).program].map((q) => explore(q, { nondetRange: [-2n, 2n], maxStates: 200_000 }));
      if (whole.complete && slice.complete && whole.errorReachable !== slice.errorReachable) differ.push(i);
    }
    expect(differ).toEqual([]);
  });
});

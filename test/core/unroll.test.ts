/**
 * The unrolling (core/unroll.ts) looks at the deadline while it builds a query, not
 * only between queries: one step of a large product program (a thousand transitions
 * over hundreds of variables) takes seconds to build.
 */
import { describe, expect, it } from 'vitest';
import { findErrorTrace } from '../../core/unroll.js';
import { Timeout } from '../../core/errors.js';
import type { SmtSolver } from '../../solver/smt.js';
import { PRELUDE, lower } from '../helpers.js';

describe('the unrolling and the deadline', () => {
  it('a deadline that passes while the first query is built stops it before the query', async () => {
    const p = lower(`${PRELUDE}
      int g = 0;
      void *t(void *arg) { g = g + 1; if (g == 3) { ERROR: reach_error(); } return 0; }
      int main(void) { pthread_t a; pthread_create(&a, 0, t, 0); g = 2; return 0; }`);
    const solver = { modelFresh: async () => Promise.reject(new Error('queried past the deadline')) } as unknown as SmtSolver;
    let calls = 0;
    const checkTime = (): void => {
      if (++calls > 1) throw new Timeout();
    };
    await expect(findErrorTrace(p, solver, { checkTime, queryTimeoutMs: () => undefined })).rejects.toBeInstanceOf(Timeout);
  });
});

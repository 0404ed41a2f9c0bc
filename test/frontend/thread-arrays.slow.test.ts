/**
 * Threads created into a pthread_t array, n known at run time: the cases whose agreement
 * takes longest (every thread joined; a join of the cell k chosen at run time). The
 * others are in thread-arrays.test.ts.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { run, stopZ3, verdictsAgree } from '../helpers.js';
import { flags, JOIN_ALL } from './thread-array-programs.js';

afterAll(stopZ3);

const agree = verdictsAgree('rely-thread-arrays-slow-');

// The engines get 2 cells (with 3, aret takes seconds to tens of seconds).
describe('a loop creating threads into t[i], n known at run time', () => {
  it('all joined: the last thread has run when n = 2 (safe), not when n = 1 (unsafe)', async () => {
    await agree('all', flags(2, JOIN_ALL, 'if (n == 2 && d[1] != 1) reach_error();'), true);
    await agree('all-1', flags(2, JOIN_ALL, 'if (d[1] != 1) reach_error();'), false);
  }, 120_000);

  it('pthread_join(t[k]) with k chosen at run time awaits the thread of cell k', async () => {
    const one = (test: string) => flags(2, '', `if (${test}) { pthread_join(t[k], 0); if (d[k] != 1) reach_error(); }`);
    await agree('join-k', one('k < n'), true);
    // aret finds no error within 30 s here (nor with `k == 1 &&` in the test): an engine limit.
    await agree('join-k-0', flags(2, '', 'if (k < n) { pthread_join(t[k], 0); if (d[0] != 1) reach_error(); }'), false, ['bmc', 'explicit-global']);
    // t[k] for k == n < 2: a cell this run did not create into (undefined behaviour in C);
    // its instance never starts, so the join blocks, as a join of a constant cell does.
    expect(run(one('k <= n && k < 2')).errorReachable).toBe(false);
    // k == n == 2 is past the end of t.
    expect(run(one('k <= n')).errorReachable).toBe(true);
  }, 120_000);
});

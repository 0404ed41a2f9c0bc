/**
 * A native z3 that never answers: the run is killed at the deadline (and its grace),
 * UNKNOWN, exit 3. The other limits are in limits.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { cli, HANGING, startup } from './fake-z3.js';

describe('a native z3 that fails: UNKNOWN with the reason, promptly (fake z3s through RELY_Z3)', () => {
  it.each(['aret', 'monolithic'])('one that never answers, --engine %s: killed at the deadline (+ 2 s grace), UNKNOWN, exit 3', (engine) => {
    const r = cli(['verify', '--engine', engine, '--solver', 'native', '--timeout', '3', 'benchmarks/programs/peterson.c'], { RELY_Z3: HANGING });
    expect(r.code).toBe(3);
    expect(r.out).toMatch(/^UNKNOWN: (solver: unknown \()?timeout/);
    expect(r.err).toBe('');
    expect(r.s).toBeLessThan(2 * startup + 3 + 2 + 4); // startup counted twice: the machine's load varies
  });
});

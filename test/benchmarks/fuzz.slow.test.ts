/**
 * A small seeded fuzz campaign through the suite's runner (the same child processes as
 * `rely bench --suite fuzz`; it needs the build in dist/). The classifier, the generator
 * and the crashes found are in fuzz.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { runFuzz, FAILURES } from '../../benchmarks/fuzz.js';

describe('a small fuzz campaign (CI size)', () => {
  it('200 cases of seed 2026: no internal error, stack trace, crash or hang', async () => {
    const results = await runFuzz({ count: 200, seed: 2026, engines: ['auto'], timeoutS: 1, hangS: 40, jobs: 2, solver: 'auto' });
    const failed = results.filter((r) => FAILURES.includes(r.outcome));
    const outcomes = Object.fromEntries([...new Set(results.map((r) => r.outcome))].map((o) => [o, results.filter((r) => r.outcome === o).length]));
    expect(results).toHaveLength(200);
    expect(failed.map((r) => `case ${r.index} (${r.outcome}, ${r.origin}: ${r.how}): ${r.detail}`)).toEqual([]);
    // The campaign reaches the engines, not only the parser: the seed's cases are 99 verdicts and 101 located refusals.
    expect(outcomes).toEqual({ ok: 99, 'bad-input-ok': 101 });
  }, 180_000);
});

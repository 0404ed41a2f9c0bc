/** The memory study of `rely bench --suite ag` (benchmarks/ag-report.ts), on made-up runs. */
import { describe, expect, it } from 'vitest';
import { agStudy } from '../../benchmarks/ag-report.js';
import type { AgEntry } from '../../benchmarks/ag-bench.js';
import { configs, type RunResult } from '../../benchmarks/bench.js';

const entry = (n: number, expected: 'safe' | 'unsafe' = 'safe'): AgEntry => ({ file: `f${n}.c`, name: `Relay${expected === 'unsafe' ? '-bug' : ''}(${n})`, family: 'relay', n, expected, property: '', loc: 10, note: '' });
const run = (e: AgEntry, config: string, verdict: RunResult['verdict'], memory: number | null): RunResult => ({
  program: e.name, config, verdict, reason: verdict === 'unknown' ? 'timeout' : null, modular: null, timeMs: 1000, wallMs: 1100, iterations: null, predicates: null,
  states: config.startsWith('learn') ? null : memory, guarantee: null, largestCheck: config.startsWith('learn') ? memory : null,
  wrong: verdict !== 'unknown' && verdict !== e.expected, hornAnsweredBy: null, decidedBy: null,
});

describe('ag memory study', () => {
  const cols = configs({ bias: ['modular'], engines: ['learn', 'explicit-global'], hornSolvers: ['spacer'] });
  const entries = [entry(2), entry(3), entry(4), entry(2, 'unsafe')];
  const results = [
    run(entries[0], 'learn', 'safe', 50), run(entries[0], 'learn-generalized', 'safe', 20), run(entries[0], 'explicit-global', 'safe', 100),
    run(entries[1], 'learn', 'safe', 400), run(entries[1], 'learn-generalized', 'unknown', null), run(entries[1], 'explicit-global', 'safe', 1000),
    run(entries[2], 'learn', 'unknown', null), run(entries[2], 'learn-generalized', 'unknown', null), run(entries[2], 'explicit-global', 'safe', 10000),
    run(entries[3], 'learn', 'unsafe', 7), run(entries[3], 'learn-generalized', 'unsafe', 7), run(entries[3], 'explicit-global', 'unsafe', 70),
  ];

  it('divides each largest check by the monolithic states, only where both decided, and names the largest n decided', () => {
    expect(cols.map((c) => c.key)).toEqual(['learn', 'learn-generalized', 'explicit-global']);
    const s = agStudy(entries, cols, results, 60)!;
    expect(s.markdown).toContain('| relay | 2 | safe | ✓ 1.0 s, 100 states, ratio 1.00 | ✓ 1.0 s, 50 states, ratio 0.50 | ✓ 1.0 s, 20 states, ratio 0.20 |');
    expect(s.markdown).toContain('| relay | 3 | safe | ✓ 1.0 s, 1,000 states, ratio 1.00 | ✓ 1.0 s, 400 states, ratio 0.40 | T/O 1.0 s |');
    expect(s.markdown).toContain('| relay (bug) | 2 | unsafe |');
    expect(s.markdown).toContain('| relay | 3 | 2 | 4 (all) |');
    // One panel per learn configuration, one polyline per family with its decided points.
    expect(s.svg.match(/<g id="learn">/g)).toHaveLength(1);
    expect(s.svg.match(/<g id="learn-generalized">/g)).toHaveLength(1);
    expect(s.svg.match(/<title>relay, n = \d+: [\d.]+<\/title>/g)).toEqual(['<title>relay, n = 2: 0.5</title>', '<title>relay, n = 3: 0.4</title>', '<title>relay, n = 2: 0.2</title>']);
  });

  it('needs the monolithic column', () => {
    expect(agStudy(entries, configs({ bias: ['modular'], engines: ['learn'], hornSolvers: ['spacer'] }), results, 60)).toBeNull();
  });
});

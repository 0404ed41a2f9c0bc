/**
 * The scaling report of `rely bench`: the growth fits recover known laws, the scaling
 * suite takes every Simple(n) by n, and the SVG plot is well-formed XML with one
 * polyline per configuration and panel, leaving out undecided runs.
 */
import { describe, expect, it } from 'vitest';
import { configs, loadManifest, suiteOf, type RunResult } from '../../benchmarks/bench.js';
import { exponentialFit, powerFit, scalingReport } from '../../benchmarks/scaling-report.js';

const ns = [2, 3, 4, 5, 6, 8, 12, 16, 24, 32, 48, 64];

describe('growth fits', () => {
  it('recover k = 2 and c from exact c·n^2 data', () => {
    const f = powerFit(ns.map((n) => ({ n, y: 3 * n * n })))!;
    expect(f.growth).toBeCloseTo(2, 10);
    expect(f.c).toBeCloseTo(3, 8);
    expect(f.r2).toBeCloseTo(1, 10);
    expect(f.points).toBe(ns.length);
  });

  it('recover b = 2 from exact 2^n data, where the exponential law fits better than any power', () => {
    const points = ns.slice(0, 8).map((n) => ({ n, y: 5 * 2 ** n }));
    const f = exponentialFit(points)!;
    expect(f.growth).toBeCloseTo(2, 10);
    expect(f.c).toBeCloseTo(5, 8);
    expect(f.r2).toBeCloseTo(1, 10);
    expect(powerFit(points)!.r2).toBeLessThan(0.99);
  });

  it('need two distinct n', () => {
    expect(powerFit([{ n: 4, y: 16 }])).toBeNull();
    expect(exponentialFit([{ n: 4, y: 16 }, { n: 4, y: 17 }])).toBeNull();
  });
});

describe('scaling suite', () => {
  it('is every Simple(n) of the manifest, Simple(4) (filed under extra) included, by n', () => {
    const names = suiteOf(loadManifest(), 'scaling').map((e) => e.name);
    expect(names).toEqual(ns.map((n) => `Simple(${n})`));
  });
});

/**
 * A minimal XML well-formedness check (no dependency): every tag has quoted
 * attributes, closing tags match in order, one root element, and text holds no raw
 * `<`, `>` or `&` other than an entity. Returns the element names in document order.
 */
function xmlElements(xml: string): string[] {
  const names: string[] = [];
  const stack: string[] = [];
  let roots = 0;
  let last = 0;
  for (const m of xml.matchAll(/<[^<>]*>/g)) {
    const text = xml.slice(last, m.index);
    if (/[<>]|&(?!(amp|lt|gt|quot);)/.test(text)) throw new Error(`bad text ${JSON.stringify(text)}`);
    last = m.index + m[0].length;
    const t = /^<(\/?)([A-Za-z][\w-]*)((?:\s+[\w:-]+="[^"]*")*)\s*(\/?)>$/.exec(m[0]);
    if (!t || (t[1] && (t[3] || t[4]))) throw new Error(`bad tag ${m[0]}`);
    if (t[1]) {
      if (stack.pop() !== t[2]) throw new Error(`unmatched ${m[0]}`);
      continue;
    }
    if (stack.length === 0) roots++;
    names.push(t[2]);
    if (!t[4]) stack.push(t[2]);
  }
  if (stack.length > 0 || roots !== 1 || xml.slice(last).trim() !== '') throw new Error(`unclosed ${stack.join(', ')} or ${roots} roots`);
  return names;
}

describe('scaling report', () => {
  const cols = configs({ bias: ['modular'], engines: ['aret', 'explicit-modular', 'explicit-global'], hornSolvers: ['spacer'] });
  const run = (n: number | string, config: string, verdict: RunResult['verdict'], timeMs: number, states: number | null = null): RunResult => ({
    program: typeof n === 'number' ? `Simple(${n})` : n,
    config,
    verdict,
    reason: verdict === 'unknown' ? 'timeout' : null,
    modular: null,
    timeMs,
    wallMs: timeMs + 100,
    iterations: null,
    predicates: null,
    states,
    guarantee: config === 'explicit-modular' ? n as number : null,
    largestCheck: null,
    wrong: false,
    hornAnsweredBy: null,
    decidedBy: null,
  });
  const results = [2, 4, 8, 16].flatMap((n) => [
    n === 2 ? run(n, 'aret-modular-spacer', 'safe', 500) : run(n, 'aret-modular-spacer', 'unknown', 60_000),
    run(n, 'explicit-modular', 'safe', n * n, 7 * n * n),
    n < 16 ? run(n, 'explicit-global', 'safe', 2 ** n, 2 ** n) : run(n, 'explicit-global', 'unknown', 60_000, 999_999),
  ]);
  // Not a Simple(n): no point of it may appear.
  results.push(run('Simple(4)-broken', 'explicit-global', 'unsafe', 77, 77));
  const report = scalingReport(cols, results)!;
  const panel = (id: string) => new RegExp(`<g id="${id}">([\\s\\S]*?)</g>`).exec(report.svg)![1];
  const titles = (id: string) => [...panel(id).matchAll(/<title>([^<]*)<\/title>/g)].map((m) => m[1]);
  const polylines = (id: string) => [...panel(id).matchAll(/<polyline [^>]*points="([^"]*)"/g)].map((m) => m[1].split(' ').length);

  it('is null without Simple(n) in the run', () => {
    expect(scalingReport(cols, [run('Dekker', 'explicit-global', 'safe', 10, 100)])).toBeNull();
  });

  it('plots well-formed SVG: two panels, one polyline per configuration with decided points', () => {
    const names = xmlElements(report.svg);
    expect(names[0]).toBe('svg');
    expect(names.filter((x) => x === 'polyline')).toHaveLength(5);
    // States: only the explicit engines count states; the global one timed out at n = 16.
    expect(polylines('states')).toEqual([4, 3]);
    expect(titles('states')).toContain('explicit-modular, n = 16: 1,792 states');
    expect(titles('states').filter((t) => t.startsWith('explicit-global'))).toEqual([2, 4, 8].map((n) => `explicit-global, n = ${n}: ${2 ** n} states`));
    // Time: the ARET engine decided n = 2 only.
    expect(polylines('time')).toEqual([1, 4, 3]);
    expect(titles('time').filter((t) => t.startsWith('with bias'))).toEqual(['with bias, n = 2: 0.5 s']);
    expect(report.svg).not.toMatch(/n = 16: 999,999|: 77 states/);
    expect(panel('legend').match(/<text/g)).toHaveLength(3);
  });

  it('tabulates every n and fits the decided points', () => {
    const md = report.markdown;
    expect(md).toContain('## Scaling');
    expect(md).toMatch(/\| 16 \| T\/O 60\.0 s \| ✓ 0\.26 s, 1,792 states, 16 guarantee \| T\/O 60\.0 s, 999,999 states \|/);
    const fit = (label: string) => md.split('\n').find((l) => l.startsWith(`| ${label} |`))!;
    expect(fit('explicit-modular')).toContain('k = 2.00, c = 7 (R² = 1.000, 4 points)');
    expect(fit('explicit-global')).toContain('b = 2.000, c = 1 (R² = 1.000, 3 points)');
    expect(fit('with bias')).toBe('| with bias |  | — |  |');
  });
});

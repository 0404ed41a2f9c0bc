/**
 * The benchmark runner on real runs: the CI subset of the manifest agrees with its
 * expected verdicts (a regression check on verdicts, no timing assertions), and the
 * differential suite tables engines against exploration. The rest is in bench.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadManifest, suiteOf } from '../../benchmarks/bench.js';
import { rely } from '../helpers.js';

describe('rely bench', () => {
  it('the CI subset: every verdict as the manifest says, by the portfolio, under both bias settings and by the monolithic baseline', async () => {
    const out = mkdtempSync(join(tmpdir(), 'rely-bench-'));
    // Two jobs: a check of verdicts, not of times (the 60 s limit is far above any run's).
    const r = await rely(['bench', '--suite', 'ci', '--timeout', '60', '--jobs', '2', '--out', out]);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as { results: { program: string; config: string; verdict: string }[] };
    const undecided = results.results.filter((x) => x.verdict !== 'safe' && x.verdict !== 'unsafe');
    expect(r.code).toBe(0);
    expect(results.results.length).toBe(4 * suiteOf(loadManifest(), 'ci').length); // auto, both biases and the monolithic baseline
    expect(undecided).toEqual([]);
    expect(readFileSync(join(out, 'results.csv'), 'utf8').split('\n')[0]).toBe('program,config,expected,verdict,decided_by,wrong,modular,time_ms,wall_ms,iterations,predicates,states,guarantee,reason');
    expect(readFileSync(join(out, 'results.md'), 'utf8')).toContain('| Fig2-fixed | ');
    // index.html: the same table as HTML, and the time of each program against Threader's, plotted.
    const index = readFileSync(join(out, 'index.html'), 'utf8');
    expect(index).toMatch(/<table>[\s\S]*<td>Fig2-fixed<\/td>/);
    expect(index).toMatch(/<figure id="threader.svg"><svg [^>]*>[\s\S]*<title>with bias, Fig2-fixed: [\d.]+ s \(Threader [\d.]+ s\)<\/title>/);
  }, 300_000);
});

describe('rely bench --suite differential', () => {
  // Through cli/rely.js: the suite forks compiled workers (dist/benchmarks/differential-worker.js).
  it('engines against exploration: a table per configuration, results.md and results.json, exit 0 without contradictions', () => {
    const out = mkdtempSync(join(tmpdir(), 'rely-diff-'));
    const r = spawnSync(process.execPath, ['cli/rely.js', 'bench', '--suite', 'differential', '--seed', '5', '--count', '6', '--engine', 'explicit-global,explicit-modular,aret-modular-spacer', '--jobs', '2', '--out', out], { encoding: 'utf8', timeout: 120_000 });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^\| explicit-modular \| \d+ \| \d+ \| \d+ \| \d+ \([\d.]+ %\) \|/m);
    expect(r.stdout).toMatch(/^\| aret-modular-spacer \|/m);
    const json = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as { configs: string[]; contradictions: number; perConfig: Record<string, { runs: number }> };
    expect(json.configs).toEqual(['explicit-global', 'explicit-modular', 'aret-modular-spacer']);
    expect(json.contradictions).toBe(0);
    // Every program checked is decided or counted UNKNOWN by every configuration: 6 programs less the skipped.
    const skipped = Number(/(\d+) skipped/.exec(r.stdout)![1]);
    for (const k of json.configs) expect(json.perConfig[k].runs).toBe(6 - skipped);
    expect(readFileSync(join(out, 'results.md'), 'utf8')).toContain('| configuration | runs |');
  }, 120_000);
});

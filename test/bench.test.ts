/**
 * The benchmark runner: the CI subset of the manifest agrees with its expected verdicts
 * (a regression check on verdicts, no timing assertions), and a run whose verdict
 * differs from the manifest is caught.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configs, loadManifest, runBench, suiteOf, type ManifestEntry, type RunResult } from '../benchmarks/bench.js';
import { csv, markdownTable } from '../benchmarks/bench-report.js';
import { rely } from './helpers.js';

describe('rely bench', () => {
  it('the CI subset: every verdict as the manifest says, by the portfolio, under both bias settings and by the monolithic baseline', async () => {
    const out = mkdtempSync(join(tmpdir(), 'rely-bench-'));
    const r = await rely(['bench', '--suite', 'ci', '--timeout', '60', '--out', out]);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as { results: { program: string; config: string; verdict: string }[] };
    const undecided = results.results.filter((x) => x.verdict !== 'safe' && x.verdict !== 'unsafe');
    console.log(r.out);
    expect(r.code).toBe(0);
    expect(results.results.length).toBe(4 * suiteOf(loadManifest(), 'ci').length); // auto, both biases and the monolithic baseline
    expect(undecided).toEqual([]);
    expect(readFileSync(join(out, 'results.csv'), 'utf8').split('\n')[0]).toBe('program,config,expected,verdict,decided_by,wrong,modular,time_ms,wall_ms,iterations,predicates,states,guarantee,reason');
    expect(readFileSync(join(out, 'results.md'), 'utf8')).toContain('| Fig2-fixed | ');
  }, 300_000);

  it('speed-up against monolithic: a lower bound (>) only against a timeout, nothing against another UNKNOWN', () => {
    const entry: ManifestEntry = { file: 'x.c', name: 'x', suite: 'hard', expected: 'safe', modularProofExists: null, loc: 0, note: '' };
    const cols = configs({ bias: ['modular'], engines: ['aret', 'monolithic'], hornSolvers: ['spacer'] });
    const run = (config: string, verdict: RunResult['verdict'], timeMs: number, reason: string | null = null): RunResult => ({
      program: 'x', config, verdict, reason, modular: null, timeMs, wallMs: timeMs, iterations: null, predicates: null, states: null, guarantee: null, wrong: false, hornAnsweredBy: null, decidedBy: null,
    });
    const m = { date: 'd', cpus: 1, cpuModel: 'c', memoryGiB: 1, node: 'v', solver: 's', z3: 'z' };
    const row = (mono: RunResult) => markdownTable([entry], cols, [run(cols[0].key, 'safe', 100), mono], m, 30).split('\n').find((l) => l.startsWith('| x |'))!;
    expect(row(run('monolithic', 'safe', 2_000))).toMatch(/\| 20× \|$/);
    expect(row(run('monolithic', 'unknown', 30_000, 'timeout'))).toMatch(/\| > 300× \|$/);
    expect(row(run('monolithic', 'unknown', 10, 'unsupported: nonlinear arithmetic'))).toMatch(/\|  \|$/);
  });

  it('flags a verdict that contradicts the manifest', async () => {
    const bogus: ManifestEntry = { file: 'test/fixtures/lockid-nolock.c', name: 'nolock', suite: 'extra', expected: 'safe', modularProofExists: null, loc: 0, note: '' };
    const cols = configs({ bias: ['modular'], engines: ['aret'], hornSolvers: ['spacer'] });
    const [r] = await runBench({ entries: [bogus], configs: cols, timeoutS: 30, jobs: 1, solver: 'auto' });
    expect(r.verdict).toBe('unsafe');
    expect(r.wrong).toBe(true);
    const m = { date: 'd', cpus: 1, cpuModel: 'c', memoryGiB: 1, node: 'v', solver: 's', z3: 'z' };
    expect(markdownTable([bogus], cols, [r], m, 30)).toContain('**WRONG** ×');
    expect(csv([bogus], [r])).toContain('nolock,aret-modular-spacer,safe,unsafe,aret,true');
  }, 60_000);
});

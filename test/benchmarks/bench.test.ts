/**
 * The benchmark runner: a run whose verdict differs from the manifest is caught, the
 * report's scores and speed-ups, and the differential suite's options. The CI subset's
 * verdicts and the differential suite's tables are in bench.slow.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configs, runBench, type ManifestEntry, type RunResult } from '../../benchmarks/bench.js';
import { csv, markdownTable, svcompPoints } from '../../benchmarks/bench-report.js';

describe('rely bench', () => {

  it('speed-up against monolithic: a lower bound (>) only against a timeout, nothing against another UNKNOWN', () => {
    const entry: ManifestEntry = { file: 'x.c', name: 'x', suite: 'hard', expected: 'safe', modularProofExists: null, loc: 0, note: '' };
    const cols = configs({ bias: ['modular'], engines: ['aret', 'monolithic'], hornSolvers: ['spacer'] });
    const run = (config: string, verdict: RunResult['verdict'], timeMs: number, reason: string | null = null): RunResult => ({
      program: 'x', config, verdict, reason, modular: null, timeMs, wallMs: timeMs, iterations: null, predicates: null, states: null, guarantee: null, largestCheck: null, wrong: false, hornAnsweredBy: null, decidedBy: null,
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

  it("SV-COMP's score: +2 a proof, +1 a bug, −32 a wrong proof, −16 a wrong bug, 0 no answer; and the parameterized count", () => {
    const r = (verdict: RunResult['verdict']): RunResult => ({
      program: 'x', config: 'auto', verdict, reason: null, modular: null, timeMs: 1, wallMs: 1, iterations: null, predicates: null, states: null, guarantee: null, largestCheck: null, wrong: false, hornAnsweredBy: null, decidedBy: null,
    });
    expect([svcompPoints('safe', r('safe')), svcompPoints('unsafe', r('unsafe')), svcompPoints('unsafe', r('safe')), svcompPoints('safe', r('unsafe'))]).toEqual([2, 1, -32, -16]);
    expect([svcompPoints('safe', r('unknown')), svcompPoints('safe', r('error')), svcompPoints('safe', undefined)]).toEqual([0, 0, 0]);
    const entry = (name: string, expected: 'safe' | 'unsafe'): ManifestEntry => ({ file: `${name}.c`, name, suite: 'svcomp-style', expected, parameterized: true, modularProofExists: null, loc: 0, note: '' });
    const cols = configs({ bias: ['modular'], engines: ['auto'], hornSolvers: ['spacer'] });
    const m = { date: 'd', cpus: 1, cpuModel: 'c', memoryGiB: 1, node: 'v', solver: 's', z3: 'z' };
    const table = markdownTable([entry('a', 'safe'), entry('b', 'unsafe')], cols, [{ ...r('safe'), program: 'a' }, { ...r('unknown'), program: 'b' }], m, 30);
    expect(table).toContain('SV-COMP score (TRUE +2, FALSE +1, wrong TRUE −32, wrong FALSE −16): auto 2.');
    expect(table).toContain('Parameterized tasks (threads created without a static bound) correct: auto 1/2.');
  });
});

describe('rely bench --suite differential', () => {
  // Through cli/rely.js: the suite forks compiled workers (dist/benchmarks/differential-worker.js).
  const bench = (...args: string[]) => spawnSync(process.execPath, ['cli/rely.js', 'bench', '--suite', 'differential', ...args], { encoding: 'utf8', timeout: 120_000 });

  it('--data: the data programs (structs, unions, run-time indices, pointers), recorded in results.json; another suite refuses it', () => {
    const out = mkdtempSync(join(tmpdir(), 'rely-diff-data-'));
    const r = bench('--data', '--seed', '20261129', '--count', '3', '--engine', 'explicit-global', '--out', out);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('differential (data programs): seed 20261129');
    const json = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as { data: boolean; checked: number };
    expect(json).toMatchObject({ data: true, checked: 3 });
    expect(readFileSync(join(out, 'results.md'), 'utf8')).toContain('# rely bench --suite differential --data --seed 20261129');
    const other = spawnSync(process.execPath, ['cli/rely.js', 'bench', '--suite', 'ci', '--data'], { encoding: 'utf8', timeout: 60_000 });
    expect(other.status).toBe(2);
    expect(other.stderr).toContain('--data is an option of --suite differential');
  }, 120_000);

  it('--sync: the sync programs (condition variables, rwlocks, barriers, semaphores, atomics), recorded in results.json; another suite refuses it', () => {
    const out = mkdtempSync(join(tmpdir(), 'rely-diff-sync-'));
    const r = bench('--sync', '--seed', '20261201', '--count', '3', '--engine', 'explicit-global', '--out', out);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('differential (sync programs): seed 20261201');
    const json = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as { data: boolean; sync: boolean; checked: number };
    expect(json).toMatchObject({ data: false, sync: true, checked: 3 });
    expect(readFileSync(join(out, 'results.md'), 'utf8')).toContain('# rely bench --suite differential --sync --seed 20261201');
    const other = spawnSync(process.execPath, ['cli/rely.js', 'bench', '--suite', 'ci', '--sync'], { encoding: 'utf8', timeout: 60_000 });
    expect(other.status).toBe(2);
    expect(other.stderr).toContain('--sync is an option of --suite differential');
  }, 120_000);

  it('an engine it does not know: exit 2 with the configurations it has', () => {
    const r = bench('--count', '1', '--engine', 'aret-sideways');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('aret-modular-spacer');
  });
});

/**
 * The c-data suite of the manifest, and `rely bench
 * --tasks DIR` over SV-COMP task definitions. In both a program rely cannot read is an
 * UNKNOWN (as SV-COMP scores it), not a failed run, and results.md has a table per folder.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CANNOT_READ, configs, loadManifest, runBench, suiteOf, type ManifestEntry } from '../../benchmarks/bench.js';
import { taskManifest } from '../../cli/bench.js';
import { rely } from '../helpers.js';

const SAFE_C = `extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "ok.c", 2, "reach_error"); }
#include <pthread.h>
int x = 0;
void *t(void *a) { x = 1; return 0; }
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  if (x != 1) reach_error();
  return 0;
}
`;
/** Not C: no version of the frontend reads it. */
const UNREADABLE_C = 'int main( {\n';

const task = (input: string, prp: string, verdict: boolean) =>
  `format_version: '2.0'\ninput_files: '${input}'\nproperties:\n  - property_file: ../properties/${prp}\n    expected_verdict: ${verdict}\noptions:\n  language: C\n  data_model: ILP32\n`;

describe('the c-data and pthreads suites', () => {
  it.each([['c-data', 24], ['pthreads', 40]] as const)('%s: a SAFE program and its UNSAFE -bug twin per construct, every file there, none in the CI subset', (suite, least) => {
    const entries = suiteOf(loadManifest(), suite);
    expect(entries.length).toBeGreaterThanOrEqual(least);
    for (const e of entries) {
      expect(existsSync(e.file), e.file).toBe(true);
      expect(e.expected).toBe(e.name.endsWith('-bug') ? 'unsafe' : 'safe');
      expect(entries.some((x) => x.name === (e.expected === 'unsafe' ? e.name.slice(0, -'-bug'.length) : `${e.name}-bug`))).toBe(true);
      expect(e.ci).toBeFalsy();
    }
  });

  it('a program rely cannot read: UNKNOWN with its message in c-data, pthreads and svcomp-tasks, a failed run in any other suite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rely-cdata-'));
    const file = join(dir, 'unreadable.c');
    writeFileSync(file, UNREADABLE_C);
    const entry = (suite: ManifestEntry['suite']): ManifestEntry => ({ file, name: suite, suite, expected: 'safe', modularProofExists: null, loc: 1, note: '' });
    const cols = configs({ bias: ['modular'], engines: ['auto'], hornSolvers: ['spacer'] });
    const [cdata, pthreads, tasks, hard] = await runBench({ entries: [entry('c-data'), entry('pthreads'), entry('svcomp-tasks'), entry('hard')], configs: cols, timeoutS: 20, jobs: 1, solver: 'auto' });
    for (const r of [cdata, pthreads, tasks]) {
      expect(r.verdict).toBe('unknown');
      expect(r.reason?.startsWith(CANNOT_READ)).toBe(true);
      expect(r.reason).not.toContain(file); // the location is dropped, so one construct is one group
    }
    expect(hard.verdict).toBe('error');
  }, 60_000);
});

describe('rely bench --tasks DIR', () => {
  function tasksDir(): string {
    const dir = mkdtempSync(join(tmpdir(), 'rely-tasks-'));
    mkdirSync(join(dir, 'f'));
    writeFileSync(join(dir, 'f', 'ok.c'), SAFE_C);
    writeFileSync(join(dir, 'f', 'ok.yml'), task('ok.c', 'unreach-call.prp', true));
    writeFileSync(join(dir, 'f', 'unread.c'), UNREADABLE_C);
    writeFileSync(join(dir, 'f', 'unread.yml'), task('unread.c', 'unreach-call.prp', false));
    writeFileSync(join(dir, 'f', 'race.yml'), task('ok.c', 'no-data-race.prp', false));
    return dir;
  }

  it('reads the task definitions below DIR: unreach-call tasks become entries with their data model, the rest are listed with why', () => {
    const dir = tasksDir();
    const { entries, skipped } = taskManifest(dir);
    expect(entries.map((e) => [e.name, e.expected, e.args, e.file])).toEqual([
      ['f/ok', 'safe', ['--data-model', 'ILP32'], join(dir, 'f', 'ok.c')],
      ['f/unread', 'unsafe', ['--data-model', 'ILP32'], join(dir, 'f', 'unread.c')],
    ]);
    expect(skipped.map((s) => s.name)).toEqual(['f/race']);
    expect(skipped[0].why).toContain('not found');
  });

  it('runs them, scores them as SV-COMP does and tables them per folder; an unreadable program is UNKNOWN, exit 0', async () => {
    const dir = tasksDir();
    const out = mkdtempSync(join(tmpdir(), 'rely-tasks-out-'));
    const r = await rely(['bench', '--tasks', dir, '--engine', 'auto', '--timeout', '20', '--out', out]);
    expect(r.code).toBe(0);
    const md = readFileSync(join(out, 'results.md'), 'utf8');
    expect(md).toContain('SV-COMP score (TRUE +2, FALSE +1, wrong TRUE −32, wrong FALSE −16): auto 2.');
    expect(md).toMatch(/\| f \| auto \| 2 \| 1 \| 1 \| 0 \| 1 \| 2 \| cannot read: [^|]+\(1\) \|/);
    expect(md).toContain('Tasks not run (1): f/race (');
    expect(JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')).suite).toBe(`tasks ${dir}`);
    // Tasks replace the manifest's suites: naming both is a usage error.
    expect((await rely(['bench', '--tasks', dir, '--suite', 'hard'])).code).toBe(2);
  }, 120_000);
});

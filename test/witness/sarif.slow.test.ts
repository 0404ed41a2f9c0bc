/**
 * `rely verify --sarif` on every UNSAFE program of the table1, extra and svcomp-style
 * suites (benchmarks/expected.json), each in a fresh `rely` process as `rely bench` runs
 * them, with the default engine: the log validates against the SARIF 2.1.0 schema, its
 * one result is at the trace's error, and its code flow has one thread flow per thread
 * that takes a step of the trace (`--json` prints the same trace), every step once, in
 * executionOrder. Each program takes a few seconds here (2-core machine, about 1 minute
 * for the 20 together).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadManifest } from '../../benchmarks/bench.js';
import { flowProblems, flowSteps, schemaErrors } from './sarif-check.js';

const SUITES = new Set(['table1', 'extra', 'svcomp-style']);
const unsafe = loadManifest().filter((e) => SUITES.has(e.suite) && e.expected === 'unsafe');
const dir = mkdtempSync(join(tmpdir(), 'rely-sarif-suites-'));
const TIMEOUT_S = 120;

describe('rely verify --sarif on the UNSAFE programs of table1, extra and svcomp-style', () => {
  it('finds the programs', () => expect(unsafe.length).toBeGreaterThanOrEqual(20));

  it.each(unsafe.map((e) => [e.name, e.file]))('%s: the log validates, its code flow is the trace with one thread flow per acting thread', (name, file) => {
    const out = join(dir, `${name.replace(/\W/g, '_')}.sarif`);
    const r = spawnSync('node', ['cli/rely.js', 'verify', '--json', '--timeout', String(TIMEOUT_S), '--sarif', out, file], { encoding: 'utf8' });
    expect(r.status, r.stdout + r.stderr).toBe(1);
    const trace = (JSON.parse(r.stdout) as { counterexample: { thread: string; line: number; values: Record<string, string> }[] }).counterexample;
    const log = JSON.parse(readFileSync(out, 'utf8')) as { runs: { results: { codeFlows: { threadFlows: { id: string }[] }[] }[] }[] };
    expect(schemaErrors(log)).toEqual([]);
    expect(log.runs[0].results).toHaveLength(1);
    expect(flowProblems(log)).toEqual([]);
    expect(flowSteps(log).map((s) => ({ thread: s.thread, line: s.line, state: s.state }))).toEqual(trace.map((s) => ({ thread: s.thread, line: s.line, state: s.values })));
    const threads = log.runs[0].results[0].codeFlows[0].threadFlows.map((t) => t.id).sort();
    expect(threads).toEqual([...new Set(trace.map((s) => s.thread))].sort());
  }, (TIMEOUT_S + 30) * 1000);
});

/**
 * `rely verify --sarif`: every log validates against the OASIS SARIF 2.1.0 schema; an
 * UNSAFE log's code flow is the trace --json prints (one thread flow per thread that
 * acts, every step once, in executionOrder); SAFE has no results and the proof in
 * run.properties; UNKNOWN and bad input carry their reason as an error notification.
 * Programs the engines settle in a second or two; every UNSAFE of the bench suites is in
 * sarif.slow.test.ts.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { rely } from '../helpers.js';
import { unknownVerdict } from '../../cli/unknown.js';
import { sarifLog } from '../../witness/sarif.js';
import { flowProblems, flowSteps, schemaErrors } from './sarif-check.js';

const dir = mkdtempSync(join(tmpdir(), 'rely-sarif-'));

// The logs are read as JSON, their shape checked by the schema.
type AnyJson = any;

/** Runs `rely verify --sarif` (with `args` before the file) and reads the log back; `out` is the --json output when `args` has --json. */
async function verifySarif(name: string, file: string, args: string[] = []): Promise<{ code: number; out: string; err: string; log: AnyJson; run: AnyJson }> {
  const path = join(dir, `${name}.sarif`);
  const r = await rely(['verify', ...args, '--sarif', path, file]);
  const log = JSON.parse(readFileSync(path, 'utf8')) as AnyJson;
  expect(schemaErrors(log)).toEqual([]);
  return { ...r, log, run: log.runs[0] };
}

describe('rely verify --sarif', () => {
  it('UNSAFE: one result at the error, its code flow the trace --json prints: a thread flow per acting thread, each step once in executionOrder, with the values it set', async () => {
    const { code, out, log, run } = await verifySarif('nolock', 'test/fixtures/lockid-nolock.c', ['--json']);
    expect(code).toBe(1);
    const trace = JSON.parse(out).counterexample as { thread: string; line: number; steps: { line: number; text: string }[]; values: Record<string, string> }[];
    expect(run.results).toHaveLength(1);
    const [result] = run.results;
    expect(result).toMatchObject({ level: 'error', kind: 'fail', ruleId: 'reach-error' });
    expect(run.tool.driver.rules[result.ruleIndex].id).toBe(result.ruleId);
    // The error's statement: the last statement of the last step.
    expect(result.locations[0].physicalLocation).toMatchObject({ artifactLocation: { uri: 'test/fixtures/lockid-nolock.c', uriBaseId: '%SRCROOT%' }, region: { startLine: trace.at(-1)!.steps.at(-1)!.line } });
    expect(flowProblems(log)).toEqual([]);
    const steps = flowSteps(log);
    expect(steps.map((s) => ({ thread: s.thread, line: s.line, state: s.state }))).toEqual(trace.map((s) => ({ thread: s.thread, line: s.line, state: s.values })));
    const threads = result.codeFlows[0].threadFlows.map((t: AnyJson) => t.id);
    expect(new Set(threads)).toEqual(new Set(trace.map((s) => s.thread)));
    expect(threads).toHaveLength(new Set(threads).size);
    expect(run.invocations[0]).toMatchObject({ executionSuccessful: true, exitCode: 1 });
    expect(run.invocations[0].toolExecutionNotifications).toBeUndefined();
  });

  it('SAFE: a run without results, what was proved and the statistics in run.properties', async () => {
    const { code, run } = await verifySarif('lockid', 'benchmarks/programs/lockid.c');
    expect(code).toBe(0);
    expect(run.results).toEqual([]);
    expect(run.properties).toMatchObject({ verdict: 'safe', proofChecked: true, engine: 'auto' });
    expect(run.properties.proof.length).toBeGreaterThan(0);
    expect(run.properties.statistics.at(-1)).toMatch(/^time: \d+ ms$/);
    expect(run.invocations[0]).toMatchObject({ executionSuccessful: true, exitCode: 0 });
    expect(run.invocations[0].toolExecutionNotifications).toBeUndefined();
  });

  it('UNKNOWN: a run without results whose invocation (successful) has the reason as an error notification', async () => {
    const { code, out, run } = await verifySarif('nonlinear', 'test/fixtures/nonlinear-rem.c', ['--engine', 'aret']);
    expect(code).toBe(3);
    const reason = out.split('\n')[0];
    expect(reason).toMatch(/^UNKNOWN: /);
    expect(run.results).toEqual([]);
    expect(run.invocations[0]).toMatchObject({ executionSuccessful: true, exitCode: 3, toolExecutionNotifications: [{ level: 'error', message: { text: reason } }] });
  });

  it('bad input (exit 2): a failed invocation whose error notification is the located message, at its place; a file outside the working directory is an absolute file URI', async () => {
    const bad = join(dir, 'bad.c');
    writeFileSync(bad, 'int main() {\n  int x = ;\n}\n');
    const { code, err, run } = await verifySarif('bad', bad);
    expect(code).toBe(2);
    const [note] = run.invocations[0].toolExecutionNotifications;
    expect(note).toMatchObject({ level: 'error', message: { text: err.trim() } });
    expect(note.locations[0].physicalLocation).toMatchObject({ artifactLocation: { uri: pathToFileURL(bad).href }, region: { startLine: 2 } });
    expect(run.invocations[0]).toMatchObject({ executionSuccessful: false, exitCode: 2 });
    expect(run.results).toEqual([]);
  });

  it('--check misuse: the rule is declared, and a trace that ends in a misuse is its result', async () => {
    const file = join(dir, 'misuse.c');
    writeFileSync(file, '#include <pthread.h>\npthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\nvoid *t(void *a) { pthread_mutex_unlock(&m); return 0; }\nint main() { pthread_t x; pthread_mutex_lock(&m); pthread_create(&x, 0, t, 0); pthread_join(x, 0); return 0; }\n');
    const without = await verifySarif('no-misuse-check', 'benchmarks/programs/lockid.c');
    expect(without.run.tool.driver.rules.map((r: AnyJson) => r.id)).not.toContain('misuse');
    const { code, log, run } = await verifySarif('misuse', file, ['--check', 'misuse']);
    expect(code).toBe(1);
    expect(run.results[0]).toMatchObject({ ruleId: 'misuse', locations: [{ physicalLocation: { region: { startLine: 3 } } }] });
    expect(flowProblems(log)).toEqual([]);
  });

  it('--ltl: a lasso is an ltl-property result whose code flow marks the cycle', async () => {
    const { code, log, run } = await verifySarif('lasso', 'benchmarks/programs/liveness/mux-sem-3.c', ['--ltl', 'G (at(P#1, J1) -> F at(P#1, J2))']);
    expect(code).toBe(1);
    expect(run.results[0].ruleId).toBe('ltl-property');
    expect(flowProblems(log)).toEqual([]);
    const inCycle = run.results[0].codeFlows[0].threadFlows.flatMap((t: AnyJson) => t.locations.filter((l: AnyJson) => l.kinds?.includes('cycle')).map((l: AnyJson) => l.executionOrder)) as number[];
    const n = flowSteps(log).length;
    expect(inCycle.length).toBeGreaterThan(0);
    // The cycle is the trace's last steps.
    expect(inCycle.sort((a, b) => a - b)).toEqual([...Array(inCycle.length).keys()].map((k) => n - inCycle.length + 1 + k));
  });

  it('rely svcomp --sarif: the same log, the invocation\'s exit code 0 for any answer; a property rely does not check is UNKNOWN', async () => {
    const fib = join(dir, 'fib.sarif');
    const r = await rely(['svcomp', '--sarif', fib, 'benchmarks/programs/svcomp-style/fib-bench-bug.yml']);
    expect([r.code, r.out.trimEnd().split('\n').at(-1)]).toEqual([0, 'Result: FALSE(unreach-call)']);
    const log = JSON.parse(readFileSync(fib, 'utf8')) as AnyJson;
    expect(schemaErrors(log)).toEqual([]);
    expect(flowProblems(log)).toEqual([]);
    expect(log.runs[0].results[0].ruleId).toBe('reach-error');
    expect(log.runs[0].invocations[0]).toMatchObject({ exitCode: 0, executionSuccessful: true });
    const other = join(dir, 'other-property.sarif');
    const prp = join(dir, 'valid-memsafety.prp');
    writeFileSync(prp, 'CHECK( init(main()), LTL(G valid-free) )\n');
    expect((await rely(['svcomp', '--sarif', other, '--prop', prp, 'benchmarks/programs/lockid.c'])).out).toBe('Result: UNKNOWN\n');
    const unknown = JSON.parse(readFileSync(other, 'utf8')) as AnyJson;
    expect(schemaErrors(unknown)).toEqual([]);
    expect(unknown.runs[0].results).toEqual([]);
    expect(unknown.runs[0].invocations[0]).toMatchObject({ exitCode: 0, toolExecutionNotifications: [{ level: 'error', message: { text: expect.stringMatching(/^UNKNOWN: property not supported/) } }] });
  });

  it('a run the launcher ends (cli/rely.js: the JS heap at its limit): the UNKNOWN log written at the start gets its reason; a log with a verdict is left alone', () => {
    const at = (verdict: 'unknown' | 'safe', name: string): string => {
      const path = join(dir, name);
      const outcome = verdict === 'unknown' ? { verdict, reason: 'rely stopped before it gave a verdict' } : { verdict };
      const log = sarifLog({ outcome, file: 'benchmarks/programs/lockid.c', checks: {}, version: '0', args: [], exitCode: 3, start: new Date(), end: new Date(), properties: {} });
      writeFileSync(path, JSON.stringify(log));
      return path;
    };
    const started = at('unknown', 'started.sarif');
    const safe = at('safe', 'safe.sarif');
    const before = readFileSync(safe, 'utf8');
    const reason = 'out of memory: the JS heap reached its limit of 24 MB (--max-memory)';
    expect(unknownVerdict(['verify', '--sarif', started, 'x.c'], reason).code).toBe(3);
    unknownVerdict(['verify', `--sarif=${safe}`, 'x.c'], reason);
    const log = JSON.parse(readFileSync(started, 'utf8')) as AnyJson;
    expect(schemaErrors(log)).toEqual([]);
    expect(log.runs[0].invocations[0].toolExecutionNotifications).toEqual([{ level: 'error', message: { text: `UNKNOWN: ${reason}` } }]);
    expect(readFileSync(safe, 'utf8')).toBe(before);
  });
});

/**
 * BenchExec runs rely on three svcomp-style tasks through the tool-info module and gives
 * each the task file's expected verdict (category correct). Needs BenchExec and cgroups
 * it can use (`python3 -m benchexec.check_cgroups`); without them the test skips and
 * prints why (BenchExec's own message).
 */
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, benchexecMissing, expectedVerdict, python } from './benchexec-helpers.js';

/** Tasks rely decides in seconds: two TRUE, one FALSE. */
const TASKS = ['ptr-swap-buffers.yml', 'ptr-thread-arg-bug.yml', 'queue-lock.yml'].map((t) => `benchmarks/programs/svcomp-style/${t}`);

const PYTHONPATH = [join(ROOT, 'contrib', 'benchexec'), process.env.PYTHONPATH].filter(Boolean).join(':');

/** Why BenchExec cannot run tools here, or undefined. */
function whyNoRuns(): string | undefined {
  if (benchexecMissing) return benchexecMissing;
  const r = python(['-m', 'benchexec.check_cgroups']);
  return r.status === 0 ? undefined : `python3 -m benchexec.check_cgroups says BenchExec cannot run tools here (exit ${r.status}): ${(r.stderr + r.stdout).trim()}`;
}

const noRuns = whyNoRuns();
if (noRuns && !benchexecMissing) console.log(`skipped: BenchExec's run: ${noRuns}`);

/** A benchmark definition for the three tasks, with the tool-info module and limits like contrib/benchexec/rely.xml's. */
const definition = (): string => `<?xml version="1.0"?>
<benchmark tool="rely_benchexec.rely" timelimit="120 s" hardtimelimit="150 s" memlimit="4 GB">
  <rundefinition name="svcomp"/>
  <tasks name="three">
${TASKS.map((t) => `    <include>${join(ROOT, t)}</include>`).join('\n')}
    <propertyfile>${join(ROOT, 'benchmarks/programs/svcomp-style/unreach-call.prp')}</propertyfile>
  </tasks>
</benchmark>
`;

/** Each run of a BenchExec result file: its task (file name), status and category. */
function runsOf(xml: string): Map<string, { status?: string; category?: string }> {
  const column = (body: string, title: string) => new RegExp(`<column(?=[^>]*\\btitle="${title}")[^>]*\\bvalue="([^"]*)"`).exec(body)?.[1];
  const runs = new Map<string, { status?: string; category?: string }>();
  for (const m of xml.matchAll(/<run\b[^>]*\bname="([^"]+)"[^>]*>([\s\S]*?)<\/run>/g))
    runs.set(m[1].split('/').at(-1)!, { status: column(m[2], 'status'), category: column(m[2], 'category') });
  return runs;
}

describe.skipIf(noRuns)("BenchExec's run of rely", () => {
  it("gives three svcomp-style tasks their expected verdicts", () => {
    const dir = mkdtempSync(join(tmpdir(), 'rely-benchexec-run-'));
    writeFileSync(join(dir, 'three.xml'), definition());
    const args = ['-m', 'benchexec.benchexec', join(dir, 'three.xml'), '--no-container', '--tool-directory', ROOT, '--outputpath', join(dir, 'results') + '/', '--no-compress-results'];
    const r = python(args, { PYTHONPATH });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const results = readdirSync(join(dir, 'results')).filter((f) => /\.results\..*\.xml$/.test(f));
    expect(results, r.stdout).toHaveLength(1);
    const runs = runsOf(readFileSync(join(dir, 'results', results[0]), 'utf8'));
    for (const task of TASKS) {
      const name = task.split('/').at(-1)!;
      expect(runs.get(name), `${name} in ${results[0]}`).toEqual({ status: expectedVerdict(task), category: 'correct' });
    }
  });
});

/**
 * The BenchExec tool-info module (contrib/benchexec/rely_benchexec/rely.py): it compiles
 * with this machine's python3, and BenchExec's own `python3 -m benchexec.test_tool_info`
 * finds rely, reads its version, builds command lines for tasks and reads real `rely
 * svcomp` outputs as the verdicts rely printed. Without python3 or BenchExec the tests
 * that need them skip and say why. BenchExec's run on tasks is in benchexec.slow.test.ts.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, benchexecMissing, expectedVerdict, python, pythonMissing } from './benchexec-helpers.js';

const MODULE = join('contrib', 'benchexec', 'rely_benchexec', 'rely.py');

describe.skipIf(pythonMissing)('the tool-info module', () => {
  it('compiles with python3', () => {
    const r = python(['-c', 'import sys; compile(open(sys.argv[1]).read(), sys.argv[1], "exec")', MODULE]);
    expect(r.status, r.stderr).toBe(0);
  });
});

/** Tasks whose real `rely svcomp` output test_tool_info reads back: one expected TRUE, one FALSE. */
const TASKS = ['benchmarks/programs/svcomp-style/ptr-swap-buffers.yml', 'benchmarks/programs/svcomp-style/ptr-thread-arg-bug.yml'];

/** BenchExec's name for the verdict of a `Result:` line. */
const BENCHEXEC_RESULT: Record<string, string> = { TRUE: 'true', 'FALSE(unreach-call)': 'false(unreach-call)', UNKNOWN: 'unknown' };

describe.skipIf(benchexecMissing)("BenchExec's test_tool_info on the module", () => {
  let outputs: { task: string; file: string; result: string }[] = [];
  let crash = '';
  let report = '';
  let status: number | null = null;
  beforeAll(async () => {
    const out = mkdtempSync(join(tmpdir(), 'rely-benchexec-'));
    // `rely svcomp` exits 0 with any answer.
    outputs = await Promise.all(
      TASKS.map(async (task, i) => {
        const r = await promisify(execFile)('node', ['cli/rely.js', 'svcomp', task], { cwd: ROOT, encoding: 'utf8' });
        const file = join(out, `output-${i}.txt`);
        writeFileSync(file, r.stdout + r.stderr);
        return { task, file, result: /^Result: (\S+)$/m.exec(r.stdout)?.[1] ?? '' };
      }),
    );
    crash = join(out, 'crash.txt');
    writeFileSync(crash, 'file.c:1:1: error: something went wrong\n');
    const args = ['--no-container', '--tool-directory', '.', '--task-definition', TASKS[1], '--tool-output', ...outputs.map((o) => o.file), crash];
    const r = python(['-m', 'benchexec.test_tool_info', 'rely_benchexec.rely', ...args], {
      PYTHONPATH: [join(ROOT, 'contrib', 'benchexec'), process.env.PYTHONPATH].filter(Boolean).join(':'),
    });
    report = r.stderr;
    status = r.status;
  });
  /** The value test_tool_info printed after a description (one line, or the line after it). */
  const value = (description: string): string | undefined => new RegExp(`${description.replace(/[()[\].*+?]/g, '\\$&')}:\\s*“([^”]*)”`).exec(report)?.[1];

  it('passes, and reports the version `rely --version` prints', () => {
    expect(status, report).toBe(0);
    const version = spawnSync('node', ['cli/rely.js', '--version'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
    expect(version).not.toBe('');
    expect(value('Version'), report).toBe(version);
    expect(value('Executable'), report).toBe('./cli/rely.js');
  });

  it("warns only that rely takes one input file (BenchExec's multiple-input-files case)", () => {
    const warnings = report.split('\n').filter((l) => l.startsWith('WARNING'));
    expect(warnings, report).toHaveLength(1);
    expect(warnings[0]).toMatch(/multiple input files/);
  });

  it("builds an SV-COMP task's command line: rely svcomp with the property, data model and time limit", () => {
    expect(value('Command line SV-Benchmarks task'), report).toBe(
      "['cli/rely.js', 'svcomp', '--prop', 'PROPERTY.PRP', '--data-model', 'ILP32', '--timeout', '900', 'INPUT.FILE']",
    );
    const program = TASKS[1].replace(/\.yml$/, '.c');
    expect(value(`Command line for ${TASKS[1]} with property benchmarks/programs/svcomp-style/unreach-call.prp`), report).toBe(
      `['cli/rely.js', 'svcomp', '--prop', 'benchmarks/programs/svcomp-style/unreach-call.prp', '--data-model', 'ILP32', '${program}']`,
    );
  });

  it("reads rely's Result: line as BenchExec's verdict, and no Result: line as an error", () => {
    for (const o of outputs) {
      expect(Object.keys(BENCHEXEC_RESULT), `${o.task}: rely printed no Result: line`).toContain(o.result);
      expect(value(`Result of analyzing tool output in “${o.file}”`), report).toBe(BENCHEXEC_RESULT[o.result]);
    }
    // The tasks' verdicts as their files state them: rely decides both.
    expect(outputs.map((o) => BENCHEXEC_RESULT[o.result])).toEqual(TASKS.map(expectedVerdict));
    expect(value(`Result of analyzing tool output in “${crash}”`), report).toMatch(/^ERROR/);
  });
});

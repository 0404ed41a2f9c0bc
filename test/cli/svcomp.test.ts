/** `rely svcomp`: SV-COMP's task definitions and its `Result:` line. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTask } from '../../cli/svcomp.js';
import { rely } from '../helpers.js';

const SUITE = 'benchmarks/programs/svcomp-style';
const dir = mkdtempSync(join(tmpdir(), 'rely-svcomp-'));
const lastLine = (out: string): string => out.trimEnd().split('\n').at(-1)!;

describe('rely svcomp', () => {
  it('a true task: rely verify output, then Result: TRUE last, exit 0', async () => {
    const r = await rely(['svcomp', `${SUITE}/barrier2.yml`]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^SAFE\n/);
    expect(lastLine(r.out)).toBe('Result: TRUE');
  });

  it('a false task: Result: FALSE(unreach-call), exit 0', async () => {
    const r = await rely(['svcomp', `${SUITE}/barrier2-bug.yml`]);
    expect([r.code, lastLine(r.out)]).toEqual([0, 'Result: FALSE(unreach-call)']);
  });

  it('a program with --prop; another property is UNKNOWN with the reason on stderr', async () => {
    expect(lastLine((await rely(['svcomp', '--prop', `${SUITE}/unreach-call.prp`, `${SUITE}/fib-bench-bug.c`])).out)).toBe('Result: FALSE(unreach-call)');
    const prp = join(dir, 'no-overflow.prp');
    writeFileSync(prp, 'CHECK( init(main()), LTL(G ! overflow) )\n');
    const r = await rely(['svcomp', '--prop', prp, `${SUITE}/barrier2.c`]);
    expect([r.code, r.out]).toEqual([0, 'Result: UNKNOWN\n']);
    expect(r.err).toMatch(/property not supported \(only unreach-call\): CHECK\( init\(main\(\)\), LTL\(G ! overflow\) \)/);
  });

  it('the task says the data model; the command line overrides it', async () => {
    writeFileSync(join(dir, 'long.c'), '#include <pthread.h>\nextern void reach_error(void);\nint main(void) { unsigned long x = 0; x = x - 1; if (x == 4294967295ul) reach_error(); return 0; }\n');
    writeFileSync(join(dir, 'unreach-call.prp'), 'CHECK( init(main()), LTL(G ! call(reach_error())) )\n');
    const task = (model: string) => `format_version: '2.0'\ninput_files: 'long.c'\nproperties:\n  - property_file: unreach-call.prp\n    expected_verdict: false\noptions:\n  language: C\n  data_model: ${model}\n`;
    writeFileSync(join(dir, 'long32.yml'), task('ILP32'));
    writeFileSync(join(dir, 'long64.yml'), task('LP64'));
    expect(readTask(join(dir, 'long64.yml'))).toEqual({ file: join(dir, 'long.c'), dataModel: 'LP64', unsupported: undefined });
    expect(lastLine((await rely(['svcomp', join(dir, 'long32.yml')])).out)).toBe('Result: FALSE(unreach-call)');
    expect(lastLine((await rely(['svcomp', join(dir, 'long64.yml')])).out)).toBe('Result: TRUE');
    expect(lastLine((await rely(['svcomp', '--data-model', 'ILP32', join(dir, 'long64.yml')])).out)).toBe('Result: FALSE(unreach-call)');
  });

  it('a program with a construct rely does not support: the located message on stderr, Result: UNKNOWN, exit 0', async () => {
    writeFileSync(join(dir, 'heap.c'), '#include <pthread.h>\n#include <stdlib.h>\nextern void reach_error(void);\nint main(void) {\n  int *p = realloc(0, 4);\n  return 0;\n}\n');
    const r = await rely(['svcomp', '--prop', `${SUITE}/unreach-call.prp`, join(dir, 'heap.c')]);
    expect([r.code, r.out]).toEqual([0, 'Result: UNKNOWN\n']);
    expect(r.err).toMatch(/heap\.c:5:\d+: unsupported: /);
  });

  it('a program template threads prove for any number of instances (infinite state): Result: TRUE', async () => {
    const r = await rely(['svcomp', `${SUITE}/ext-mutex-readback.yml`]);
    expect(r.out).toMatch(/^SAFE\nproof: one invariant per thread .*\(template threads: for any number of instances\)/);
    expect(lastLine(r.out)).toBe('Result: TRUE');
  });

  it('a task whose input file is missing is bad input, not UNKNOWN: exit 2', async () => {
    const yml = join(dir, 'missing.yml');
    writeFileSync(yml, "format_version: '2.0'\ninput_files: 'gone.i'\nproperties:\n  - property_file: unreach-call.prp\n    expected_verdict: true\n");
    const r = await rely(['svcomp', yml]);
    expect([r.code, r.out]).toEqual([2, '']);
    expect(r.err).toMatch(/missing\.yml:1:1: error: the task's input file .*gone\.i does not exist/);
  });

  it('a malformed task is bad input: a located message, exit 2', async () => {
    const bad = join(dir, 'bad.yml');
    writeFileSync(bad, "format_version: '2.0'\ninput_files: [a.c, b.c]\n");
    const r = await rely(['svcomp', bad]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/bad\.yml:1:1: error: the task must name exactly one input file \(input_files\)/);
  });
});

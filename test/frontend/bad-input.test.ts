/**
 * Bad input: one located line `file:line:col: error|unsupported: …` on stderr, exit
 * code 2, no stack trace, and nothing on stdout.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rely } from '../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'rely-bad-'));

const CASES: [name: string, src: string | Buffer, kind: 'error' | 'unsupported', line: number, message: RegExp][] = [
  ['malformed', 'int main() {\n  int x = ;\n}\n', 'error', 2, /syntax error: unexpected ';'/],
  ['mismatched', 'int main() { if x) return 0; }\n', 'error', 1, /syntax error: unexpected '\)'/],
  ['unclosed', 'int main() {\n  return 0;\n', 'error', 1, /never closed/],
  ['undeclared', 'int main() {\n  y = 1;\n  return 0;\n}\n', 'error', 2, /undeclared identifier 'y'/],
  ['unknown-thread', '#include <pthread.h>\nint main() {\n  pthread_t t;\n  pthread_create(&t, 0, nothere, 0);\n  return 0;\n}\n', 'error', 4, /unknown thread function 'nothere'/],
  ['recursion', 'int f(int n) { if (n > 0) return f(n - 1); return 0; }\nint main() { return f(3); }\n', 'unsupported', 1, /recursion \(main → f → f\)/],
  ['unbounded-loop', '#include <pthread.h>\nvoid *w(void *a) { return 0; }\nint main() { pthread_t t; while (1) { pthread_create(&t, 0, w, 0); } }\n', 'unsupported', 3, /unbounded thread creation/],
  ['unbounded-self', '#include <pthread.h>\nvoid *w(void *a) { pthread_t t; pthread_create(&t, 0, w, 0); return 0; }\nint main() { pthread_t t; pthread_create(&t, 0, w, 0); }\n', 'unsupported', 2, /unbounded thread creation/],
  ['empty', '', 'error', 1, /empty input file/],
  ['blank', '  \n\n', 'error', 1, /empty input file/],
  ['binary', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x00, 0x00, 0x41]), 'error', 1, /binary input/],
  ['shift', 'int main() { int x = 1;\n  x = x << 2; return 0; }\n', 'unsupported', 2, /operator '<<'/],
  ['heap', 'int main() { int *p = malloc(sizeof(int));\n  p = realloc(p, 8); return 0; }\n', 'unsupported', 2, /realloc \(only malloc, calloc, alloca and free are modelled\)/],
  ['unterminated-comment', 'int x;\n/* never closed\nint main() {}\n', 'error', 2, /unterminated comment/],
  ['no-main', 'int f() { return 0; }\n', 'error', 1, /no 'main' function/],
];

describe('bad input', () => {
  for (const [name, src, kind, line, message] of CASES)
    // `rely verify` searches a loop that creates threads without bound for bugs (verify-cli.test.ts).
    for (const cmd of name === 'unbounded-loop' ? ['parse', 'explore'] : ['parse', 'explore', 'verify'])
      it(`${name} (${cmd})`, async () => {
        const file = join(dir, `${name}.c`);
        writeFileSync(file, src);
        const r = await rely([cmd, file]);
        expect(r.code).toBe(2);
        expect(r.out).toBe('');
        const lines = r.err.trimEnd().split('\n');
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${line}:\\d+: ${kind}: `));
        expect(lines[0]).toMatch(message);
        expect(r.err).not.toMatch(/\n\s+at /); // no stack trace
      });

  it('a missing file and a bad option are usage errors (exit 2)', async () => {
    expect((await rely(['explore', join(dir, 'nope.c')])).code).toBe(2);
    const r = await rely(['explore', '--nondet-range', '5..1', 'x.c']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/empty range/);
    expect((await rely(['frobnicate'])).code).toBe(2);
    expect((await rely([])).code).toBe(2);
  });
});

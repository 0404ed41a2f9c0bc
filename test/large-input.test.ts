/**
 * Inputs that nest deep or run long (issue 25's crashes): they are answered, or refused
 * with a located limit — never a stack overflow. Run through bin/rely.js, as a user
 * runs rely: the CLI's worker thread and its large stack are part of what is tested.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'rely-large-'));
const rely = (src: string, name: string, ...args: string[]) => {
  const f = join(dir, name);
  writeFileSync(f, src);
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['bin/rely.js', 'verify', f, ...args], { encoding: 'utf8', timeout: 120_000 });
  console.log(`${name}: exit ${r.status} in ${Math.round(performance.now() - t0)} ms`);
  return { code: r.status, out: r.stdout, err: r.stderr, file: f };
};
const HEAD = '#include <pthread.h>\nextern void reach_error(void);\nint x = 0;\n';

describe('large and deeply nested input', () => {
  it('5,000 nested parentheses (an internal error before): SAFE', () => {
    const r = rely(`${HEAD}int main() { x = ${'('.repeat(5000)}1${')'.repeat(5000)}; if (x != 1) reach_error(); return 0; }\n`, 'parens.c');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
  });

  it('a sum of 2,000 terms (the parser recursed once per term): SAFE', () => {
    const r = rely(`${HEAD}int main() { x = 1${' + 1'.repeat(1999)}; if (x != 2000) reach_error(); return 0; }\n`, 'sum.c');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
  });

  it('a thread whose body is 20,000 statements (an internal error before): SAFE', () => {
    const body = Array.from({ length: 20_000 }, (_, i) => `  x = x + ${i % 7};`).join('\n');
    const r = rely(`${HEAD}void *t(void *a) {\n${body}\n  return 0;\n}\nint main() { pthread_t h; pthread_create(&h, 0, t, 0); if (x < 0) reach_error(); return 0; }\n`, 'long.c', '--engine', 'explicit-global');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
  }, 120_000);

  it('brackets nested past the limit: a located error, exit 2', () => {
    const r = rely(`${HEAD}int main() { x = ${'('.repeat(10_001)}1${')'.repeat(10_001)}; return 0; }\n`, 'too-deep.c');
    expect(r.code).toBe(2);
    // The 10,001st open bracket: main's `{`, then 9,999 parentheses, then this one.
    expect(r.err).toBe(`${r.file}:4:${'int main() { x = '.length + 10_000}: error: nested deeper than 10000 brackets ('(', '[', '{'): rely's limit\n`);
  });
});

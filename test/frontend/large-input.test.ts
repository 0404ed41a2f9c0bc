/**
 * Inputs that nest deep or run long (crashes the fuzz campaigns found): they are answered, or refused
 * with a located limit — never a stack overflow. Run through cli/rely.js, as a user
 * runs rely: the CLI's worker thread and its large stack are part of what is tested.
 * The longest thread bodies (20,000 statements, 2,000 else-if arms) are in
 * large-input.slow.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { HEAD, rely } from './large-programs.js';

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

  it('brackets nested past the limit: a located error, exit 2', () => {
    const r = rely(`${HEAD}int main() { x = ${'('.repeat(10_001)}1${')'.repeat(10_001)}; return 0; }\n`, 'too-deep.c');
    expect(r.code).toBe(2);
    // The 10,001st open bracket: main's `{`, then 9,999 parentheses, then this one.
    expect(r.err).toBe(`${r.file}:4:${'int main() { x = '.length + 10_000}: error: nested deeper than 10000 brackets ('(', '[', '{'): rely's limit\n`);
  });

  it('a sum of 10,000 terms (quadratic in the parser and in lowering before: minutes): SAFE', () => {
    const r = rely(`${HEAD}int main() { x = 1${' + 1'.repeat(9_999)}; if (x != 10000) reach_error(); return 0; }\n`, 'sum-10k.c');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
  }, 60_000);

  it('a statement past 50,000 tokens: a located error, exit 2', () => {
    const r = rely(`${HEAD}int main() { x = 1${' + 1'.repeat(25_000)}; return 0; }\n`, 'too-long.c');
    expect(r.code).toBe(2);
    expect(r.err).toBe(`${r.file}:4:14: error: statement or declaration longer than 50000 tokens: rely's limit\n`);
  }, 60_000);

  it('macros nested past 1,000: a located error, exit 2 (a chain of 20,000 defines took over 4 GB)', () => {
    const defines = Array.from({ length: 20_000 }, (_, i) => `#define M${i + 1} M${i}`).join('\n');
    const r = rely(`#define M0 1\n${defines}\n${HEAD}int main() { x = M20000; return 0; }\n`, 'macros.c');
    expect(r.code).toBe(2);
    expect(r.err).toBe(`${r.file}:20005:18: error: macro expansion nested deeper than 1000 macros: rely's limit\n`);
  }, 60_000);

});

/** The built-in preprocessor and the position map back to the user's file. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { positionAt, preprocess } from '../../frontend/preprocess.js';
import { InputError } from '../../program/diagnostics.js';

const pp = (src: string, file = 'f.c') => preprocess(src, file);
const text = (src: string) => pp(src).text.replace(/\s+/g, ' ').trim();

describe('preprocessor', () => {
  it('object- and function-like macros, #undef, nesting', () => {
    expect(text('#define N 3\nint a = N + N;')).toBe('int a = 3 + 3 ;');
    expect(text('#define SQ(v) ((v) * (v))\nint a = SQ(N + 1);')).toBe('int a = ( ( N + 1 ) * ( N + 1 ) ) ;');
    expect(text('#define A 1\n#undef A\nint a = A;')).toBe('int a = A ;');
    expect(text('#define F(x) G(x)\n#define G(y) y + 1\nint a = F(2);')).toBe('int a = 2 + 1 ;');
    expect(text('#define R R + 1\nint a = R;')).toBe('int a = R + 1 ;'); // no infinite expansion
  });

  it("SV-COMP's assert macro", () => {
    const t = text('#include <assert.h>\n#undef assert\n#define assert(e) if (!(e)) ERROR: reach_error()\nassert(x == 1);');
    expect(t).toBe('if ( ! ( x == 1 ) ) ERROR : reach_error ( ) ;');
  });

  it('#if / #ifdef / #elif / #else, defined()', () => {
    expect(text('#define A 2\n#if A > 1 && defined(A)\nyes\n#elif 1\nno\n#else\nno\n#endif')).toBe('yes');
    expect(text('#ifdef B\nno\n#else\nyes\n#endif')).toBe('yes');
    expect(text('#ifndef B\nyes\n#endif')).toBe('yes');
  });

  it('NULL, stringification and pasting', () => {
    expect(text('p = NULL;')).toBe('p = ( ( void * ) 0 ) ;');
    expect(text('#define S(x) #x\n#define P(a, b) a ## b\nS(hi) P(x, 1)')).toBe('"hi" x1');
  });

  it('system includes are built in; local includes are read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rely-pp-'));
    writeFileSync(join(dir, 'h.h'), '#define K 5\n');
    const main = join(dir, 'm.c');
    const r = preprocess('#include <pthread.h>\n#include "h.h"\nint k = K;', main);
    expect(r.text.replace(/\s+/g, ' ').trim()).toBe('int k = 5 ;');
    expect(r.systemIncludes.has('pthread.h')).toBe(true);
    expect(() => preprocess('#include "missing.h"\n', main)).toThrow(/cannot find include file "missing.h"/);
  });

  it('maps positions back through macros and line markers', () => {
    const r = pp('#define M 1 + \\\n 2\nint a;\n  int b = M;');
    const b = r.text.indexOf('b');
    expect(positionAt(r, b)).toEqual({ file: 'f.c', line: 4, col: 7 });
    const i = pp('# 1 "orig.c"\n# 10 "orig.c"\nint z;\n# 1 "/usr/include/x.h" 1 3 4\ntypedef int t;\n');
    expect(positionAt(i, i.text.indexOf('z'))).toEqual({ file: 'orig.c', line: 10, col: 5 });
    expect(i.system[i.offsets.indexOf(i.text.indexOf('typedef'))]).toBe(true);
  });

  it('errors are located', () => {
    try {
      pp('int a;\n#if 1\nint b;\n');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(InputError);
      expect((e as InputError).message).toMatch(/^f\.c:\d+:1: error: unterminated #if/);
    }
    expect(() => pp('#define F(a, b) a\nF(1)')).toThrow(/macro 'F' takes 2 argument/);
  });
});

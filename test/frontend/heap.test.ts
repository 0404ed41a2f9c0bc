/**
 * The heap (frontend/lower/pointers.ts allocation, freeObject): an object per
 * allocation, typed by the pointer it is stored in, `sizeof` with the target's
 * layout, `--malloc-may-fail` and `--check-free`. Each construct in a SAFE and an UNSAFE
 * program whose verdict the explorer and several engines agree on; the shapes that
 * stay unsupported, with their message and location. Also the rule behind one object
 * per allocation: a step that is one object of its own (an allocation, a thread
 * creation) may run only once, so one on a cycle of gotos is refused. The constructs
 * whose agreement takes longest are in heap.slow.test.ts.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agreeOnMutations, lower, PRELUDE, rely, run, verdictsAgree, type MutationCase } from '../helpers.js';

const agreeNondet = verdictsAgree('rely-heap-', { nondetCells: true });

/** malloc'd memory is any value until written: the explicit engines enumerate it only within a range (verdictsAgree's nondetCells). */
const MALLOC: MutationCase[] = [
  [
    'uninitialised',
    'malloc\'d memory holds any value until written',
    `#include <stdlib.h>
     int main() { int *p = malloc(sizeof(int)); int v = *p; if (v > 1) { *p = 0; } if (*p > 1) reach_error(); return 0; }`,
    'if (v > 1) { *p = 0; }|if (v > 2) { *p = 0; }',
  ],
];

describe('the heap: each construct, SAFE and UNSAFE, agreed by the explorer and the engines', () => {
  agreeOnMutations(MALLOC, agreeNondet, 120_000);
});

describe('sizeof', () => {
  it('has the target\'s sizes, with struct padding, in both data models', () => {
    const src = `struct s { char c; int i; long long l; pthread_mutex_t m; };
      int a[5]; struct s v;
      int main() { if (sizeof(a) / sizeof(a[0]) != 5 || sizeof(struct s) != SZ || sizeof v != SZ || sizeof(int *) != PS) reach_error(); return 0; }`;
    const reaches = (defines: Record<string, string>, dataModel: 'ILP32' | 'LP64') =>
      run(PRELUDE + src, { defines, dataModel }).errorReachable;
    expect(reaches({ SZ: '56', PS: '8' }, 'LP64')).toBe(false);
    expect(reaches({ SZ: '40', PS: '4' }, 'ILP32')).toBe(false);
    expect(reaches({ SZ: '48', PS: '4' }, 'ILP32')).toBe(true);
  });
});

describe('--malloc-may-fail and --check-free', () => {
  const unchecked = `#include <stdlib.h>
    int main() { int *p = malloc(sizeof(int)); *p = 1; if (*p != 1) reach_error(); return 0; }`;
  it('malloc never fails by default; asked, it may return NULL and *NULL reaches the error', () => {
    expect(run(PRELUDE + unchecked).errorReachable).toBe(false);
    expect(run(PRELUDE + unchecked, { mallocMayFail: true }).errorReachable).toBe(true);
    expect(run(PRELUDE + unchecked.replace('*p = 1;', 'if (!p) return 0; *p = 1;'), { mallocMayFail: true }).errorReachable).toBe(false);
  });

  const freeing = (body: string): string => `#include <stdlib.h>
    int g; int main() { int *p = malloc(2 * sizeof(int)); p[0] = 1; ${body} return 0; }`;
  for (const [what, body, error] of [
    ['a use after free', 'free(p); g = p[0];', true],
    ['a double free', 'free(p); free(p);', true],
    ['a free of a pointer into the object', 'free(p + 1);', true],
    ['a free of a variable\'s address', 'free(&g);', true],
    ['free(NULL) and one free', 'free(0); g = p[1]; free(p);', false],
  ] as const)
    it(`${what}: ${error ? 'an error' : 'fine'} with --check-free, no effect without`, () => {
      expect(run(PRELUDE + freeing(body), { checkFree: true }).errorReachable).toBe(error);
      expect(run(PRELUDE + freeing(body)).errorReachable).toBe(false);
    });

  it('a use after another thread\'s free is caught (the check and the access are one step)', () => {
    const src = `#include <stdlib.h>
      int *p; int g;
      void *w(void *a) { g = *p; return 0; }
      int main() { p = malloc(sizeof(int)); *p = 3; pthread_t t; pthread_create(&t, 0, w, 0); free(p); pthread_join(t, 0); return 0; }`;
    expect(run(PRELUDE + src, { checkFree: true }).errorReachable).toBe(true);
    expect(run(PRELUDE + src.replace('free(p); pthread_join(t, 0);', 'pthread_join(t, 0); free(p);'), { checkFree: true }).errorReachable).toBe(false);
  });
});

describe('a step that is one object of its own runs once', () => {
  it('a function that creates a thread (or allocates) is inlined at each call, never kept: kept, two calls were one instance (explicit engines: a wrong SAFE)', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'rely-once-')), 'kept.c');
    writeFileSync(file, `${PRELUDE}int x; pthread_t t;
void *w(void *a) { x = x + 1; return 0; }
void spawn(void) { pthread_create(&t, 0, w, 0); }
int main() { spawn(); spawn(); if (x == 2) reach_error(); return 0; }`);
    for (const engine of ['explicit-global', 'explicit-modular']) {
      const r = await rely(['verify', '--engine', engine, '--json', '--timeout', '30', file]);
      expect(JSON.parse(r.out).verdict, engine).toBe('unsafe');
    }
  });
});

describe('what stays unsupported, located', () => {
  const refused = (src: string): string => {
    try {
      lower(PRELUDE + '#include <stdlib.h>\n' + src);
    } catch (e) {
      return (e as Error).message;
    }
    return 'accepted';
  };
  for (const [what, src, message] of [
    ['an allocation in a loop without constant bounds', 'int main() { int n = __VERIFIER_nondet_int(); for (int i = 0; i < n; i++) { int *p = malloc(4); *p = i; } return 0; }', /unsupported: an allocation \(malloc\) inside a loop without constant bounds/],
    ['an allocation of a size known only at run time of values with a range (runtime-arrays.test.ts has the ones modelled)', 'int main() { int n = __VERIFIER_nondet_int(); unsigned char *p = malloc(n); p[0] = 1; return 0; }', /unsupported: malloc of a size known only at run time, of unsigned char values/],
    ['an allocation not stored in a typed pointer', 'int main() { void *p = malloc(4); return 0; }', /unsupported: malloc whose result is not stored in, nor cast to, a pointer to a type/],
    ['a size that is not a whole number of values', 'int main() { int *p = malloc(6); *p = 0; return 0; }', /unsupported: malloc of 6 bytes: not a whole number/],
    ['realloc', 'int main() { int *p = malloc(4); p = realloc(p, 8); return 0; }', /unsupported: realloc/],
    ['an allocation in a thread created in a loop', 'void *w(void *a) { int *p = malloc(4); *p = 1; return 0; } int main() { pthread_t t; int n = __VERIFIER_nondet_int(); for (int i = 0; i < n; i++) pthread_create(&t, 0, w, 0); return 0; }', /unsupported: .*loop without constant bounds/],
    ['an allocation on a cycle of gotos', 'int main() { int k = 0; again: { int *p = malloc(sizeof(int)); *p = k; } k++; if (k < 2) goto again; return 0; }', /unsupported: an allocation \(malloc\) on a cycle of gotos/],
    ['a thread creation on a cycle of gotos (it was one instance: a wrong SAFE)', 'int x; void *w(void *a) { x = x + 1; return 0; } int main() { pthread_t t; int k = 0; again: pthread_create(&t, 0, w, 0); k++; if (k < 2) goto again; return 0; }', /unsupported: thread creation on a cycle of gotos/],
  ] as const)
    it(what, () => {
      const m = refused(src);
      expect(m).toMatch(message);
      expect(m).toMatch(/:\d+:\d+: unsupported: /);
    });
});

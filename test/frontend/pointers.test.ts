/**
 * Pointers with a finite set of targets (frontend/points-to.ts, frontend/lower/pointers.ts):
 * each construct in a SAFE and an UNSAFE program, whose verdict the explorer and
 * several engines agree on; the constructs that stay unsupported, with their message
 * and location. The constructs whose agreement takes longest are in pointers.slow.test.ts.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lower, PRELUDE, rely, run, agreeOnMutations, refusedCases, verdictsAgree } from '../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'rely-ptr-'));
const agree = verdictsAgree('rely-ptr-');

const CASES: [name: string, what: string, safe: string, unsafe: string][] = [
  [
    'swap',
    'a global pointer swapped between two globals by one thread while main reads *p',
    `int x = 1, y = 2; int *p = &x;
     void *swap(void *arg) { p = &y; return 0; }
     int main() { pthread_t t; pthread_create(&t, 0, swap, 0); int v = *p; if (v != 1 && v != 2) reach_error(); return 0; }`,
    'v != 1 && v != 2|v == 2',
  ],
  [
    'null',
    'a NULL dereference (unsafe: before the other thread sets the pointer)',
    `int x; int *p;
     void *setter(void *arg) { p = &x; return 0; }
     int main() { pthread_t t; pthread_create(&t, 0, setter, 0); if (p != 0) *p = 5; if (!p) return 0; if (*p != 5 && *p != 0) reach_error(); return 0; }`,
    'if (p != 0) *p = 5;|*p = 5;',
  ],
  [
    'param',
    'a pointer parameter the callee advances, and p - q (unsafe: one cell too many)',
    `int a[3];
     void fill(int *p, int n) { while (n > 0) { *p = 7; p++; n--; } }
     int main() { int *e = a + 3; fill(a, e - a); if (a[2] != 7 || e - a != 3) reach_error(); return 0; }`,
    'fill(a, e - a)|fill(a, e - a + 1)',
  ],
  [
    'result',
    'a function returning a pointer, ?: over pointers, p == q',
    `int x, y;
     int *pick(int c) { if (c) return &x; return &y; }
     int main() { _Bool c = __VERIFIER_nondet_bool(); int *q = pick(c); *q = 3; if (c && x != 3) reach_error();
       int *r = c ? &x : &y; if (r != q) reach_error(); return 0; }`,
    'if (r != q)|if (r == q)',
  ],
  [
    'int-cast',
    'an integer cast to a pointer, compared with NULL (27_Boop_simple_vf)',
    `int main() { void *r = (void *) __VERIFIER_nondet_int(); int k = 0; if (r == 0) k = 1; if (k == 1 && r != 0) reach_error(); return 0; }`,
    'k == 1 && r != 0|k == 1',
  ],
];

describe('pointers: verdicts agree with the explorer', () => {
  agreeOnMutations(CASES, agree);

  it('the error of an invalid dereference names it', () => {
    const r = run('int a[2]; int main() { int *p = a + 2; *p = 1; return 0; }');
    expect(r.trace!.at(-1)!.steps.some((s) => /invalid dereference/.test(s.text))).toBe(true);
    const arith = run('int a[2]; int main() { int *p = a; p = p + 3; return 0; }');
    expect(arith.trace!.at(-1)!.steps.some((s) => /pointer arithmetic leaves its object/.test(s.text))).toBe(true);
  });

  it('a pointer is one integer variable over the addresses; a local whose address escapes is a global', () => {
    const p = lower('int g; void *w(void *a) { int *q = (int *)a; *q = 1; return 0; } int main() { int x; int *p = &g; pthread_t t; pthread_create(&t, 0, w, &x); return 0; }');
    expect(p.globals).toContain('main.x');
    expect(p.vars.get('main.p')!.range).toEqual([0n, 4n]); // g at 1, main.x at 3; 2 and 4 are one past their ends
    // An &variable argument of an inlined call stays an alias: no address, no global.
    const cas = lower('int v; void __VERIFIER_atomic_set(int *r) { *r = 1; } int main() { int ok = 0; __VERIFIER_atomic_set(&ok); return 0; }');
    expect(cas.globals).not.toContain('main.ok');
  });
});

describe('pointers: what stays unsupported', () => {
  const UNSUPPORTED: [name: string, src: string, line: number, message: RegExp][] = [
    ['malloc', '#include <stdlib.h>\nint main() { int n = __VERIFIER_nondet_int();\n  char *p = malloc(n);\n  return 0; }\n', 3, /malloc of a size known only at run time, of char values/],
    ['int-deref', 'int main() {\n  int *p = (int *)5;\n  *p = 1; return 0; }\n', 3, /dereference of a pointer that may hold an integer cast to a pointer/],
    ['pointer-to-pointer', 'int main() { int x;\n  int **pp; return 0; }\n', 2, /'pp': pointers to pointers are not modelled/],
    ['address-as-int', 'int main() { int x;\n  long v = (long)&x; return 0; }\n', 2, /an address used as an integer/],
    ['relational', 'int x, y;\nint main() {\n  if (&x < &y) return 1; return 0; }\n', 3, /comparison '<' of pointers that may point into different objects/],
    ['int-vs-address', 'int g;\nint main() { int *q = (int *)7;\n  if (q == &g) return 1; return 0; }\n', 3, /comparison of an integer cast to a pointer with the address of an object/],
    ['type-pun', 'char c;\nint main() { int *p = (int *)&c;\n  *p = 1; return 0; }\n', 3, /dereference of a pointer to int that may point to 'c' of type char/],
    ['member-pointer', 'struct s { int *f; } v; int a[2];\nint main() {\n  v.f = a; v.f += 1; return 0; }\n', 3, /arithmetic on a pointer stored in memory/],
  ];
  refusedCases('verify', 'rely-ptr-', UNSUPPORTED);

  it("a local's address in a thread created without bound: no proof for any number (its instances would share it), bugs still searched", async () => {
    const file = join(dir, 'template.c');
    writeFileSync(file, PRELUDE + 'void *w(void *a) { int l = 0; int *p = &l; *p = 1; if (l != 1) reach_error(); return 0; }\nint main() { pthread_t t; while (1) { pthread_create(&t, 0, w, 0); } }\n');
    const r = await rely(['verify', '--timeout', '30', file]);
    expect(r.code).toBe(3);
    expect(r.out).toMatch(/unsupported: the address of local 'l' of a thread created in a loop without constant bounds/);
  });
});

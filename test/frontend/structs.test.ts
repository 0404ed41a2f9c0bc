/**
 * C's data (frontend/lower/structs.ts, frontend/types.ts): structs as variables member
 * by member, pointers to structs through the points-to analysis, typedefs, and
 * globals nothing writes folded into constants. Each construct in a SAFE and an
 * UNSAFE program whose verdict the explorer and several engines agree on; what stays
 * unsupported, with its message and location. The constructs whose agreement takes
 * longest are in structs.slow.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { lower, PRELUDE, run, agreeOnMutations, refusedCases, verdictsAgree } from '../helpers.js';

const agree = verdictsAgree('rely-struct-');

const CASES: [name: string, what: string, safe: string, unsafe: string][] = [
  [
    'nested',
    'an array of nested structs with an array member, a positional initializer, arr[i].in.a[1] and a copy q = arr[i] with i chosen at run time',
    `struct P { int a[2]; int c; }; struct Q { struct P in; int d; };
     struct Q arr[2] = { { { { 1, 2 }, 3 }, 4 }, { { { 5, 6 }, 7 }, 8 } };
     int main() { int i = __VERIFIER_nondet_int(); if (i < 0 || i > 1) return 0;
       arr[i].in.a[1] = arr[i].in.c + 10; struct Q q; q = arr[i];
       if (q.in.a[1] != q.in.c + 10 || arr[0].d + arr[1].d != 12) reach_error(); return 0; }`,
    'arr[0].d + arr[1].d != 12|arr[i].d != 4',
  ],
  [
    'pointer-walk',
    'a pointer to struct walks an array of structs by p++ (a struct is several cells), &s.f of a member',
    `struct E { int k; int v; }; struct E tab[2] = { { 1, 10 }, { 2, 20 } };
     void *w(void *arg) { int sum = 0; struct E *p = tab; while (p < tab + 2) { sum = sum + p->v; p++; }
       int *q = &tab[1].k; if (sum != 30 || *q != 2) reach_error(); return 0; }
     int main() { pthread_t t; pthread_create(&t, 0, w, 0); return 0; }`,
    'sum != 30|sum != 11',
  ],
  [
    'assign',
    'struct assignment copies member by member: a copy taken before a thread writes keeps the old values',
    `struct S { int a; int b; } g = { 1, 2 };
     void *w(void *arg) { g.a = 5; g.b = 6; return 0; }
     int main() { struct S l; l = g; pthread_t t; pthread_create(&t, 0, w, 0); pthread_join(t, 0);
       if (l.a != 1 || l.b != 2 || g.b != 6) reach_error(); return 0; }`,
    'l.b != 2|l.b != 6',
  ],
  [
    'union',
    'a union whose members have one integer type: a store through one member is seen through the other',
    `union U { int i; int j; } u;
     void *w(void *arg) { u.i = 5; return 0; }
     int main() { pthread_t t; pthread_create(&t, 0, w, 0); pthread_join(t, 0); if (u.j != 5) reach_error(); return 0; }`,
    'pthread_join(t, 0); if|if',
  ],
];

describe('structs: verdicts agree with the explorer', () => {
  agreeOnMutations(CASES, agree);

  it('each scalar member is a variable of its own, named s.f', () => {
    const p = lower('struct in { int a[2]; }; struct S { int x; struct in i; } s; int main() { s.i.a[1] = s.x; return 0; }');
    expect(p.globals).toEqual(expect.arrayContaining(['s.x', 's.i.a[0]', 's.i.a[1]']));
  });

  it('structs that point to each other through two members each (glibc FILE\'s shape) are read at once, not expanded as a tree', () => {
    const p = lower('struct b; struct a { struct b *m; struct a *n; int w; }; struct b { struct a *x; struct b *y; int v; }; struct a g; int main() { g.w = 1; if (g.w != 1) reach_error(); return 0; }');
    expect(p.globals).toContain('g.w');
    expect(run('struct b; struct a { struct b *m; struct a *n; int w; }; struct b { struct a *x; struct b *y; int v; }; struct a g; int main() { g.w = 1; if (g.w == 1) reach_error(); return 0; }').errorReachable).toBe(true);
  });
});

describe('globals nothing writes are constants', () => {
  const src = `int q = 3; int r = 7; int x;
     void *w(void *arg) { int a = __VERIFIER_nondet_int(); if (a < 0 || a > 100) return 0; x = a * q * r; return 0; }
     int main() { pthread_t t; pthread_create(&t, 0, w, 0); pthread_join(t, 0); if (x < 0 || x > 2100) reach_error(); return 0; }`;

  it('a product with them is linear: every engine decides it', async () => {
    await agree('const', src, true);
    await agree('const-bug', src.replace('x > 2100', 'x > 2000'), false);
  });

  it('they are no variables; a global written, incremented or whose address is taken stays one', () => {
    expect(lower(PRELUDE + src).globals).not.toContain('q');
    for (const write of ['q = 4;', 'q++;', 'int *p = &q;'])
      expect(lower(`int q = 3; int x; int main() { ${write} x = q; return 0; }`).globals, write).toContain('q');
  });

  it('keeps its type: an unsigned constant compares as unsigned', () => {
    expect(run('unsigned int u = 1; int main() { if (-1 > u) reach_error(); return 0; }').errorReachable).toBe(true);
  });
});

describe('structs: what stays unsupported', () => {
  const UNSUPPORTED: [name: string, src: string, line: number, message: RegExp][] = [
    ['union', 'union U { int i; char c; };\nint main() {\n  union U u; return 0; }\n', 3, /local variable 'u' of type union U/],
    ['bit-field', 'struct B { int f : 3; };\nint main() {\n  struct B b; return 0; }\n', 3, /bit-field 'f'/],
    ['brace-elision', 'struct S { int a[2]; int b; };\nstruct S s =\n  { 1, 2, 3 };\nint main() { return s.b; }\n', 3, /brace elision/],
    ['designated', 'struct S { int a; int b; };\nstruct S s = { 0,\n  .b = 1 };\nint main() { return s.a; }\n', 3, /designated initializers/],
    ['designated-local', 'struct S { int a; int b; };\nint main() {\n  struct S s = { .b = 1 }; return s.a; }\n', 3, /designated initializers/],
    ['by-value', 'struct S { int a; } g;\nint f(struct S v) { return v.a; }\nint main() {\n  return f(g); }\n', 4, /struct S parameter passed by value/],
    ['returned', 'struct S { int a; } g;\nstruct S mk(void) { return g; }\nint main() {\n  struct S l = mk(); return l.a; }\n', 4, /a struct value other than an object/],
    ['pointer-member', 'struct S { int *p; } s; int x[2];\nint main() {\n  s.p = x; s.p++; return 0; }\n', 3, /arithmetic on a pointer stored in memory/],
  ];
  refusedCases('parse', 'rely-struct-', UNSUPPORTED);
});

/**
 * Function pointers (frontend/lower/function-pointers.ts): a variable holds a
 * function's number, calls and thread creation through it are case splits over the
 * functions the points-to analysis says it may hold, NULL reaches the error. Each
 * construct in a SAFE and an UNSAFE program whose verdict the explorer and several
 * engines agree on; the shapes that stay unsupported, with their message and location.
 * The constructs whose agreement takes longest are in function-pointers.slow.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { lower, agreeOnMutations, refusedCases, verdictsAgree } from '../helpers.js';

const agree = verdictsAgree('rely-fp-');

const CASES: [name: string, what: string, safe: string, swap: string][] = [
  [
    'dispatch',
    'a call through a variable chosen by a nondet branch, `(*op)(x)` and `op == add1`',
    `extern int __VERIFIER_nondet_int(void);
     int add1(int v) { return v + 1; } int add2(int v) { return v + 2; }
     int main() { int (*op)(int) = __VERIFIER_nondet_int() ? add1 : &add2; int y = (*op)(0);
       if (y != 1 && y != 2) reach_error(); if (op == add1 && y != 1) reach_error(); return 0; }`,
    'y != 1 && y != 2|y != 1',
  ],
  [
    'null-call',
    'a call through a pointer that may still be NULL (undefined behaviour: the error)',
    `extern int __VERIFIER_nondet_int(void); int x;
     void set(void) { x = 1; }
     int main() { void (*f)(void) = 0; if (__VERIFIER_nondet_int()) f = set; if (f) f(); return 0; }`,
    'if (f) f();|f();',
  ],
  [
    'global-from-thread',
    'a global function pointer another thread sets, copied and tested with !',
    `int add1(int v) { return v + 1; } int add2(int v) { return v + 2; } int (*gp)(int);
     void *setter(void *a) { gp = add2; return 0; }
     int main() { int (*h)(int) = add1; gp = h; pthread_t t; pthread_create(&t, 0, setter, 0);
       if (!gp) reach_error(); int z = gp(1); if (z != 2 && z != 3) reach_error(); return 0; }`,
    'z != 2 && z != 3|z != 2',
  ],
  [
    'rerun',
    'a callee reached only through a pointer takes an address (the lowering runs until the analysis covers it)',
    `int x; int *p; void setp(void) { p = &x; }
     int main() { void (*f)(void) = setp; f(); *p = 1; if (x != 1) reach_error(); return 0; }`,
    'x != 1|x == 1',
  ],
];

describe('function pointers: verdicts agree with the explorer', () => {
  agreeOnMutations(CASES, agree);

  it('a function pointer is one variable holding its function number; a thread per possible target', () => {
    const p = lower('void *w(void *a) { return 0; } void *v(void *a) { return 0; } extern int __VERIFIER_nondet_int(void);\nint main() { void *(*f)(void *) = __VERIFIER_nondet_int() ? w : v; pthread_t t; pthread_create(&t, 0, f, 0); pthread_join(t, 0); return 0; }');
    expect(p.vars.get('main.f')!.range).toEqual([0n, 2n]);
    expect(p.threads.map((t) => t.name)).toEqual(['main', 'w', 'v']);
  });
});

describe('function pointers: what stays unsupported', () => {
  const UNSUPPORTED: [name: string, src: string, line: number, message: RegExp][] = [
    ['incompatible', 'int one(void) { return 1; }\nint main() { int (*f)(int) = (int (*)(int))one;\n  return f(3); }\n', 3, /call through a pointer to function \(int\) returning int that may point to 'one', a function \(void\) returning int \(incompatible types\)/],
    ['cast-at-call', 'int add1(int v) { return v + 1; }\nint main() { int (*f)(int) = add1;\n  return ((int (*)(void))f)(); }\n', 3, /call through a pointer to function \(void\) returning int that may point to 'add1', a function \(int\) returning int \(incompatible types\)/],
    ['arithmetic', 'int one(void) { return 1; }\nint main() { int (*f)(void) = one;\n  f = f + 1; return 0; }\n', 3, /arithmetic on a function pointer/],
    ['pointer-result', 'int x; int *id(int *p) { return p; }\nint main() { int *(*f)(int *) = id;\n  int *q = f(&x); return 0; }\n', 3, /the int \* result of a call through a function pointer/],
    ['no-body', 'extern int ext(int);\nint main() {\n  int (*f)(int) = ext; return 0; }\n', 3, /the address of function 'ext', which has no body/],
    ['as-integer', 'int one(void) { return 1; }\nint main() {\n  long v = (long)one; return 0; }\n', 3, /an address used as an integer/],
  ];
  refusedCases('parse', 'rely-fp-', UNSUPPORTED);

  it('a thread started through a pointer in a loop without constant bounds is refused where created', () => {
    expect(() => lower('void *w(void *a) { return 0; }\nint main() { void *(*f)(void *) = w; pthread_t t;\n  while (1) pthread_create(&t, 0, f, 0); }', { templates: true })).toThrow(
      /:5:\d+: unsupported: thread creation through a function pointer in a loop without constant bounds/,
    );
  });
});

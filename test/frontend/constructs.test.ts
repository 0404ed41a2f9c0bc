/** Each construct of the dialect, checked by what the explorer can and cannot reach. */
import { describe, expect, it } from 'vitest';
import { conjuncts, type Term } from '../../solver/formula.js';
import { lower, run } from '../helpers.js';

const reachable = (src: string, opts = {}): boolean => run(src, opts).errorReachable;

describe('threads', () => {
  it('pthread_join really waits for the thread', () => {
    const body = (join: string) => `
      int x = 0;
      void *f(void *a) { x = 1; return 0; }
      int main() { pthread_t t; pthread_create(&t, 0, f, 0); ${join} if (x != 1) reach_error(); return 0; }`;
    expect(reachable(body('pthread_join(t, 0);'))).toBe(false);
    expect(reachable(body(''))).toBe(true);
  });

  it('a thread created after a visible step starts only then', () => {
    const src = `
      int x = 0;
      void *f(void *a) { if (x == 0) reach_error(); return 0; }
      int main() { pthread_t t; x = x + 1; pthread_create(&t, 0, f, 0); return 0; }`;
    expect(reachable(src)).toBe(false);
    expect(lower(src).threads[1].startedAtInit).toBe(false);
  });

  it('constant global writes before the first pthread_create are initial values', () => {
    const src = `
      int x = 0; pthread_mutex_t m;
      void *f(void *a) { if (x != 1) reach_error(); return 0; }
      int main() { pthread_t t; pthread_mutex_init(&m, 0); x = 1; pthread_create(&t, 0, f, 0); x = 2; return 0; }`;
    const p = lower(src);
    expect(p.threads[1].startedAtInit).toBe(true);
    // x = 2 comes after the thread exists: it stays a step of main, and the thread can see it.
    expect(p.threads[0].transitions.some((t) => t.writes.includes('x'))).toBe(true);
    expect(reachable(src)).toBe(true);
    expect(reachable(src.replace('x = 2;', ''))).toBe(false);
  });

  it('each start of a thread function has its own locals', () => {
    const src = `
      void *f(void *a) { int l = 0; l++; if (l != 1) reach_error(); return 0; }
      int main() { pthread_t t1, t2; pthread_create(&t1, 0, f, 0); pthread_create(&t2, 0, f, 0); return 0; }`;
    expect(reachable(src)).toBe(false);
    expect(lower(src).threads.map((t) => t.name)).toEqual(['main', 'f', 'f#2']);
  });

  it('thread creation in a loop with constant bounds is unrolled', () => {
    const src = (n: number) => `
      int cnt = 0;
      void __VERIFIER_atomic_inc() { cnt++; }
      void *f(void *a) { __VERIFIER_atomic_inc(); return 0; }
      int main() { pthread_t t[3]; int i;
        for (i = 0; i < 3; i++) pthread_create(&t[i], 0, f, 0);
        for (i = 0; i < 3; i++) pthread_join(t[i], 0);
        if (cnt != ${n}) reach_error(); return 0; }`;
    expect(lower(src(3)).threads).toHaveLength(4);
    expect(reachable(src(3))).toBe(false);
    expect(reachable(src(2))).toBe(true);
    // Joins in a row are one step (blocks.ts: a join, once possible, stays possible),
    // which waits for all three; the check after them is a step of its own.
    const main = lower(src(3)).threads[0];
    const joins = main.transitions.filter((t) => t.steps.some((s) => s.text.startsWith('pthread_join')));
    expect(joins).toHaveLength(1);
    expect(joins[0].steps.filter((s) => s.text.startsWith('pthread_join'))).toHaveLength(3);
  });

  it('thread arguments: constants and &global', () => {
    const src = `
      int g = 0;
      void *f(void *a) { int id = (int) a; if (id != 7) reach_error(); return 0; }
      void *h(void *p) { *(int *) p = 3; return 0; }
      int main() { pthread_t t1, t2; pthread_create(&t1, 0, f, (void *) 7); pthread_create(&t2, 0, h, &g);
        pthread_join(t2, 0); if (g != 3) reach_error(); return 0; }`;
    expect(reachable(src)).toBe(false);
  });
});

describe('atomicity and mutexes', () => {
  const counter = (inc: string, call: string) => `
    int x = 0;
    ${inc}
    void *f(void *a) { ${call}; return 0; }
    int main() { pthread_t t1, t2; pthread_create(&t1, 0, f, 0); pthread_create(&t2, 0, f, 0);
      pthread_join(t1, 0); pthread_join(t2, 0); if (x != 2) reach_error(); return 0; }`;

  it('an __VERIFIER_atomic_ function cannot be interleaved', () => {
    expect(reachable(counter('void __VERIFIER_atomic_inc() { int t = x; x = t + 1; }', '__VERIFIER_atomic_inc()'))).toBe(false);
    expect(reachable(counter('void inc() { int t = x; x = t + 1; }', 'inc()'))).toBe(true);
  });

  it('an __VERIFIER_atomic_begin/end region cannot be interleaved', () => {
    expect(reachable(counter('', '__VERIFIER_atomic_begin(); int t = x; x = t + 1; __VERIFIER_atomic_end()'))).toBe(false);
  });

  it('a mutex excludes and records its owner', () => {
    const src = counter('pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;', 'pthread_mutex_lock(&m); int t = x; x = t + 1; pthread_mutex_unlock(&m)');
    expect(reachable(src)).toBe(false);
    const p = lower(src);
    const owners = p.threads.flatMap((th) => th.transitions.filter((t) => t.writes.includes('m')).map((t) => [th.index, t] as const));
    // Taking the lock stores the owner's thread index + 1; releasing stores 0.
    expect(owners.some(([i, t]) => t.atoms.some((a) => a === lockedBy(i)))).toBe(true);
  });

  it('an atomic function with &local arguments (compare-and-swap)', () => {
    const src = `
      int v = 0;
      void __VERIFIER_atomic_CAS(int *p, int e, int u, int *r) { if (*p == e) { *p = u; *r = 1; } else { *r = 0; } }
      void *f(void *a) { int ok = 0; int old; while (!ok) { old = v; __VERIFIER_atomic_CAS(&v, old, old + 1, &ok); } return 0; }
      int main() { pthread_t t1, t2; pthread_create(&t1, 0, f, 0); pthread_create(&t2, 0, f, 0);
        pthread_join(t1, 0); pthread_join(t2, 0); if (v != 2) reach_error(); return 0; }`;
    expect(reachable(src)).toBe(false);
  });
});

import { eq, mkVar, num } from '../../solver/formula.js';
const lockedBy = (i: number): Term => eq(mkVar("m'"), num(i + 1));

describe('statements and expressions', () => {
  const check = (stmts: string, cond: string) => `int main() { ${stmts} if (!(${cond})) reach_error(); return 0; }`;

  it('switch with fall-through and default', () => {
    const sw = (v: number) => `int r = 0; int x = ${v}; switch (x) { case 1: r += 1; case 2: r += 10; break; case 3: r = 100; break; default: r = -1; }`;
    expect(reachable(check(sw(1), 'r == 11'))).toBe(false);
    expect(reachable(check(sw(2), 'r == 10'))).toBe(false);
    expect(reachable(check(sw(3), 'r == 100'))).toBe(false);
    expect(reachable(check(sw(7), 'r == -1'))).toBe(false);
    expect(reachable(check(sw(1), 'r == 10'))).toBe(true);
  });

  it('loops, break, continue, goto', () => {
    const loops = 'int s = 0; int i; for (i = 0; i < 10; i++) { if (i % 2 == 0) continue; if (i > 6) break; s += i; } int k = 0; do { k++; } while (k < 3); int g = 0; again: g++; if (g < 4) goto again;';
    expect(reachable(check(loops, 's == 1 + 3 + 5 && k == 3 && g == 4'))).toBe(false);
    expect(reachable(check(loops, 's == 16'))).toBe(true);
  });

  it('statements nested without braces (matched head by head past one level): each belongs to the head before it', () => {
    const nested = 'int s = 0; int i; int j; for (i = 0; i < 3; i++) for (j = 0; j < 3; j++) if (j > i) if (i == 0) s += 10; else s += 1; int w = 0; while (w < 2) while (w < 5) w++;';
    expect(reachable(check(nested, 's == 21 && w == 5'))).toBe(false);
    expect(reachable(check(nested, 's == 12'))).toBe(true);
  });

  it('?:, &&, ||, !, casts, compound assignment, ++/--', () => {
    const e = 'int a = 3; int b = a > 2 ? 10 : 20; int c = (a == 3 && b == 10) || a == 0; int d = !c; a += 4; a--; int e = (int) a++;';
    expect(reachable(check(e, 'b == 10 && c == 1 && d == 0 && a == 7 && e == 6'))).toBe(false);
    expect(reachable(check(e, 'a == 6'))).toBe(true);
  });

  it('&& and || short-circuit their side effects', () => {
    expect(reachable(check('int x = 0; int y = 0; if (x == 1 && (y = 1)) {} if (x == 0 || (y = 2)) {}', 'y == 0'))).toBe(false);
  });

  it('_Bool stores 0 or 1', () => {
    expect(reachable(check('_Bool b = 5; int x = b;', 'x == 1'))).toBe(false);
  });

  it('arrays with constant indices', () => {
    expect(reachable(`int a[3] = {1, 2}; ${check('a[2] = a[0] + a[1];', 'a[2] == 3')}`)).toBe(false);
  });

  it('enum constants and #define', () => {
    expect(reachable(`#define N 4\nenum { A = 2, B };\n${check('int x = N + B;', 'x == 7')}`)).toBe(false);
  });

  it('a nondeterministic choice is drawn from the range, and reported as such', () => {
    // A global stays live, so its values are drawn (computed on, not only compared with constants: engines/state-space/value-classes.ts).
    const src = `int n, m; ${check('n = __VERIFIER_nondet_int(); m = n;', 'm <= 4')}`;
    const r = run(src);
    expect(r.errorReachable).toBe(false);
    expect(r.usedNondetRange).toBe(true);
    expect(run(src, { nondetRange: [0n, 5n] }).errorReachable).toBe(true);
    // A value the formula fixes is solved for, not drawn from the range.
    expect(run(check('int n = __VERIFIER_nondet_int();', 'n != 5')).errorReachable).toBe(true);
    // A nondet value no atom mentions is still a choice, not taken as unchanged.
    for (const largeBlocks of [false, true])
      expect(run('int main() { int n = 0; n = __VERIFIER_nondet_int(); pthread_mutex_t m; pthread_mutex_init(&m, 0); if (n == 1) reach_error(); return 0; }', { largeBlocks }).errorReachable).toBe(true);
    // A bounded nondet type needs no range.
    expect(run(check('_Bool b = __VERIFIER_nondet_bool();', 'b == 0 || b == 1')).usedNondetRange).toBe(false);
  });

  it('a choice that is dead after its block is solved for, not drawn: one value per path, exact (program/dead-locals.ts)', () => {
    // Drawn and tested in one block, n is not needed after it: n = 5 reaches the error.
    const r = run(check('int n = __VERIFIER_nondet_int();', 'n <= 4'));
    expect([r.errorReachable, r.usedNondetRange]).toEqual([true, false]);
    const safe = run(check('int n = __VERIFIER_nondet_int(); if (n > 1000) n = 1000;', 'n <= 1000'));
    expect([safe.errorReachable, safe.complete, safe.usedNondetRange]).toEqual([false, true, false]);
    // An uninitialised local written before it is read starts at one value.
    const t = run('int g; void *w(void *a) { int x, y; x = 3; y = x + g; if (y != 3) reach_error(); return 0; } int main() { pthread_t t; pthread_create(&t, 0, w, 0); return 0; }');
    expect([t.errorReachable, t.complete, t.usedNondetRange]).toEqual([false, true, false]);
    // Read before it is written, its indeterminate initial value is drawn from the range.
    const uninit = 'int g; void *w(void *a) { int x; g = x; if (g == 7) reach_error(); return 0; } int main() { pthread_t t; pthread_create(&t, 0, w, 0); return 0; }';
    expect([run(uninit).errorReachable, run(uninit).usedNondetRange]).toEqual([false, true]);
    expect(run(uninit, { nondetRange: [0n, 7n] }).errorReachable).toBe(true);
  });

  it('a value only ever compared with constants is drawn around its thresholds: exact, beyond the nondet range (engines/state-space/value-classes.ts)', () => {
    const src = (test: string) => `int g = 0; void *w(void *a) { g = 1; return 0; }
      int main() { int i = __VERIFIER_nondet_int(); pthread_t t; pthread_create(&t, 0, w, 0); if (${test}) reach_error(); return 0; }`;
    // i == 40 is outside -2..2, yet found; i > 1000 && i < 1002 too (the value 1001).
    expect(run(src('i == 40'))).toMatchObject({ errorReachable: true });
    expect(run(src('i > 1000 && i < 1002'))).toMatchObject({ errorReachable: true });
    // No value satisfies both: SAFE exactly, with no range used.
    expect(run(src('i > 5 && i < 6'))).toMatchObject({ errorReachable: false, complete: true, usedNondetRange: false });
    // Copied into arithmetic, its value matters beyond the comparisons: drawn from the range as before.
    const copied = run(`int g = 0; void *w(void *a) { g = 1; return 0; }
      int main() { int i = __VERIFIER_nondet_int(); pthread_t t; pthread_create(&t, 0, w, 0); g = i * 2; if (g == 80) reach_error(); return 0; }`);
    expect(copied).toMatchObject({ errorReachable: false, usedNondetRange: true });
  });

  it('states that differ only in a dead variable are one state of the search (the stored one stands for both)', () => {
    // v is dead after its test in `dead`; in `live` it is read again at the end, so its values stay apart.
    const src = (end: string) => `int x = 0; void *w(void *a) { int v = x; x = 200; if (v > 100) reach_error(); x = 201; x = 202; ${end} return 0; }
      int main() { int n = __VERIFIER_nondet_int(); x = n; pthread_t t; pthread_create(&t, 0, w, 0); return 0; }`;
    const dead = run(src(''));
    const live = run(src('if (v == 7) x = 203;'));
    expect([dead.errorReachable, live.errorReachable, dead.complete, live.complete]).toEqual([false, false, true, true]);
    // From the test on, the values of v give one state per location where v is dead.
    expect(dead.states).toBeLessThan(live.states);
  });

  it('while main runs alone, a global (an escaping local) written before it is read starts at one value; once a thread is started, one the thread reads is live', () => {
    // s escapes (&s), so it is a global; main fills it in (through a call) before the thread starts.
    const filled = (fill: string) =>
      `struct S { int a, b; }; void set(struct S *p) { p->a = 3; } void *w(void *arg) { struct S *p = arg; if (p->a != 3) reach_error(); return 0; }
       int main() { struct S s; ${fill} pthread_t t; pthread_create(&t, 0, w, &s); pthread_join(t, 0); return 0; }`;
    // s.b is never read and s.a is written before the start: nothing is drawn.
    expect(run(filled('set(&s);'))).toMatchObject({ errorReachable: false, complete: true, usedNondetRange: false });
    // Written after the start, the thread may read the indeterminate value: drawn, and 7 reaches the error.
    const late = `struct S { int a; }; void *w(void *arg) { struct S *p = arg; if (p->a == 7) reach_error(); return 0; }
       int main() { struct S s; pthread_t t; pthread_create(&t, 0, w, &s); s.a = 3; pthread_join(t, 0); return 0; }`;
    expect(run(late)).toMatchObject({ errorReachable: false, usedNondetRange: true });
    expect(run(late, { nondetRange: [0n, 7n] }).errorReachable).toBe(true);
  });

  it('a choice the program bounds is enumerated in full, also beyond the nondet range (up to 256 values)', () => {
    // Through a copy in the same step (a = n), as in gcd-sub-rem.c's main.
    const bounded = (lo: number, hi: number, bad: number) =>
      run(`int a; int main() { int n = __VERIFIER_nondet_int(); __VERIFIER_assume(n >= ${lo} && n <= ${hi}); a = n; if (a == ${bad}) reach_error(); return 0; }`);
    const r = bounded(1, 8, 7);
    expect(r.errorReachable).toBe(true);
    const safe = bounded(1, 256, 300);
    expect(safe).toMatchObject({ errorReachable: false, usedNondetRange: false, complete: true });
    // Wider than 256 values: drawn from the range, and reported as such.
    expect(bounded(1, 1000, 500)).toMatchObject({ errorReachable: false, usedNondetRange: true });
  });

  it('the state bound makes the result incomplete', () => {
    const src = 'int x = 0; void *f(void *a) { while (1) { x++; } return 0; } int main() { pthread_t t; pthread_create(&t, 0, f, 0); return 0; }';
    const r = run(src, { maxStates: 50 });
    expect(r.complete).toBe(false);
    expect(r.states).toBe(50);
  });

  it('!= guards are split: every atom is a single linear comparison', () => {
    const p = lower(check('int x = __VERIFIER_nondet_int(); int y = 2;', 'x != y && !(x == 3)'));
    for (const th of p.threads)
      for (const t of th.transitions)
        for (const a of conjuncts(t.formula)) expect(a.kind === 'app' && (a.op === '=' || a.op === '<=')).toBe(true);
  });
});

describe('the property', () => {
  it('reach_error is an intrinsic even with a body', () => {
    expect(reachable('void reach_error() {} int main() { reach_error(); return 0; }'.replace(/^/, ''))).toBe(true);
  });

  it('__VERIFIER_error, __assert_fail, assert, and an ERROR: label', () => {
    expect(reachable('extern void __VERIFIER_error(void); int main() { __VERIFIER_error(); return 0; }')).toBe(true);
    expect(reachable('int main() { __assert_fail("x", "f", 1, "g"); return 0; }')).toBe(true);
    expect(reachable('int main() { int x = 1; assert(x == 2); return 0; }')).toBe(true);
    expect(reachable('int main() { int x = 1; assert(x == 1); return 0; }')).toBe(false);
    expect(reachable('int main() { ERROR: return 0; }')).toBe(true);
  });

  it('__VERIFIER_assert defined by the file is an ordinary inlined function', () => {
    const src = (c: string) => `void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: reach_error(); } } int main() { int x = 1; __VERIFIER_assert(${c}); return 0; }`;
    expect(reachable(src('x == 1'))).toBe(false);
    expect(reachable(src('x == 2'))).toBe(true);
  });

  it('__VERIFIER_assume blocks the thread', () => {
    expect(reachable('int main() { int x = 1; __VERIFIER_assume(x == 2); reach_error(); return 0; }')).toBe(false);
  });

  it('a write before the thread blocks for good stays visible (it used to be dropped with the blocked path: a wrong SAFE)', () => {
    const src = (block: string) => `int g = 0;
      void *t(void *a) { g = 1; ${block} return 0; }
      int main() { pthread_t h; pthread_create(&h, 0, t, 0); if (g == 1) reach_error(); return 0; }`;
    expect(reachable(src('__VERIFIER_assume(0);'))).toBe(true);
    expect(reachable(src('__VERIFIER_assume(g == 5);'))).toBe(true);
    expect(reachable(src('__VERIFIER_assume(0); g = 2;'), { largeBlocks: false })).toBe(true);
  });

  it("goto ERROR before SV-COMP's assert macro defines the label (pthread-ext's assert_nl)", () => {
    const src = (cond: string) => `int main() { int k = 0; if (!(${cond})) { goto ERROR; }
      if (!(k == 0)) { ERROR: reach_error(); } if (!(k < 1)) { ERROR: reach_error(); } return 0; }`;
    expect(reachable(src('k > 0'))).toBe(true);
    expect(reachable(src('k > -5'))).toBe(false);
  });

  it('__VERIFIER_assume of a negation (it used to end in an internal error)', () => {
    const src = (cond: string) => `int main() { int x = __VERIFIER_nondet_int(); __VERIFIER_assume(${cond}); if (x > 0) reach_error(); return 0; }`;
    expect(reachable(src('!(x > 0)'))).toBe(false);
    expect(reachable(src('!(x > 0 && x < 3)'))).toBe(true);
    expect(reachable(src('!(x > 0 || x < -3)'))).toBe(false);
  });

  it('abort() (assume_abort_if_not) stops every thread, not only its own', () => {
    const src = `
      int g = 0;
      void *f(void *a) { __VERIFIER_assume(g == 1); reach_error(); return 0; }
      int main() { pthread_t t; pthread_create(&t, 0, f, 0); __VERIFIER_atomic_begin(); g = 1; abort(); __VERIFIER_atomic_end(); return 0; }`;
    expect(reachable(src)).toBe(false);
    const viaHelper = `
      void assume_abort_if_not(int cond) { if (!cond) { abort(); } }
      int main() { int n = __VERIFIER_nondet_int(); assume_abort_if_not(n > 0); if (n <= 0) reach_error(); return 0; }`;
    expect(reachable(viaHelper)).toBe(false);
  });
});

describe("C's integer conversions (unsigned wraps modulo 2^bits, char and short as gcc converts)", () => {
  // Each program reaches its error exactly when C's arithmetic says so; the explorer
  // computes every value, so these check the lowering's conversions one by one.
  const cases: [what: string, body: string, error: boolean][] = [
    ['0u - 1 is UINT_MAX', 'unsigned int u = 0u - 1; if (u == 4294967295u) reach_error();', true],
    ['decrement below 0 wraps', 'unsigned int u = 0; u = u - 1; if (u == 4294967295u) reach_error();', true],
    ['u-- and u++ wrap both ways', 'unsigned int u = 0; u--; u++; if (u != 0) reach_error();', false],
    ['UINT_MAX + 1 is 0', 'unsigned int u = 4294967295u; u = u + 1; if (u == 0) reach_error();', true],
    ['a comparison sees the wrapped value', 'unsigned int u = 4294967295u; if (u + 1 == 0) reach_error();', true],
    ['a signed operand converts: u > -1 is false for every u', 'unsigned int u = 5; if (u > -1) reach_error();', false],
    ['int compared with int stays signed', 'int i = -1; if (i < 0) reach_error();', true],
    ['unsigned char wraps at 256', 'unsigned char c = 255; c = c + 1; if (c == 0) reach_error();', true],
    ['signed char wraps as gcc converts', 'signed char c = 127; c++; if (c == -128) reach_error();', true],
    ['unsigned short from a negative int', 'unsigned short s = -1; if (s == 65535) reach_error();', true],
    ['a cast converts', 'int i = -2; if ((unsigned int)i == 4294967294u) reach_error();', true],
    ['an int from an unsigned is the same mathematical value here', 'unsigned int u = 7; int i = u; if (i != 7) reach_error();', false],
    ['unsigned division uses converted operands', 'unsigned int u = 0u - 2; if (u / 2 == 2147483647u) reach_error();', true],
    ['unsigned remainder', 'unsigned int u = 0u - 1; if (u % 10 == 5) reach_error();', true],
    ['a chain is converted once', 'unsigned int a = 4294967295u, b = 2; unsigned int c = a + b - 3; if (c == 4294967294u) reach_error();', true],
    ['multiplication wraps', 'unsigned int a = 65536; unsigned int b = a * a; if (b == 0) reach_error();', true],
    ['unary minus wraps', 'unsigned int a = 1; unsigned int b = -a; if (b == 4294967295u) reach_error();', true],
    ['a hex literal beyond INT_MAX is unsigned', 'if (0xFFFFFFFF > 0) reach_error();', true],
    ['... and -1 compared with it converts', 'int i = -1; if (i == 0xFFFFFFFF) reach_error();', true],
    ['a global initialised to -1', 'if (g == 4294967295u) reach_error();', true],
  ];
  for (const [what, body, error] of cases)
    it(`${what}: ${error ? 'error reachable' : 'no error'}`, () => {
      expect(reachable(`unsigned int g = -1;\nint main() { ${body} return 0; }`)).toBe(error);
    });

  it('nondet unsigned values lie in their type; one decrement past 0 is reachable', () => {
    expect(reachable('int main() { unsigned int u = __VERIFIER_nondet_uint(); if (u > 4294967295u) reach_error(); return 0; }', { nondetRange: [-5n, 5n] })).toBe(false);
    expect(reachable('int main() { unsigned int u = __VERIFIER_nondet_uint(); u = u - 1; if (u == 4294967295u) reach_error(); return 0; }', { nondetRange: [-5n, 5n] })).toBe(true);
  });

  it('arguments convert to their parameter types, inlined or kept (recursion)', () => {
    const inl = 'int f(unsigned char c) { return c; } int main() { int r = f(300); if (r == 44) reach_error(); return 0; }';
    expect(reachable(inl)).toBe(true);
    const kept = (v: number) => `int g(_Bool b, int k) { if (k > 0) return g(b, k - 1); return b; } int main() { int r = g(5, 2); if (r == ${v}) reach_error(); return 0; }`;
    expect(reachable(kept(1), { calls: 'keep' })).toBe(true);
    expect(reachable(kept(5), { calls: 'keep' })).toBe(false);
  });

  it('unsigned long is 32 bits under ILP32 (the default) and 64 under LP64', () => {
    const src = 'int main() { unsigned long x = 0; x = x - 1; if (x == 4294967295ul) reach_error(); return 0; }';
    expect(reachable(src)).toBe(true);
    expect(reachable(src, { dataModel: 'LP64' })).toBe(false);
  });

  it('an update that stays in range emits no branches', () => {
    const p = lower('int main() { unsigned char c = 3; unsigned int u = c + 1; return 0; }');
    expect(p.threads[0].transitions.length).toBe(1);
    expect(p.warnings).toEqual([]);
  });
});

describe('arrays indexed at run time', () => {
  const src = (body: string) => `
    int flag[3];
    int main() { int i = __VERIFIER_nondet_int(); __VERIFIER_assume(0 <= i && i < 3); ${body} return 0; }`;

  it('reads and writes the chosen cell', () => {
    expect(run(src('flag[i] = 5; flag[i]++; if (flag[i] != 6) reach_error(); if (flag[0] + flag[1] + flag[2] != 6) reach_error();')).errorReachable).toBe(false);
    expect(run(src('flag[i] += 2; if (flag[1] == 2) reach_error();')).errorReachable).toBe(true);
  });

  it('an index out of bounds is an error (undefined behaviour)', () => {
    const r = run('int a[2]; int main() { int i = 2; a[i] = 1; return 0; }');
    expect(r.errorReachable).toBe(true);
    expect(r.trace!.at(-1)!.steps.some((s) => /out of bounds/.test(s.text))).toBe(true);
  });

  it('a loop over an array with a bound that is not constant is kept as a loop', () => {
    const p = `
      int a[4];
      int main() { int n = __VERIFIER_nondet_int(); __VERIFIER_assume(0 <= n && n <= 4); int i; int s = 0;
        for (i = 0; i < n; i++) a[i] = 1;
        for (i = 0; i < n; i++) s += a[i];
        if (s != n) reach_error(); return 0; }`;
    expect(run(p).errorReachable).toBe(false);
  });
});

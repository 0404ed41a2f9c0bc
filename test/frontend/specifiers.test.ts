/**
 * Storage classes, qualifiers, attributes and library calls the frontend reads: each is
 * modelled (checked by what the explorer can reach) or refused with a located
 * `unsupported:` where it is used — never dropped (frontend/specifiers.ts).
 */
import { describe, expect, it } from 'vitest';
import { lower, run } from '../helpers.js';

const reachable = (src: string): boolean => run(src).errorReachable;
/** `src` refused at line:col of the test file (the prelude is 2 lines) with a message matching `message`. */
const refused = (src: string, line: number, col: number, message: RegExp): void => {
  let error: unknown;
  try {
    lower(src);
  } catch (e) {
    error = e;
  }
  expect(String(error)).toMatch(new RegExp(`^InputError: test\\.c:${line + 2}:${col}: unsupported: `));
  expect(String(error)).toMatch(message);
};

/** Two threads each add 1 twice to `x`, declared by `decl`, and check it is 2 (their own copy) or `check`. */
const twice = (decl: string, check = '2') => `
${decl}
void *f(void *a) { x++; x++; if (x != ${check}) reach_error(); return 0; }
int main() { pthread_t t1, t2; pthread_create(&t1, 0, f, 0); pthread_create(&t2, 0, f, 0); return 0; }`;

describe('storage classes', () => {
  it('__thread and _Thread_local give each thread its own copy; a thread-local declared in a function is refused, located', () => {
    expect(reachable(twice('__thread int x;', '2'))).toBe(false);
    expect(reachable(twice('_Thread_local int x = 1;', '3'))).toBe(false);
    expect(reachable(twice('_Thread_local int x = 1;', '5'))).toBe(true);
    refused(
      `void *f(void *a) { static __thread int n; n++; return 0; }
int main() { pthread_t t; pthread_create(&t, 0, f, 0); return 0; }`,
      1,
      40,
      /thread-local variable declared in a function \('__thread' variable 'n'\)/,
    );
  });

  it('an unused thread-local variable does not stop the program', () => {
    expect(reachable(`__thread int unused;\n${twice('int x;', '4')}`)).toBe(true);
  });

  it('register, auto and static locals are modelled', () => {
    // The static local is one variable for both threads: 2 calls add 3 each.
    const direct = (n: number) => `
      int total;
      void *f(void *a) { static int calls; register int r = 1; auto int s = 2; calls = calls + r + s; total = calls; return 0; }
      int main() { pthread_t t1, t2; pthread_create(&t1, 0, f, 0); pthread_create(&t2, 0, f, 0);
                   pthread_join(t1, 0); pthread_join(t2, 0); if (total != ${n}) reach_error(); return 0; }`;
    expect(reachable(direct(6))).toBe(false);
    expect(reachable(direct(3))).toBe(true);
  });
});

describe('qualifiers', () => {
  it('const, volatile, restrict and their GNU spellings change nothing rely models', () => {
    const src = (n: number) => `
      const int limit = 2; volatile int x; int * __restrict p;
      void *f(void *a) { __volatile__ int y = limit; x = x + y; return 0; }
      int main() { pthread_t t; pthread_create(&t, 0, f, 0); pthread_join(t, 0); if (x != ${n}) reach_error(); return 0; }`;
    expect(reachable(src(2))).toBe(false);
    expect(reachable(src(3))).toBe(true);
  });

  it('_Atomic and _Atomic(T) integers are modelled (a read-modify-write is one step); an _Atomic pointer is refused where used', () => {
    // Read and shared (test/frontend/pthreads.test.ts checks that its ++ is one step).
    expect(reachable(twice('_Atomic unsigned char x;', '2'))).toBe(true);
    expect(reachable(twice('_Atomic(int) x;', '4'))).toBe(true);
    refused('int * _Atomic p;\nint main() { p = 0; return 0; }', 1, 5, /'_Atomic' on a pointer/);
    refused('_Atomic(int *) p;\nint main() { p = 0; return 0; }', 2, 14, /_Atomic\(type with a declarator\)/);
  });
});

describe('attributes', () => {
  it('attributes of layout, diagnostics and code generation change nothing', () => {
    const src = `
      int x __attribute__((aligned(8), __unused__));
      static void bump(void) __attribute__((noinline));
      static void bump(void) { x++; }
      __attribute__((noreturn)) void stop(void) { abort(); }
      void *f(void *a) __attribute__((__nonnull__(1)));
      void *f(void *a) { bump(); return 0; }
      int main() { pthread_t t; pthread_create(&t, 0, f, 0); pthread_join(t, 0); if (x == 1) reach_error(); return 0; }`;
    expect(reachable(src)).toBe(true);
    expect(reachable(src.replace('x == 1', 'x != 1'))).toBe(false);
  });

  it('mode(…) sets an integer width: a QImode int wraps as a char', () => {
    const src = (n: number) => `
      typedef int i8 __attribute__((__mode__(__QI__)));
      typedef unsigned int u16 __attribute__((mode(HI)));
      int main() { i8 c = 127; u16 w = 0; c++; w--; if (c != -128 || w != ${n}) reach_error(); return 0; }`;
    expect(reachable(src(65535))).toBe(false);
    expect(reachable(src(4294967295))).toBe(true);
  });

  it('attributes that change what a program does are refused, located', () => {
    refused('void done(int *p) { }\nint main() { int x __attribute__((cleanup(done))) = 0; return x; }', 2, 20, /attribute 'cleanup\(done\)'/);
    refused('int x;\n__attribute__((constructor)) void early(void) { x = 1; }\nint main() { return 0; }', 2, 1, /attribute 'constructor'/);
    refused('void early(void) __attribute__((__destructor__));\nvoid early(void) { }\nint main() { return 0; }', 1, 18, /attribute 'destructor'/);
    refused('typedef int v4 __attribute__((vector_size(16)));\nint main() { v4 a; return 0; }', 1, 16, /attribute 'vector_size\(16\)'/);
    refused('__declspec(thread) int x;\nint main() { x = 1; return 0; }', 1, 1, /attribute '__declspec\(thread\)'/);
    refused('typedef float f32 __attribute__((mode(SF)));\nint main() { f32 a; return 0; }', 1, 19, /attribute 'mode\(SF\)'/);
  });
});

describe('type words', () => {
  it('a type word rely does not know is refused where used, not read as int', () => {
    refused('int main() { _Float128 x = 0; return 0; }', 1, 24, /_Float128/);
    refused('int main() { __builtin_va_list ap; ap = 0; return 0; }', 1, 32, /__builtin_va_list/);
  });

  it('a union tag spelled like a typedef name (glibc) parses', () => {
    const src = `
      union pthread_attr_t { char __size[36]; long int __align; };
      typedef union pthread_attr_t pthread_attr_t;
      int x;
      void *f(void *a) { x = 1; return 0; }
      int main() { pthread_t t; pthread_create(&t, 0, f, 0); pthread_join(t, 0);
                   if (x != 1) reach_error(); return 0; }`;
    expect(reachable(src)).toBe(false);
  });
});

describe('library calls without an effect on what is verified', () => {
  it("printf's arguments are evaluated: their side effects happen", () => {
    const src = (n: number) => `int x; int main() { printf("%d\\n", x++); if (x != ${n}) reach_error(); return 0; }`;
    expect(reachable(src(1))).toBe(false);
    expect(reachable(src(0))).toBe(true);
  });

  it('a recursive or error-checking mutex initializer is refused', () => {
    refused('pthread_mutex_t m = { { 0, 0, 0, 0, 1 } };\nint main() { pthread_mutex_lock(&m); return 0; }', 1, 37, /mutex 'm' initialized as other than PTHREAD_MUTEX_INITIALIZER/);
    expect(reachable('pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\nint main() { pthread_mutex_lock(&m); reach_error(); return 0; }')).toBe(true);
  });
});

// Four constructs that were dropped and gave wrong verdicts; docs/input-language.md names each refusal.
describe('constructs that were dropped and gave wrong verdicts', () => {
  it('asm("…"); without a qualifier is inline assembly, not an empty declaration (it was dropped: a wrong UNSAFE)', () => {
    refused('int main() { int x = 1; asm("movl $0, %0" : "=r"(x)); if (x) reach_error(); return 0; }', 1, 25, /inline assembly/);
  });

  it('an initializer of a pthread_t other than a thread id is refused (it was never evaluated: a wrong SAFE)', () => {
    refused('int g; pthread_t f(void) { g = 1; return 0; }\nint main() { pthread_t t = f(); if (g == 1) reach_error(); return 0; }', 2, 28, /a pthread_t value other than pthread_self\(\) or a pthread_t object/);
  });

  it("main's parameters are refused where used (they were NULL: a wrong SAFE); declared and unused they are fine", () => {
    refused('int main(int argc, char **argv) { int x = argc; if (x != 0) reach_error(); return 0; }', 1, 14, /main's parameter 'argc'/);
    expect(reachable('int main(int argc, char **argv) { reach_error(); return 0; }')).toBe(true);
  });

  it('a store in dead code at the start of main is not an initial value (it was: a wrong UNSAFE)', () => {
    expect(reachable('int x;\nint main() { goto L; x = 5; L: if (x == 5) reach_error(); return 0; }')).toBe(false);
    expect(reachable('int x;\nint main() { x = 5; goto L; L: if (x == 5) reach_error(); return 0; }')).toBe(true);
    // Nor is a thread created there one that runs from the start.
    expect(reachable('int x; void *w(void *a) { x = 1; return 0; }\nint main() { pthread_t t; goto L; pthread_create(&t, 0, w, 0); L: if (x == 1) reach_error(); return 0; }')).toBe(false);
  });

  it('pthread_mutexattr_settype: a recursive mutex is locked again by its owner, a normal one deadlocks (it was a normal mutex: a wrong SAFE)', () => {
    const src = (kind: string) => `pthread_mutex_t m; pthread_mutexattr_t a;
int main() { pthread_mutexattr_init(&a); pthread_mutexattr_settype(&a, ${kind}); pthread_mutex_init(&m, &a); pthread_mutex_lock(&m); pthread_mutex_lock(&m); reach_error(); return 0; }`;
    expect(reachable(src('PTHREAD_MUTEX_RECURSIVE'))).toBe(true);
    expect(reachable(src('1'))).toBe(true);
    expect(reachable(src('PTHREAD_MUTEX_NORMAL'))).toBe(false);
    expect(reachable(src('0'))).toBe(false);
  });
});

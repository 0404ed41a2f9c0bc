/**
 * Arrays whose size is known only at run time: `malloc(n * sizeof(T))`,
 * `calloc(n, sizeof(T))` and VLAs `T buf[n]` with n a nondet value, an object of n cells of
 * a scalar type that the symbolic engines model as an SMT array. Each construct in a SAFE
 * program and the mutation that makes it UNSAFE, agreed by the explorer, aret and
 * monolithic Spacer (bmc for the UNSAFE ones); an index outside [0, n) is undefined
 * behaviour and reaches the error; the symbolic verdicts do not depend on --int-range
 * (runtime-arrays.slow.test.ts); the shapes that stay refused, with their message and location.
 *
 * The explorer keeps no arrays (it refuses these programs), so the expected verdicts are
 * the tests' own (each was also checked by concrete runs of the program compiled with gcc).
 * Constructs the symbolic engines do not decide within the tests' time are a known gap,
 * skipped with the reason.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agreeOnMutations, PRELUDE, refusedCases, rely, verdictsAgree, type MutationCase } from '../helpers.js';

const GAP = 'known gap: the symbolic engines time out on this shape (the regions are read, but these proofs and traces are too slow)';

/** The engines that read arrays: monolithic Spacer decides both verdicts, bmc finds the errors; aret and thread-modular where `engines` adds them. */
const engines = verdictsAgree('rely-rtarrays-', { explorer: false });
const agreeWith =
  (extra: { safe?: readonly string[]; unsafe?: readonly string[] } = {}) =>
  (name: string, src: string, safe: boolean): Promise<void> =>
    engines(name, src, safe, safe ? ['monolithic', ...(extra.safe ?? [])] : ['bmc', 'monolithic', ...(extra.unsafe ?? [])]);
const agree = agreeWith();

/**
 * n is at most 4 (a range the explorer enumerates exactly), the programs have one or two
 * threads and no loop over the array except where the shape is that loop (array-sum), and
 * few uninitialised cells (the explorer enumerates their values), to keep CI short.
 */
const SLOW: MutationCase[] = [
  [
    'malloc-nondet',
    'malloc(n * 4); a thread writes a[0] while main writes a[n-1] (UNSAFE: with n == 1 they are the same cell)',
    `#include <stdlib.h>
     int *a; int n;
     void *w(void *x) { a[0] = 1; return 0; }
     int main() { n = __VERIFIER_nondet_int(); __VERIFIER_assume(0 < n && n <= 4);
       a = malloc(n * 4);
       pthread_t t; pthread_create(&t, 0, w, 0); a[n - 1] = 2; pthread_join(t, 0);
       if (n > 1 && a[0] + a[n - 1] != 3) reach_error(); return 0; }`,
    'if (n > 1 && |if (n > 0 && ',
  ],
  [
    'calloc-nondet',
    'calloc(n, sizeof(int)): every cell starts at 0; a thread increments a[k] for a nondet k in [0, n) (UNSAFE: malloc, whose cells are any value)',
    `#include <stdlib.h>
     int *a; int k;
     void *w(void *x) { a[k] = a[k] + 1; return 0; }
     int main() { int n = __VERIFIER_nondet_int(); __VERIFIER_assume(0 < n && n <= 4);
       a = calloc(n, sizeof(int));
       k = __VERIFIER_nondet_int(); __VERIFIER_assume(0 <= k && k < n);
       pthread_t t; pthread_create(&t, 0, w, 0);
       int v = a[k]; if (v != 0 && v != 1) reach_error();
       pthread_join(t, 0); return 0; }`,
    'calloc(n, sizeof(int))|malloc(n * 4)',
  ],
  [
    'vla-nondet',
    'a VLA int buf[n] in main shared through a global pointer; a thread writes its last cell (UNSAFE: with n == 1 the first cell is the last)',
    `int *data; int len;
     void *w(void *x) { data[len - 1] = 7; return 0; }
     int main() { int n = __VERIFIER_nondet_int(); __VERIFIER_assume(0 < n && n <= 3);
       int buf[n]; buf[0] = 1;
       data = buf; len = n;
       pthread_t t; pthread_create(&t, 0, w, 0); pthread_join(t, 0);
       if (buf[n - 1] != 7 || (n > 1 && buf[0] != 1)) reach_error(); return 0; }`,
    '(n > 1 && buf[0]|(n > 0 && buf[0]',
  ],
  [
    'ring-nondet',
    'a ring buffer of run-time capacity cap (head and tail wrap at cap) under a mutex: the consumer (main) takes 1 then 2 (UNSAFE: the producer does not wait for a free slot, with cap == 1 it puts 2 over 1)',
    `#include <stdlib.h>
     int *ring; int cap; int head, tail, count; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
     void *producer(void *x) {
       for (int i = 1; i <= 2; i++) { int put = 0;
         while (!put) { pthread_mutex_lock(&m);
           if (count < cap) { ring[tail] = i; tail = tail + 1 == cap ? 0 : tail + 1; count = count + 1; put = 1; }
           pthread_mutex_unlock(&m); } }
       return 0; }
     int main() { cap = __VERIFIER_nondet_int(); __VERIFIER_assume(0 < cap && cap <= 2);
       ring = malloc(cap * 4);
       pthread_t t; pthread_create(&t, 0, producer, 0);
       for (int want = 1; want <= 2; want++) { int v = 0, got = 0;
         while (!got) { pthread_mutex_lock(&m);
           if (count > 0) { v = ring[head]; head = head + 1 == cap ? 0 : head + 1; count = count - 1; got = 1; }
           pthread_mutex_unlock(&m); }
         if (v != want) reach_error(); }
       pthread_join(t, 0); return 0; }`,
    'if (count < cap) {|if (1) {',
  ],
  [
    'array-sum-nondet',
    'weaver-style: an array of N nondet values, summed backward by a thread and forward by main (UNSAFE: the thread skips A[0])',
    `#include <stdlib.h>
     int *A; int N; int bsum;
     void *backward(void *x) { for (int i = N - 1; i >= 0; i--) bsum = bsum + A[i]; return 0; }
     int main() { N = __VERIFIER_nondet_int(); __VERIFIER_assume(0 < N && N <= 2);
       A = malloc(N * 4);
       for (int i = 0; i < N; i++) { int v = __VERIFIER_nondet_int(); __VERIFIER_assume(-3 <= v && v <= 3); A[i] = v; }
       pthread_t t; pthread_create(&t, 0, backward, 0);
       int fsum = 0; for (int i = 0; i < N; i++) fsum = fsum + A[i];
       pthread_join(t, 0); if (fsum != bsum) reach_error(); return 0; }`,
    'i >= 0; i--|i > 0; i--',
  ],
  [
    'pointer-offset',
    '*(a + n - 1), and p = a + k passed to a thread that writes p[0]; the last cell keeps its value unless k is n - 1 (UNSAFE: that case forgotten)',
    `#include <stdlib.h>
     int *a;
     void *w(void *x) { int *p = x; p[0] = 7; return 0; }
     int main() { int n = __VERIFIER_nondet_int(); __VERIFIER_assume(0 < n && n <= 4);
       a = calloc(n, sizeof(int)); *(a + n - 1) = 9;
       int k = __VERIFIER_nondet_int(); __VERIFIER_assume(0 <= k && k < n);
       pthread_t t; pthread_create(&t, 0, w, a + k); pthread_join(t, 0);
       int *q = a + k; if (q[0] != 7) reach_error();
       if (k != n - 1 && a[n - 1] != 9) reach_error(); return 0; }`,
    'k != n - 1 && a[n - 1]|a[n - 1]',
  ],
  [
    'per-thread',
    'each of two thread instances callocs its own array of n cells (an allocation runs once per thread instance: two objects, not one)',
    `#include <stdlib.h>
     int n; int next; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
     void *w(void *x) { pthread_mutex_lock(&m); next = next + 1; int id = next; pthread_mutex_unlock(&m);
       int *b = calloc(n, sizeof(int)); b[0] = id; b[n - 1] = id;
       if (b[0] != id) reach_error(); return 0; }
     int main() { n = __VERIFIER_nondet_int(); __VERIFIER_assume(0 < n && n <= 3);
       pthread_t t1, t2; pthread_create(&t1, 0, w, 0); pthread_create(&t2, 0, w, 0);
       pthread_join(t1, 0); pthread_join(t2, 0); return 0; }`,
    'if (b[0] != id)|if (b[0] != 1)',
  ],
];

/** Decided by the engines within the tests' time. */
const CONSTRUCTS: MutationCase[] = [
  [
    'calloc-other-cells',
    'calloc\'d cells other than the one written stay 0 (UNSAFE: the index j may be k)',
    `#include <stdlib.h>
     int main() { int n = __VERIFIER_nondet_int(); __VERIFIER_assume(0 < n && n <= 4);
       int *a = calloc(n, sizeof(int)); int k = __VERIFIER_nondet_int(); __VERIFIER_assume(0 <= k && k < n);
       a[k] = 5;
       int j = __VERIFIER_nondet_int(); __VERIFIER_assume(0 <= j && j < n && j != k);
       if (a[j] != 0) reach_error(); return 0; }`,
    'j < n && j != k|j < n',
  ],
];

/** SAFE: every index is checked to be in [0, n); the mutation lets it reach n (or go one past through a pointer): undefined behaviour, so the error. */
const OUT_OF_BOUNDS: MutationCase[] = [
  [
    'oob-malloc',
    'a malloc\'d array of n cells written at a nondet index i (UNSAFE: i may be n)',
    `#include <stdlib.h>
     int *a; int i;
     void *w(void *x) { a[i] = 1; return 0; }
     int main() { int n = __VERIFIER_nondet_int(); __VERIFIER_assume(0 < n && n <= 4);
       a = malloc(n * 4); i = __VERIFIER_nondet_int(); __VERIFIER_assume(0 <= i && i < n);
       pthread_t t; pthread_create(&t, 0, w, 0); pthread_join(t, 0); return 0; }`,
    'i < n)|i <= n)',
  ],
  [
    'oob-vla',
    'a VLA written at a nondet index (UNSAFE: the index may be -1)',
    `int main() { int n = __VERIFIER_nondet_int(); __VERIFIER_assume(0 < n && n <= 4);
       int buf[n]; int i = __VERIFIER_nondet_int(); __VERIFIER_assume(0 <= i && i < n);
       buf[i] = 1; return 0; }`,
    '0 <= i && i < n|-1 <= i && i < n',
  ],
  [
    'oob-pointer',
    'p = a + k, p[j] with k + j checked against n (UNSAFE: only j is checked, k + j may pass the end)',
    `#include <stdlib.h>
     int main() { int n = __VERIFIER_nondet_int(); __VERIFIER_assume(0 < n && n <= 4);
       int *a = calloc(n, sizeof(int));
       int k = __VERIFIER_nondet_int(); __VERIFIER_assume(0 <= k && k < n);
       int j = __VERIFIER_nondet_int(); __VERIFIER_assume(0 <= j && k + j < n);
       int *p = a + k; p[j] = 3; return 0; }`,
    'k + j < n|j < n',
  ],
];

describe('run-time-size arrays: a construct, SAFE and UNSAFE, agreed by monolithic, thread-modular and bmc', () => {
  agreeOnMutations(CONSTRUCTS, agreeWith({ safe: ['thread-modular'] }), 200_000);
});

// A known gap: these shapes are read, but monolithic, aret and bmc time out on them.
describe.skip(`run-time-size arrays: the larger constructs (${GAP})`, () => {
  agreeOnMutations(SLOW, agree, 200_000);
});

describe('run-time-size arrays: an index outside [0, n) reaches the error (monolithic, aret, bmc)', () => {
  agreeOnMutations(OUT_OF_BOUNDS, agreeWith({ safe: ['aret'], unsafe: ['aret'] }), 200_000);
});

const STDLIB = `${PRELUDE}#include <stdlib.h>\n`;
const SIZE = 'int n = __VERIFIER_nondet_int(); __VERIFIER_assume(0 < n && n <= 4);';

describe('run-time-size arrays: --check-free', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rely-rtarrays-free-'));
  const body = (end: string): string => `${PRELUDE}#include <stdlib.h>
int main() { int n = __VERIFIER_nondet_int(); __VERIFIER_assume(0 < n && n <= 10);
  int *a = calloc(n, sizeof(int)); a[0] = 1;
  ${end} return 0; }
`;
  for (const [name, end, engine, expected] of [
    ['use-after-free', 'free(a); if (a[0] != 1) reach_error();', 'monolithic', 'unsafe'],
    ['double-free', 'free(a); free(a);', 'bmc', 'unsafe'],
    ['one-free', 'if (a[0] != 1) reach_error(); free(a);', 'monolithic', 'safe'],
  ] as const)
    it(`${name}: ${expected} (a region's freed flag is an integer beside its array)`, async () => {
      const file = join(dir, `${name}.c`);
      writeFileSync(file, body(end));
      const r = await rely(['verify', '--check-free', '--engine', engine, '--json', '--timeout', '30', file]);
      expect(JSON.parse(r.out).verdict).toBe(expected);
    }, 60_000);
});

describe('run-time-size arrays: what stays refused, located', () => {
  refusedCases('parse', 'rely-rtarrays-refused-', [
    ['malloc-in-loop', `${STDLIB}int main() { ${SIZE} int k = __VERIFIER_nondet_int(); while (k > 0) { int *p = malloc(n * 4); p[0] = k; k--; } return 0; }\n`, 4, /unsupported: an allocation \(malloc\) inside a loop without constant bounds/],
    ['vla-in-loop', `${STDLIB}int main() { ${SIZE} int k = __VERIFIER_nondet_int(); while (k > 0) { int buf[n]; buf[0] = k; k--; } return 0; }\n`, 4, /unsupported: .* inside a loop without constant bounds/],
    ['realloc', `${STDLIB}int main() { ${SIZE} int *p = malloc(n * 4); p[0] = 1;\n  p = realloc(p, 2 * n * sizeof(int)); return 0; }\n`, 5, /unsupported: realloc/],
    ['struct-malloc', `${STDLIB}struct S { int x; int y; };\nint main() { ${SIZE} struct S *s = malloc(n * sizeof(struct S)); s[0].x = 1; return 0; }\n`, 5, /unsupported: .*struct/],
    ['wrapped-size', `${STDLIB}int main() { ${SIZE} int *p = malloc(n * sizeof(int)); p[0] = 1; return 0; }\n`, 4, /unsupported: malloc of a size C computes with a wrap-around or a division/],
    ['unsigned-cells', `${STDLIB}int main() { ${SIZE} unsigned *u = calloc(n, sizeof(unsigned)); u[0] = 1; return 0; }\n`, 4, /unsupported: calloc of a size known only at run time, of unsigned int values \(only int, long and long long elements are modelled\)/],
    ['struct-vla', `${STDLIB}struct S { int x; int y; };\nint main() { ${SIZE} struct S buf[n]; buf[0].x = 1; return 0; }\n`, 5, /unsupported: .*struct/],
  ]);
});

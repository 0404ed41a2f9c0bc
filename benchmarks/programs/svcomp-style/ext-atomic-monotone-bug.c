/*
 * ext-atomic-monotone-bug.c -- n incrementers, n decrementers and n
 *   readers of an unsigned counter, n chosen nondeterministically in
 *   1..1000; increments and decrements are atomic regions.
 *
 * Shape: SV-COMP pthread-ext (threads created in
 *   `for (i = 0; i < n; i++)` with n = __VERIFIER_nondet_int() and an
 *   assumption 1 <= n <= 1000), with atomic regions as in pthread-atomic.
 *   Written for this benchmark.
 *
 * Threads: main creates n incrementers, n decrementers and n readers.
 *   - inc: atomically v = c; if (v != UINT_MAX) c = v + 1; then, outside
 *     the atomic region, assert(c >= v).
 *   - dec: atomically if (c != 0) c = c - 1.
 *   - reader: v1 = c; v2 = c; assert(v2 >= v1).
 *
 * Changed from ext-atomic-monotone.c: the decrementers (the counter
 *   now goes down as well as up), and the assumption on n.
 *
 * Property: the same assertions: c never decreases -- now false.
 *
 * Expected verdict: UNSAFE, with n = 1 (one thread of each kind): the
 *   reader's assertion.  An interleaving:
 *     1. inc     atomically v = 0; c = 1
 *     2. reader  v1 = c (1)
 *     3. dec     atomically c = 0
 *     4. reader  v2 = c (0); assert(v2 >= v1) fails
 *   inc's own assertion needs n = 2 (its v is the value before its
 *   increment, so c must drop by 2 below its write): inc1 c = 1;
 *   inc2 v = 1, c = 2; dec1 c = 1; dec2 c = 0; inc2 assert(0 >= 1) fails.
 *
 * Checked: rely rejects the loop with a nondeterministic bound today
 *   (unsupported: unbounded thread creation).  rely explore on copies
 *   with n = 1, 2, 3 (n = K and the loop bound K): error reachable with
 *   each, 85 / 718 / 891 states (large blocks; an UNSAFE search stops
 *   at the first error).
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "ext-atomic-monotone-bug.c", 40, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

unsigned int c = 0; /* a counter that saturates at UINT_MAX and at 0 */

void *inc(void *arg) {
  unsigned int v;
  __VERIFIER_atomic_begin();
  v = c;
  if (v != 0u - 1) {   /* saturate: never wrap to 0 */
    c = v + 1;
  }
  __VERIFIER_atomic_end();
  assert(c >= v);
  return 0;
}

void *dec(void *arg) {
  __VERIFIER_atomic_begin();
  if (c != 0) {        /* BUG (for the property): c goes down */
    c = c - 1;
  }
  __VERIFIER_atomic_end();
  return 0;
}

void *reader(void *arg) {
  unsigned int v1, v2;
  v1 = c;
  v2 = c;
  assert(v2 >= v1);
  return 0;
}

int main(void) {
  pthread_t t;
  int i;
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(1 <= n && n <= 1000);
  for (i = 0; i < n; i++) {
    pthread_create(&t, 0, inc, 0);
    pthread_create(&t, 0, dec, 0);
    pthread_create(&t, 0, reader, 0);
  }
  return 0;
}

/*
 * ext-atomic-monotone.c -- n incrementers and n readers of a saturating
 *   unsigned counter, n chosen nondeterministically; the increments are
 *   __VERIFIER_atomic_begin/end regions.
 *
 * Shape: SV-COMP pthread-ext (threads created in
 *   `for (i = 0; i < n; i++)` with n = __VERIFIER_nondet_int(), no
 *   assumption on n), with atomic regions as in pthread-atomic.  Written
 *   for this benchmark.
 *
 * Threads: main creates n incrementers and n readers (none if n <= 0).
 *   - inc: atomically v = c; if (v != UINT_MAX) c = v + 1; then, outside
 *     the atomic region, assert(c >= v).
 *   - reader: v1 = c; v2 = c; assert(v2 >= v1).
 *
 * Property: c never decreases.  Both assertions compare a value read
 *   earlier with a later read of c.
 *
 * Expected verdict: SAFE for every n.  Why: the only writes of c are the
 *   atomic regions of inc, which write v + 1 > v = c (the saturation test
 *   excludes the wrap to 0), so every step of every thread satisfies
 *   c' >= c; a local v that was once <= c stays <= c.  The proof is
 *   thread-modular (a guarantee c' >= c for the environment), with no
 *   count of the threads.
 *
 * Checked: rely rejects the loop with a nondeterministic bound today
 *   (unsupported: unbounded thread creation).  rely explore on copies
 *   with n = 1, 2, 3 (n = K and the loop bound K): no error in any run,
 *   30 / 1,906 / 374,646 states (large blocks).
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "ext-atomic-monotone.c", 33, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

unsigned int c = 0; /* a counter that saturates at UINT_MAX */

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
  for (i = 0; i < n; i++) {
    pthread_create(&t, 0, inc, 0);
    pthread_create(&t, 0, reader, 0);
  }
  return 0;
}

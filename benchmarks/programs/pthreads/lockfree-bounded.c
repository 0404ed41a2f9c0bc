/*
 * lockfree-bounded.c -- a bounded lock-free counter (3 slots) with an
 *   atomic_compare_exchange_strong loop that re-checks the bound on every
 *   attempt; two threads try twice each; the -bug twin: tests the bound,
 *   then atomic_fetch_add.
 *
 * Expected verdict: SAFE. an attempt succeeds only by exchanging a value
 *   below 3 for its successor, and a failed exchange refreshes old before
 *   the bound is re-tested, so c never passes 3; four attempts for three
 *   slots give c == 3 and granted == 3.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "lockfree-bounded.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
#include <stdatomic.h>
atomic_int c = 0;
atomic_int granted = 0;

int try_take(void) {
  int old = atomic_load(&c);
  while (old < 3) {
    if (atomic_compare_exchange_strong(&c, &old, old + 1))
      return 1;
  }
  return 0;
}

void *worker(void *arg) {
  int i;
  for (i = 0; i < 2; i++) {
    if (try_take())
      atomic_fetch_add(&granted, 1);
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(atomic_load(&c) == 3 && atomic_load(&granted) == 3);
  return 0;
}

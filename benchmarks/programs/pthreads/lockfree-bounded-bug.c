/*
 * lockfree-bounded-bug.c -- a bounded lock-free counter (3 slots) with an
 *   atomic_compare_exchange_strong loop that re-checks the bound on every
 *   attempt; two threads try twice each; the -bug twin: tests the bound,
 *   then atomic_fetch_add.
 *
 * Expected verdict: UNSAFE. the bound is tested with atomic_load and the
 *   slot taken with atomic_fetch_add in a second statement: with c == 2 both
 *   threads pass the test, both add, c == 4 and the assert fails.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "lockfree-bounded-bug.c", 0, "reach_error"); }
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
  if (atomic_load(&c) < 3) {
    atomic_fetch_add(&c, 1);
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

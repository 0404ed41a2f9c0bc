/*
 * atomic-n-cas.c -- __atomic_compare_exchange_n (strong, __ATOMIC_SEQ_CST)
 *   in a retry loop that relies on the failed exchange writing the current
 *   value into expected; __atomic_fetch_add counts the increments; the -bug
 *   twin: a load, then a store of the value + 1.
 *
 * Expected verdict: SAFE. a failed __atomic_compare_exchange_n stores c's
 *   current value into expected, so the next attempt tries expected + 1
 *   against the fresh value; only an exchange from the value last seen
 *   succeeds, no increment is lost, and c == 2.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "atomic-n-cas.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
int c = 0;
int adds = 0;

void *worker(void *arg) {
  int expected = __atomic_load_n(&c, __ATOMIC_SEQ_CST);
  while (!__atomic_compare_exchange_n(&c, &expected, expected + 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
  }
  __atomic_fetch_add(&adds, 1, __ATOMIC_SEQ_CST);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(c == 2 && adds == 2);
  return 0;
}

/*
 * atomic-n-cas-bug.c -- __atomic_compare_exchange_n (strong,
 *   __ATOMIC_SEQ_CST) in a retry loop that relies on the failed exchange
 *   writing the current value into expected; __atomic_fetch_add counts the
 *   increments; the -bug twin: a load, then a store of the value + 1.
 *
 * Expected verdict: UNSAFE. the increment is an __atomic_load_n and an
 *   __atomic_store_n of the loaded value + 1 in two statements: both threads
 *   load 0, both store 1, and c == 2 fails.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "atomic-n-cas-bug.c", 0, "reach_error"); }
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
  __atomic_store_n(&c, expected + 1, __ATOMIC_SEQ_CST);
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

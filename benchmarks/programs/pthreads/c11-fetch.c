/*
 * c11-fetch.c -- C11 atomic_int with atomic_fetch_add, atomic_fetch_sub and
 *   atomic_load_explicit(..., memory_order_seq_cst); the -bug twin:
 *   atomic_load, then atomic_store of the value + 2.
 *
 * Expected verdict: SAFE. each thread adds 2 and subtracts 1 with single
 *   atomic read-modify-writes, so x == 2 after the joins.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "c11-fetch.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
#include <stdatomic.h>
atomic_int x = 0;

void *worker(void *arg) {
  atomic_fetch_add(&x, 2);
  atomic_fetch_sub(&x, 1);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(atomic_load_explicit(&x, memory_order_seq_cst) == 2);
  return 0;
}

/*
 * c11-weak-counter.c -- a lock-free counter with
 *   atomic_compare_exchange_weak in a retry loop (the weak form may fail
 *   spuriously), two increments per thread; the -bug twin: one attempt, its
 *   failure ignored.
 *
 * Expected verdict: SAFE. a failed atomic_compare_exchange_weak (by
 *   contention or spuriously) refreshes old and the loop retries, so every
 *   increment eventually lands exactly once and c == 4.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "c11-weak-counter.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
#include <stdatomic.h>
atomic_int c = 0;

void *worker(void *arg) {
  int i, old;
  for (i = 0; i < 2; i++) {
    old = atomic_load(&c);
    while (!atomic_compare_exchange_weak(&c, &old, old + 1)) {
    }
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(atomic_load(&c) == 4);
  return 0;
}

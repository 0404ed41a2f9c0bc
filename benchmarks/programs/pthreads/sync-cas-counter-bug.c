/*
 * sync-cas-counter-bug.c -- a lock-free counter:
 *   __sync_bool_compare_and_swap retried in a do-while loop, two increments
 *   per thread; the -bug twin: one swap, its failure ignored.
 *
 * Expected verdict: UNSAFE. a thread ignores a failed
 *   __sync_bool_compare_and_swap: both read 0, the first swaps 0 for 1, the
 *   second's swap fails and its increment is lost, and c == 4 fails.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "sync-cas-counter-bug.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
int c = 0;

void *worker(void *arg) {
  int i, old;
  for (i = 0; i < 2; i++) {
    old = __sync_fetch_and_add(&c, 0);
    __sync_bool_compare_and_swap(&c, old, old + 1);
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(c == 4);
  return 0;
}

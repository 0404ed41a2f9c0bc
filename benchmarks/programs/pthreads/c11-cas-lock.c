/*
 * c11-cas-lock.c -- a spinlock on an _Atomic int:
 *   atomic_compare_exchange_strong from 0 to 1 to acquire (the expected
 *   value reset to 0 after each failed attempt), atomic_store of 0 to
 *   release; the -bug twin: does not reset the expected value.
 *
 * Expected verdict: SAFE. a failed atomic_compare_exchange_strong writes
 *   lk's value (1) into e; the loop resets e to 0 before retrying, so a
 *   thread acquires only when lk is 0, and c == 2.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "c11-cas-lock.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
#include <stdatomic.h>
_Atomic int lk = 0;
int c = 0;

void acquire(void) {
  int e = 0;
  while (!atomic_compare_exchange_strong(&lk, &e, 1))
    e = 0;
}

void release(void) {
  atomic_store(&lk, 0);
}

void *worker(void *arg) {
  int t;
  acquire();
  t = c;
  c = t + 1;
  release();
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(c == 2);
  return 0;
}

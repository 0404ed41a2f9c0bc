/*
 * c11-exchange-bug.c -- atomic_exchange taking a one-shot token (C11
 *   atomic_int); atomic_fetch_add counts the winners; the -bug twin:
 *   atomic_load, then atomic_store of 0.
 *
 * Expected verdict: UNSAFE. the token is read with atomic_load and cleared
 *   with atomic_store in a second statement: two threads can both load 1
 *   before either stores 0, both count a win, and wins == 1 fails.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "c11-exchange-bug.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
#include <stdatomic.h>
atomic_int token = 1;
atomic_int wins = 0;

void *worker(void *arg) {
  if (atomic_load(&token) == 1) {
    atomic_store(&token, 0);
    atomic_fetch_add(&wins, 1);
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2, t3;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_create(&t3, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  pthread_join(t3, 0);
  assert(atomic_load(&wins) == 1);
  return 0;
}

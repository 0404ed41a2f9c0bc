/*
 * barrier2.c -- a one-shot barrier for two threads: each publishes its
 *   half of the data before the barrier and reads the other half after.
 *
 * Algorithm: the counting (centralised) barrier (J. M. Mellor-Crummey,
 *   M. L. Scott, ACM TOCS 9(1), 1991, §3): a shared count of the threads
 *   still to arrive, decremented by each arriving thread under a mutex;
 *   a thread spins until it reaches 0.  Written for this benchmark.
 *
 * Shape: SV-COMP pthread (a barrier for 2 threads, spin-waiting, a mutex).
 *
 * Threads: main; thr1 writes a = 1, thr2 writes b = 2; both pass the
 *   barrier; then each reads the other's value.
 *
 * Property: after the barrier each thread sees the other's write:
 *   assert(b == 2) in thr1, assert(a == 1) in thr2; main, after joining
 *   both, asserts remaining == 0.
 *
 * Expected verdict: SAFE.  A thread leaves the barrier only once remaining
 *   is 0, which needs both decrements, and each thread decrements after
 *   its write.
 *
 * rely explore: no error in any run, 44 / 143 states (large blocks /
 *   small steps).
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "barrier2.c", 28, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

int remaining = 2;  /* threads that have not yet arrived at the barrier */
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int a = 0;          /* thr1's half of the data */
int b = 0;          /* thr2's half */

void barrier(void) {
  pthread_mutex_lock(&m);
  remaining = remaining - 1;
  pthread_mutex_unlock(&m);
  while (remaining > 0) {   /* wait for the other thread */
  }
}

void *thr1(void *arg) {
  a = 1;
  barrier();
  assert(b == 2);
  return 0;
}

void *thr2(void *arg) {
  b = 2;
  barrier();
  assert(a == 1);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, thr1, 0);
  pthread_create(&t2, 0, thr2, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(remaining == 0);
  return 0;
}

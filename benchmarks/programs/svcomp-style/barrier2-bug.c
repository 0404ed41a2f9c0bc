/*
 * barrier2-bug.c -- a one-shot barrier for two threads with an off-by-one
 *   in its wait condition.
 *
 * Algorithm: the counting barrier (J. M. Mellor-Crummey, M. L. Scott, ACM
 *   TOCS 9(1), 1991, §3), as in barrier2.c.  Written for this benchmark.
 *
 * Shape: SV-COMP pthread (a barrier for 2 threads, spin-waiting, a mutex).
 *
 * Threads: main; thr1 writes a = 1, thr2 writes b = 2; both pass the
 *   barrier; then each reads the other's value.
 *
 * Changed from barrier2.c: the wait is `while (remaining > 1)` instead of
 *   `while (remaining > 0)`: the first thread to arrive does not wait.
 *
 * Property: after the barrier each thread sees the other's write:
 *   assert(b == 2) in thr1, assert(a == 1) in thr2.
 *
 * Expected verdict: UNSAFE.  An interleaving:
 *     1. thr1  a = 1
 *     2. thr1  lock; remaining = 1; unlock
 *     3. thr1  remaining > 1 is false: leaves the barrier
 *     4. thr1  assert(b == 2) fails (thr2 has not run)
 *
 * rely explore: error reachable, 19 / 42 states (large blocks / small
 *   steps); an UNSAFE search stops at the first error.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "barrier2-bug.c", 30, "reach_error"); }
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
  while (remaining > 1) {   /* BUG: should wait while remaining > 0 */
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
  return 0;
}

/*
 * counter-mutex-n4-racy.c -- a counter incremented once by each of 4 threads;
 *   3 of them hold a mutex, the last one does not.
 *
 * Shape: a shared counter c, a pthread mutex m; each inc thread runs
 *   lock(m); c = c + 1; unlock(m) once.  Written for this benchmark.
 *
 * Threads: main; N - 1 = 3 threads running inc, created in a constant-
 *   bounded loop, and one running inc_racy.
 *
 * Bug: the last thread (inc_racy) increments without the mutex and in
 *   two steps, tmp = c; c = tmp + 1, so an increment can be lost.
 *
 * Property: after joining all threads, main asserts c == N.
 *
 * Expected verdict: UNSAFE.  An interleaving that breaks it:
 *     1. inc_racy  tmp = c              (tmp = 0)
 *     2. inc       lock; c = c + 1; unlock   (c = 1)
 *     3. inc_racy  c = tmp + 1          (c = 1: the increment is lost)
 *     4. the other inc threads run      (c = 3)
 *     5. main      joins all, assert(c == 4) fails
 *
 * rely explore: error reachable, 1,812 / 36,914 states (large blocks /
 *   small steps), 0.25 / 1 s.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "counter-mutex-n4-racy.c", 28, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

#ifndef N
#define N 4   /* threads */
#endif

int c = 0;                                   /* the counter */
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *inc(void *arg) {
  pthread_mutex_lock(&m);
  c = c + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

void *inc_racy(void *arg) {
  int tmp = 0;
  tmp = c;            /* BUG: not under the lock, and in two steps */
  c = tmp + 1;
  return 0;
}

int main(void) {
  pthread_t t[N];
  int i = 0;
  for (i = 0; i < N - 1; i++) {
    pthread_create(&t[i], 0, inc, 0);
  }
  pthread_create(&t[N - 1], 0, inc_racy, 0);
  for (i = 0; i < N; i++) {
    pthread_join(t[i], 0);
  }
  assert(c == N);
  return 0;
}

/*
 * counter-mutex-n2.c -- a counter incremented once by each of 2 identical
 *   threads under a mutex.
 *
 * Shape: a shared counter c, a pthread mutex m; each thread runs
 *   lock(m); c = c + 1; unlock(m) once.  Written for this benchmark.
 *
 * Threads: main and N = 2 threads running inc, created and joined in
 *   constant-bounded loops.
 *
 * Property: after joining all threads, main asserts c == N.
 *
 * Expected verdict: SAFE
 *
 * rely explore: no error in any run, 28 states (large blocks), 8 ms.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "counter-mutex-n2.c", 19, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

#ifndef N
#define N 2   /* threads */
#endif

int c = 0;                                   /* the counter */
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *inc(void *arg) {
  pthread_mutex_lock(&m);
  c = c + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t[N];
  int i = 0;
  for (i = 0; i < N; i++) {
    pthread_create(&t[i], 0, inc, 0);
  }
  for (i = 0; i < N; i++) {
    pthread_join(t[i], 0);
  }
  assert(c == N);
  return 0;
}

/*
 * counter-mutex-n20.c -- a counter incremented once by each of 20 identical
 *   threads under a mutex.
 *
 * Shape: a shared counter c, a pthread mutex m; each thread runs
 *   lock(m); c = c + 1; unlock(m) once.  Written for this benchmark.
 *
 * Threads: main and N = 20 threads running inc, created and joined in
 *   constant-bounded loops.
 *
 * Property: after joining all threads, main asserts c == N.
 *
 * Expected verdict: SAFE
 *
 * rely explore: not exhaustive at N = 20 (about 11-12 times more states
 *   per two threads).  Checked at smaller N with -D N=K (the #ifndef
 *   above): no error in any run at N = 2 / 4 / 6 / 8 / 10, 28 / 406 /
 *   5,104 / 59,050 / 649,540 states (large blocks), 12-20 s at N = 10.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "counter-mutex-n20.c", 22, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

#ifndef N
#define N 20   /* threads */
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

/*
 * once.c -- pthread_once with a global pthread_once_t initialised to
 *   PTHREAD_ONCE_INIT, called by two threads; the -bug twin: a
 *   pthread_once_t local to the thread function.
 *
 * Expected verdict: SAFE. pthread_once runs init_config exactly once and
 *   every caller returns from it only after that run has finished, so both
 *   threads read config == 42 and inits == 1.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "once.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
pthread_once_t once = PTHREAD_ONCE_INIT;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int config = 0;
int inits = 0;

void init_config(void) {
  pthread_mutex_lock(&m);
  config = 42;
  inits = inits + 1;
  pthread_mutex_unlock(&m);
}

void *worker(void *arg) {
  int v;
  pthread_once(&once, init_config);
  pthread_mutex_lock(&m);
  v = config;
  pthread_mutex_unlock(&m);
  assert(v == 42);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(inits == 1);
  return 0;
}

/*
 * once-bug.c -- pthread_once with a global pthread_once_t initialised to
 *   PTHREAD_ONCE_INIT, called by two threads; the -bug twin: a
 *   pthread_once_t local to the thread function.
 *
 * Expected verdict: UNSAFE. the pthread_once_t is a local of the thread
 *   function, one per thread, so each thread's pthread_once runs
 *   init_config: inits == 2 and the assert in main fails (in every
 *   interleaving).
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "once-bug.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
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
  pthread_once_t once = PTHREAD_ONCE_INIT;
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

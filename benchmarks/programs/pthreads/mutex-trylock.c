/*
 * mutex-trylock.c -- pthread_mutex_trylock, which returns 0 or EBUSY,
 *   falling back to pthread_mutex_lock; the -bug twin: skips its increment
 *   on EBUSY.
 *
 * Expected verdict: SAFE. a thread whose pthread_mutex_trylock returns EBUSY
 *   blocks in pthread_mutex_lock instead, so both increments happen under
 *   the mutex and c == 2.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "mutex-trylock.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
#include <errno.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int c = 0;

void *worker(void *arg) {
  int rc, t;
  rc = pthread_mutex_trylock(&m);
  assert(rc == 0 || rc == EBUSY);
  if (rc == EBUSY)
    pthread_mutex_lock(&m);
  t = c;
  c = t + 1;
  pthread_mutex_unlock(&m);
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

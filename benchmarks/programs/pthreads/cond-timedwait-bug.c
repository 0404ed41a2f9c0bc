/*
 * cond-timedwait-bug.c -- pthread_cond_timedwait, which returns 0 or
 *   ETIMEDOUT; the deadline is a global struct timespec left zero (the
 *   epoch, already past: a concrete run times out at once; rely's model
 *   ignores the time); the -bug twin: gives up on the first timeout.
 *
 * Expected verdict: UNSAFE. wait_ready gives up on the first timeout
 *   (return) and then reads value as if the setter had run:
 *   pthread_cond_timedwait returns ETIMEDOUT before the setter thread takes
 *   m, main leaves the loop with ready == 0, and value == 7 fails.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "cond-timedwait-bug.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
#include <errno.h>
#include <time.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
struct timespec deadline;
int ready = 0;
int value = 0;

void *setter(void *arg) {
  pthread_mutex_lock(&m);
  value = 7;
  ready = 1;
  pthread_cond_signal(&cv);
  pthread_mutex_unlock(&m);
  return 0;
}

void wait_ready(void) {
  int rc;
  while (ready == 0) {
    rc = pthread_cond_timedwait(&cv, &m, &deadline);
    if (rc == ETIMEDOUT)
      return;
  }
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, setter, 0);
  pthread_mutex_lock(&m);
  wait_ready();
  assert(value == 7);
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  return 0;
}

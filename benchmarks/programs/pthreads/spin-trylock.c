/*
 * spin-trylock.c -- pthread_spin_trylock, which returns 0 or EBUSY, retried
 *   until it succeeds; the -bug twin: skips its work on EBUSY.
 *
 * Expected verdict: SAFE. a thread retries pthread_spin_trylock until it
 *   returns 0 and only then increments done, inside the lock, so both
 *   increments happen and done == 2.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "spin-trylock.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
#include <errno.h>
pthread_spinlock_t s;
int done = 0;

void *worker(void *arg) {
  int rc;
  rc = pthread_spin_trylock(&s);
  assert(rc == 0 || rc == EBUSY);
  while (rc != 0)
    rc = pthread_spin_trylock(&s);
  done = done + 1;
  pthread_spin_unlock(&s);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_spin_init(&s, PTHREAD_PROCESS_PRIVATE);
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(done == 2);
  pthread_spin_destroy(&s);
  return 0;
}

/*
 * barrier-serial.c -- PTHREAD_BARRIER_SERIAL_THREAD: of the two threads
 *   leaving pthread_barrier_wait exactly one gets it and combines the
 *   parts; a second wait publishes the total; the -bug twin: no second
 *   wait.
 *
 * Expected verdict: SAFE. pthread_barrier_wait returns
 *   PTHREAD_BARRIER_SERIAL_THREAD to one waiter and 0 to the other; the
 *   serial one computes total = 3 before the second barrier, and both read
 *   it after that barrier, so t == 3 and serials == 1.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "barrier-serial.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
pthread_barrier_t b;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int part[2];
int total = -1;
int serials = 0;

void check_rc(int rc) {
  assert(rc == 0 || rc == PTHREAD_BARRIER_SERIAL_THREAD);
}

void *worker(void *arg) {
  int id = *(int *)arg;
  int rc, t;
  pthread_mutex_lock(&m);
  part[id] = id + 1;
  pthread_mutex_unlock(&m);
  rc = pthread_barrier_wait(&b);
  check_rc(rc);
  if (rc == PTHREAD_BARRIER_SERIAL_THREAD) {
    pthread_mutex_lock(&m);
    total = part[0] + part[1];
    serials = serials + 1;
    pthread_mutex_unlock(&m);
  }
  pthread_barrier_wait(&b);
  pthread_mutex_lock(&m);
  t = total;
  pthread_mutex_unlock(&m);
  assert(t == 3);
  return 0;
}

int main(void) {
  pthread_t t0, t1;
  int id0 = 0;
  int id1 = 1;
  pthread_barrier_init(&b, 0, 2);
  pthread_create(&t0, 0, worker, &id0);
  pthread_create(&t1, 0, worker, &id1);
  pthread_join(t0, 0);
  pthread_join(t1, 0);
  pthread_barrier_destroy(&b);
  assert(serials == 1);
  return 0;
}

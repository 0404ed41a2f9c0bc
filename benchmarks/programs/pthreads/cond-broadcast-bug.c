/*
 * cond-broadcast-bug.c -- pthread_cond_broadcast waking two waiting threads
 *   at a start gate; the -bug twin: writes data in a second critical
 *   section after the broadcast.
 *
 * Expected verdict: UNSAFE. main opens the gate and broadcasts in one
 *   critical section and writes data in a second one: a woken worker can
 *   take m between the two, see go == 1 and read data == 0, and the assert
 *   fails. No access is unprotected; the bug is the order of the two
 *   critical sections.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "cond-broadcast-bug.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t gate = PTHREAD_COND_INITIALIZER;
int go = 0;
int data = 0;

void *worker(void *arg) {
  int d;
  pthread_mutex_lock(&m);
  while (go == 0)
    pthread_cond_wait(&gate, &m);
  d = data;
  pthread_mutex_unlock(&m);
  assert(d == 42);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_mutex_lock(&m);
  go = 1;
  pthread_cond_broadcast(&gate);
  pthread_mutex_unlock(&m);
  pthread_mutex_lock(&m);
  data = 42;
  pthread_mutex_unlock(&m);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}

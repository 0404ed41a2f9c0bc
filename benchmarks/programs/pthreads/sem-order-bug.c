/*
 * sem-order-bug.c -- a semaphore of count 0 ordering two threads: sem_wait
 *   blocks until the other thread's sem_post; the -bug twin: count 1.
 *
 * Expected verdict: UNSAFE. sem_init(&done, 0, 1): the second thread's
 *   sem_wait returns at once, it can read x before the first thread writes
 *   it, and v == 1 fails.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "sem-order-bug.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
#include <semaphore.h>
sem_t done;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x = 0;

void *first(void *arg) {
  pthread_mutex_lock(&m);
  x = 1;
  pthread_mutex_unlock(&m);
  sem_post(&done);
  return 0;
}

void *second(void *arg) {
  int v;
  sem_wait(&done);
  pthread_mutex_lock(&m);
  v = x;
  pthread_mutex_unlock(&m);
  assert(v == 1);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  sem_init(&done, 0, 1);
  pthread_create(&t2, 0, second, 0);
  pthread_create(&t1, 0, first, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  sem_destroy(&done);
  return 0;
}

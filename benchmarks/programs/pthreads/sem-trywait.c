/*
 * sem-trywait.c -- sem_trywait, which returns 0 (took a unit) or -1 (the
 *   count was 0), retried until it succeeds; the semaphore starts at 0 and
 *   the producer posts once its data is written; the -bug twin: tries once
 *   and goes on.
 *
 * Expected verdict: SAFE. the consumer retries sem_trywait until it returns
 *   0, which happens only after the producer's sem_post, which follows its
 *   write of data, so it reads 42.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "sem-trywait.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
#include <semaphore.h>
sem_t ready;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int data = 0;

void check_rc(int rc) {
  assert(rc == 0 || rc == -1);
}

void *producer(void *arg) {
  pthread_mutex_lock(&m);
  data = 42;
  pthread_mutex_unlock(&m);
  sem_post(&ready);
  return 0;
}

void *consumer(void *arg) {
  int rc, d;
  rc = sem_trywait(&ready);
  check_rc(rc);
  while (rc != 0)
    rc = sem_trywait(&ready);
  pthread_mutex_lock(&m);
  d = data;
  pthread_mutex_unlock(&m);
  assert(d == 42);
  return 0;
}

int main(void) {
  pthread_t p, c;
  sem_init(&ready, 0, 0);
  pthread_create(&c, 0, consumer, 0);
  pthread_create(&p, 0, producer, 0);
  pthread_join(p, 0);
  pthread_join(c, 0);
  sem_destroy(&ready);
  return 0;
}

/*
 * barrier-phase.c -- pthread_barrier_init(&b, 0,
 *   2)/pthread_barrier_wait/pthread_barrier_destroy separating two phases:
 *   each thread writes its part, then reads the other's; the -bug twin:
 *   count 1.
 *
 * Expected verdict: SAFE. the barrier of count 2 lets neither thread into
 *   phase 2 before both have written their part, so each reads the other's
 *   part (2 - id).
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "barrier-phase.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
pthread_barrier_t b;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int part[2];

void *worker(void *arg) {
  int id = *(int *)arg;
  int other;
  pthread_mutex_lock(&m);
  part[id] = id + 1;
  pthread_mutex_unlock(&m);
  pthread_barrier_wait(&b);
  pthread_mutex_lock(&m);
  other = part[1 - id];
  pthread_mutex_unlock(&m);
  assert(other == 2 - id);
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
  return 0;
}

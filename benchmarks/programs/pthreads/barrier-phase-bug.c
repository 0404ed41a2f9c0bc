/*
 * barrier-phase-bug.c -- pthread_barrier_init(&b, 0,
 *   2)/pthread_barrier_wait/pthread_barrier_destroy separating two phases:
 *   each thread writes its part, then reads the other's; the -bug twin:
 *   count 1.
 *
 * Expected verdict: UNSAFE. the barrier is initialised with count 1, so
 *   pthread_barrier_wait returns at once: thread 0 can read part[1] before
 *   thread 1 wrote it (0, not 2) and the assert fails.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "barrier-phase-bug.c", 0, "reach_error"); }
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
  pthread_barrier_init(&b, 0, 1);
  pthread_create(&t0, 0, worker, &id0);
  pthread_create(&t1, 0, worker, &id1);
  pthread_join(t0, 0);
  pthread_join(t1, 0);
  pthread_barrier_destroy(&b);
  return 0;
}

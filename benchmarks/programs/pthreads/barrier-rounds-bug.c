/*
 * barrier-rounds-bug.c -- a barrier reused over two rounds (double
 *   synchronisation per round): each thread reads its neighbour's value,
 *   waits, writes its own, waits; the -bug twin: no wait between the read
 *   and the write of a round.
 *
 * Expected verdict: UNSAFE. without the first barrier of a round a thread
 *   can read its neighbour's value after the neighbour has already written
 *   it in the same round: thread 1 writes val[1] = 1 in round 0 before
 *   thread 0 reads it, thread 0 reads 1 and other == r fails.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "barrier-rounds-bug.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
pthread_barrier_t b;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int val[2];

void *worker(void *arg) {
  int id = *(int *)arg;
  int r, other;
  for (r = 0; r < 2; r++) {
    pthread_mutex_lock(&m);
    other = val[1 - id];
    pthread_mutex_unlock(&m);
    assert(other == r);
    pthread_mutex_lock(&m);
    val[id] = other + 1;
    pthread_mutex_unlock(&m);
    pthread_barrier_wait(&b);
  }
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
  assert(val[0] == 2 && val[1] == 2);
  return 0;
}

/*
 * sync-fetch-add-bug.c -- GCC __sync_fetch_and_add and
 *   __sync_add_and_fetch: a hit counter and a ticket dispenser; the -bug
 *   twin: an atomic read, then __sync_lock_test_and_set of the value + 1.
 *
 * Expected verdict: UNSAFE. the hit counter is read atomically
 *   (__sync_fetch_and_add(&hits, 0)) and written back with
 *   __sync_lock_test_and_set in a second statement: both threads read 0,
 *   both write 1, and hits == 2 fails.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "sync-fetch-add-bug.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
int hits = 0;
int tickets = 0;
int mine[2];

void *worker(void *arg) {
  int id = *(int *)arg;
  int t = __sync_fetch_and_add(&hits, 0);
  __sync_lock_test_and_set(&hits, t + 1);
  mine[id] = __sync_add_and_fetch(&tickets, 1);
  return 0;
}

int main(void) {
  pthread_t t0, t1;
  int id0 = 0;
  int id1 = 1;
  pthread_create(&t0, 0, worker, &id0);
  pthread_create(&t1, 0, worker, &id1);
  pthread_join(t0, 0);
  pthread_join(t1, 0);
  assert(hits == 2 && mine[0] != mine[1] && mine[0] + mine[1] == 3);
  return 0;
}

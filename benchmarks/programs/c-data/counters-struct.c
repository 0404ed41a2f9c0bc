/*
 * counters-struct.c -- a struct of counters with its own mutex as a member (stats.m), updated by two threads and checked by a third.
 *
 * Expected verdict: SAFE. every update bumps one counter and total in the
 *   same critical section of stats.m, and the checker reads under it:
 *   reads + writes == total always.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "counters-struct.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
struct counters { pthread_mutex_t m; int reads; int writes; int total; };
struct counters stats;

void *reader(void *arg) {
  for (int k = 0; k < 2; k++) {
    pthread_mutex_lock(&stats.m);
    stats.reads = stats.reads + 1;
    stats.total = stats.total + 1;
    pthread_mutex_unlock(&stats.m);
  }
  return 0;
}

void *checker(void *arg) {
  pthread_mutex_lock(&stats.m);
  assert(stats.reads + stats.writes == stats.total);
  pthread_mutex_unlock(&stats.m);
  return 0;
}

void *writer(void *arg) {
  for (int k = 0; k < 2; k++) {
    pthread_mutex_lock(&stats.m);
    stats.writes = stats.writes + 1;
    stats.total = stats.total + 1;
    pthread_mutex_unlock(&stats.m);
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2, t3;
  pthread_mutex_init(&stats.m, 0);
  pthread_create(&t1, 0, reader, 0);
  pthread_create(&t2, 0, writer, 0);
  pthread_create(&t3, 0, checker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  pthread_join(t3, 0);
  return 0;
}

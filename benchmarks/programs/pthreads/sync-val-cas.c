/*
 * sync-val-cas.c -- __sync_val_compare_and_swap claiming ownership: it
 *   returns the old value, 0 for the one thread that swapped; the -bug
 *   twin: reads the old value as a success flag.
 *
 * Expected verdict: SAFE. exactly one thread sees 0 returned (the one whose
 *   swap happened), records itself as the winner, and it is the thread whose
 *   id owner holds.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "sync-val-cas.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int owner = 0;
int winner = 0;
int wins = 0;

void *worker(void *arg) {
  int id = *(int *)arg;
  int old = __sync_val_compare_and_swap(&owner, 0, id);
  if (old == 0) {
    pthread_mutex_lock(&m);
    winner = id;
    wins = wins + 1;
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  int id1 = 1;
  int id2 = 2;
  pthread_create(&t1, 0, worker, &id1);
  pthread_create(&t2, 0, worker, &id2);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(wins == 1 && winner == owner);
  return 0;
}

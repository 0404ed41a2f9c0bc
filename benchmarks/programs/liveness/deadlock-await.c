/*
 * deadlock-await.c -- two threads each wait for the other to go first:
 *   every run deadlocks (liveness benchmark).
 *
 * Program: thr1 waits (an atomic await: __VERIFIER_assume) until y == 1
 *   and then sets x = 1; thr2 waits until x == 1 and then sets y = 1.
 *   Both start with x == y == 0, so each waits for the other's write,
 *   which comes only after the other's wait: a circular wait from the
 *   first state on.  Written for this benchmark.
 *
 * Locations (C labels, for at(thread, label)): W the wait, D after it
 *   (never reached).
 *
 * Deadlock: in every run, once main has ended (its only step), no thread
 *   has an enabled transition: thr1 and thr2 are blocked at W for good
 *   and take self-loops.
 *
 * Properties (../../liveness.json): expected "deadlock".  F x == 1 FAILS
 *   under every fairness notion (x stays 0 in the only kind of run); a
 *   checker that reports the stuttering run as a counterexample lasso
 *   instead of a deadlock is right as well.  G x == 0 holds (a safety
 *   property, true in every run).
 */
#include <pthread.h>
extern void __VERIFIER_assume(int cond);

int x = 0; /* written by thr1 after its wait */
int y = 0; /* written by thr2 after its wait */

void *thr1(void *arg) {
W:
  __VERIFIER_assume(y == 1);
D:
  x = 1;
  return 0;
}

void *thr2(void *arg) {
W:
  __VERIFIER_assume(x == 1);
D:
  y = 1;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, thr1, 0);
  pthread_create(&t2, 0, thr2, 0);
  pthread_exit(0);
}

/*
 * deadlock-mutex.c -- two threads take two mutexes in opposite orders,
 *   forever: a deadlock is reachable (liveness benchmark).
 *
 * Algorithm: the textbook lock-order deadlock (E. G. Coffman, M. J.
 *   Elphick, A. Shoshani, "System deadlocks", ACM Computing Surveys 3(2),
 *   1971: a circular wait).  thr1 locks a, then b; thr2 locks b, then a;
 *   each releases both and starts again.  Written for this benchmark.
 *
 * Locations (C labels, for at(thread, label)): NC the noncritical section
 *   (one step that always proceeds), L1 the first lock, L2 the second,
 *   C the section that holds both mutexes.  pthread_mutex_lock waits
 *   (blocks) until the mutex is free.
 *
 * Deadlock: thr1 locks a, thr2 locks b; now thr1 waits for b at L2 and
 *   thr2 for a at L2, forever: both are blocked and main has ended, so no
 *   thread can make a real step again.  From there every run only
 *   stutters (blocked threads take self-loops), and every fairness notion
 *   here allows that, so no fairness helps.
 *
 * Properties (../../liveness.json): expected "deadlock" (a reachable state
 *   where no thread can move).  G F at(thr1, C) (thr1 keeps getting both
 *   mutexes) also FAILS, under any fairness, by the deadlocked run; a
 *   checker that reports the deadlocked run as a counterexample lasso
 *   (its loop the self-loops) instead of a deadlock is right as well.
 *   It fails without a deadlock too: thr1 can wait at L1 while thr2 goes
 *   round and round, taking its steps only while thr2 holds a (then thr1
 *   is blocked and its self-loops count as its steps; it is never enabled
 *   for good, so weak fairness does not help either).  Runs that avoid
 *   the deadlock exist, but fairness does not make them the only ones.
 */
#include <pthread.h>

pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;
int x = 0; /* written while holding both mutexes */

void *thr1(void *arg) {
  while (1) {
  NC:
    ; /* noncritical section */
  L1:
    pthread_mutex_lock(&a);
  L2:
    pthread_mutex_lock(&b);
  C:
    x = 1;
    pthread_mutex_unlock(&b);
    pthread_mutex_unlock(&a);
  }
  return 0;
}

void *thr2(void *arg) {
  while (1) {
  NC:
    ; /* noncritical section */
  L1:
    pthread_mutex_lock(&b);
  L2:
    pthread_mutex_lock(&a);
  C:
    x = 2;
    pthread_mutex_unlock(&a);
    pthread_mutex_unlock(&b);
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, thr1, 0);
  pthread_create(&t2, 0, thr2, 0);
  pthread_exit(0);
}

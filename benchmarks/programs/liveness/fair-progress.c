/*
 * fair-progress.c -- a thread that does one thing and ends, beside a
 *   thread that spins: the one thing happens only under fairness
 *   (liveness benchmark).
 *
 * Program: setter sets x = 1 and ends.  spinner busy-waits while x == 0
 *   and then ends.  Written for this benchmark.
 *
 * Locations (C labels, for at(thread, label)): setter: S before its
 *   write; spinner: W its spin loop, D after it.
 *
 * Properties (../../liveness.json):
 *   F x == 1: HOLDS under unconditional fairness (setter must take a
 *   step, and its only step writes x = 1) and under weak fairness (setter
 *   is enabled for good until it moves: nothing can block it).  FAILS
 *   without fairness: spinner may spin forever while setter is never
 *   scheduled.
 *   F at(spinner, D): the same, for the same reasons: once x == 1, the
 *   spinner (always enabled) must test again and leave the loop.
 *   G (x == 1 -> G x == 1): HOLDS with no fairness at all (x is written
 *   once, with 1): a safety property, as a control.
 *   After both threads end, every run stutters (ended threads stutter):
 *   that is not a deadlock, since no thread is blocked.
 */
#include <pthread.h>

int x = 0; /* set once by setter */

void *setter(void *arg) {
S:
  x = 1;
  return 0;
}

void *spinner(void *arg) {
W:
  while (x == 0) {
  }
D:
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, setter, 0);
  pthread_create(&t2, 0, spinner, 0);
  pthread_exit(0);
}

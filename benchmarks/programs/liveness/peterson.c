/*
 * peterson.c -- Peterson's mutual exclusion algorithm for two threads that
 *   compete for the critical section forever (liveness benchmark).
 *
 * Algorithm: G. L. Peterson, "Myths about the mutual exclusion problem",
 *   Information Processing Letters 12(3):115-116, 1981.  A thread raises
 *   its flag, gives the turn to the other thread, and busy-waits while the
 *   other thread's flag is up and it is the other thread's turn.  On exit
 *   it lowers its flag.  Written for this benchmark from the algorithm
 *   (../peterson.c runs the same protocol once per thread).
 *
 * Locations (C labels, for at(thread, label)): NC the noncritical section
 *   (one step that always proceeds), W the busy-wait loop, C the critical
 *   section.  Every wait is a spin loop: a waiting thread always has an
 *   enabled transition (the re-test), so it is never blocked, and weak
 *   fairness ("a thread enabled for good eventually moves") makes each
 *   thread move infinitely often, as unconditional fairness does.
 *
 * Properties (../../liveness.json):
 *   G (at(thr1, W) -> F at(thr1, C)), and the same for thr2 (starvation
 *   freedom): HOLD under weak and under unconditional fairness.  Why, for
 *   thr1 waiting at W (flag1 == 1, thr1 wrote turn = 2 before W):
 *   thr2 makes progress through any of its sections but W.  If thr2 stays
 *   out of its entry (flag2 == 0 from some point), thr1's next test sees
 *   flag2 == 0.  Otherwise thr2 eventually writes turn = 1 (its entry does,
 *   before its W); from then on turn stays 1 until thr1 moves past W, since
 *   only thr1 writes turn = 2, and thr1's test fails for good, so thr1, which
 *   keeps moving, leaves W.  (This holds whether the two reads of the test
 *   are one step or two.)  Without fairness they FAIL: thr2 may run alone
 *   forever while thr1 waits at W, never scheduled.
 *
 * Safety: mutual exclusion: in its critical section thread i writes x = i
 *   and asserts x == i.  Expected safety verdict: SAFE.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "peterson.c", 37, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

int flag1 = 0; /* thread 1 wants to enter */
int flag2 = 0; /* thread 2 wants to enter */
int turn = 1;  /* the thread that has to wait if both want to enter */
int x = 0;     /* written in the critical sections */

void *thr1(void *arg) {
  while (1) {
  NC:
    ; /* noncritical section */
    flag1 = 1;
    turn = 2;
  W:
    while (flag2 == 1 && turn == 2) {
    }
  C:
    x = 1; /* critical section */
    assert(x == 1);
    flag1 = 0; /* exit protocol */
  }
  return 0;
}

void *thr2(void *arg) {
  while (1) {
  NC:
    ; /* noncritical section */
    flag2 = 1;
    turn = 1;
  W:
    while (flag1 == 1 && turn == 1) {
    }
  C:
    x = 2; /* critical section */
    assert(x == 2);
    flag2 = 0; /* exit protocol */
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, thr1, 0);
  pthread_create(&t2, 0, thr2, 0);
  pthread_exit(0);
}

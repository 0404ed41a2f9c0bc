/*
 * dekker.c -- Dekker's mutual exclusion algorithm for two threads that
 *   compete for the critical section forever (liveness benchmark).
 *
 * Algorithm: Th. J. Dekker's solution, as presented by E. W. Dijkstra,
 *   "Cooperating Sequential Processes", EWD 123, Technological University
 *   Eindhoven, 1965.  Each thread raises its flag; while the other flag is
 *   up: if it is not this thread's turn, it lowers its flag, busy-waits
 *   for its turn, and raises the flag again.  On exit it hands the turn
 *   over and lowers its flag.  Written for this benchmark from the
 *   algorithm (../dekker.c runs the same protocol once per thread).
 *
 * Locations (C labels, for at(thread, label)): NC the noncritical section
 *   (one step that always proceeds), W the entry loop "while the other
 *   flag is up", C the critical section.  Every wait is a spin loop, so a
 *   thread is never blocked and weak fairness makes each thread move
 *   infinitely often, as unconditional fairness does.
 *
 * Properties (../../liveness.json):
 *   G (at(thr1, W) -> F at(thr1, C)), and the same for thr2 (starvation
 *   freedom): HOLD under weak and under unconditional fairness.  Why, for
 *   thr1: suppose thr1 stays in its entry forever.  It then never writes
 *   turn.  (a) If thr2 enters C infinitely often, its exit sets turn = 1,
 *   which then stays 1; thr1 (with turn == 1) leaves any back-off and
 *   never backs off again, so eventually flag1 == 1 for good; from then
 *   on thr2 in its entry sees flag1 == 1 and turn != 2, backs off and
 *   waits for turn == 2 forever: it never enters again, a contradiction.
 *   (b) Otherwise thr2, which always makes progress outside its waits,
 *   ends up in its entry forever too, and turn is constant.  If turn == 1, thr2 backs off (flag2 = 0) and waits
 *   forever, so thr1, which keeps testing, sees flag2 == 0 and enters.  If
 *   turn == 2, thr1 backs off for good (flag1 = 0) and thr2 sees flag1 ==
 *   0 and enters, contradicting (b).  The argument needs only that both
 *   threads move infinitely often, which weak fairness gives here since
 *   nobody ever blocks.  Without fairness they FAIL: thr2 may run alone.
 *   G F (at(thr1, C) || at(thr2, C)) (no livelock): HOLDS under weak
 *   fairness, by the same argument.
 *
 * Safety: mutual exclusion: in its critical section thread i writes x = i
 *   and asserts x == i.  Expected safety verdict: SAFE.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "dekker.c", 43, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

int flag1 = 0; /* thread 1 wants to enter */
int flag2 = 0; /* thread 2 wants to enter */
int turn = 1;  /* whose turn it is to insist: 1 or 2 */
int x = 0;     /* written in the critical sections */

void *thr1(void *arg) {
  while (1) {
  NC:
    ; /* noncritical section */
    flag1 = 1;
  W:
    while (flag2 == 1) {
      if (turn != 1) {
        flag1 = 0;
        while (turn != 1) {
        }
        flag1 = 1;
      }
    }
  C:
    x = 1; /* critical section */
    assert(x == 1);
    turn = 2; /* exit protocol */
    flag1 = 0;
  }
  return 0;
}

void *thr2(void *arg) {
  while (1) {
  NC:
    ; /* noncritical section */
    flag2 = 1;
  W:
    while (flag1 == 1) {
      if (turn != 2) {
        flag2 = 0;
        while (turn != 2) {
        }
        flag2 = 1;
      }
    }
  C:
    x = 2; /* critical section */
    assert(x == 2);
    turn = 1; /* exit protocol */
    flag2 = 0;
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, thr1, 0);
  pthread_create(&t2, 0, thr2, 0);
  pthread_exit(0);
}

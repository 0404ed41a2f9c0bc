/*
 * naive-flags.c -- a naive two-flag protocol with back-off: mutual
 *   exclusion holds, but threads can livelock and starve (liveness
 *   benchmark).
 *
 * Algorithm: the "fourth attempt" in the classic sequence of failed
 *   attempts that leads to Dekker's algorithm (M. Ben-Ari, "Principles of
 *   Concurrent and Distributed Programming", 2nd ed., 2006, ch. 3).  A
 *   thread raises its flag; while the other flag is up it politely lowers
 *   its own flag and raises it again; then it enters.  There is no turn
 *   variable to break the symmetry.  Written for this benchmark from the
 *   algorithm.
 *
 * Locations (C labels, for at(thread, label)): NC the noncritical section
 *   (one step that always proceeds), W the entry loop "while the other
 *   flag is up", C the critical section.  No thread ever blocks (the waits
 *   are spin loops), so weak fairness makes each thread move infinitely
 *   often, as unconditional fairness does.
 *
 * Properties (../../liveness.json):
 *   G (at(thr1, W) -> F at(thr1, C)) (starvation freedom): FAILS under
 *   unconditional and weak fairness.  A fair run that livelocks, repeated
 *   forever in lock step: thr1 flag1 = 1, thr2 flag2 = 1, thr1 reads
 *   flag2 == 1, thr2 reads flag1 == 1, thr1 flag1 = 0, thr2 flag2 = 0,
 *   thr1 flag1 = 1, thr2 flag2 = 1, ...  Both threads move in every round
 *   and neither enters.  (thr1 can also starve alone: it reads flag2 == 1
 *   every time it tests, while thr2 enters again and again.)
 *   G F (at(thr1, C) || at(thr2, C)) (no livelock: someone keeps entering):
 *   FAILS under weak fairness, by the same lock-step run.
 *
 * Safety: mutual exclusion holds (a thread tests the other flag only
 *   with its own flag up): in its critical section thread i writes x = i
 *   and asserts x == i.  Expected safety verdict: SAFE.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "naive-flags.c", 37, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

int flag1 = 0; /* thread 1 wants to enter */
int flag2 = 0; /* thread 2 wants to enter */
int x = 0;     /* written in the critical sections */

void *thr1(void *arg) {
  while (1) {
  NC:
    ; /* noncritical section */
    flag1 = 1;
  W:
    while (flag2 == 1) {
      flag1 = 0; /* back off ... */
      flag1 = 1; /* ... and try again */
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
  W:
    while (flag1 == 1) {
      flag2 = 0; /* back off ... */
      flag2 = 1; /* ... and try again */
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

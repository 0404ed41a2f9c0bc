/*
 * dekker.c -- Dekker's mutual exclusion algorithm for two threads.
 *
 * Algorithm: Th. J. Dekker's solution, as presented by E. W. Dijkstra,
 *   "Cooperating Sequential Processes", EWD 123, Technological University
 *   Eindhoven, 1965.  Each thread raises its flag; if the other flag is up
 *   and it is not this thread's turn, it lowers its flag, waits for its
 *   turn, and raises the flag again.  On exit it hands the turn over and
 *   lowers its flag.  Written for this benchmark from the algorithm.
 *
 * Property: mutual exclusion.  In its critical section thread i writes
 *   the shared global x = i and then asserts x == i; the assertion can only
 *   fail if the other thread is in its critical section at the same time.
 *   Each thread enters its critical section once.
 *
 * Expected verdict: SAFE
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "dekker.c", 20, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

int flag1 = 0; /* thread 1 wants to enter */
int flag2 = 0; /* thread 2 wants to enter */
int turn = 1;  /* whose turn it is to insist: 1 or 2 */
int x = 0;     /* written in the critical sections */

void *thr1(void *arg) {
  flag1 = 1;
  while (flag2 == 1) {
    if (turn != 1) {
      flag1 = 0;
      while (turn != 1) {
      }
      flag1 = 1;
    }
  }
  /* critical section */
  x = 1;
  assert(x == 1);
  /* exit protocol */
  turn = 2;
  flag1 = 0;
  return 0;
}

void *thr2(void *arg) {
  flag2 = 1;
  while (flag1 == 1) {
    if (turn != 2) {
      flag2 = 0;
      while (turn != 2) {
      }
      flag2 = 1;
    }
  }
  /* critical section */
  x = 2;
  assert(x == 2);
  /* exit protocol */
  turn = 1;
  flag2 = 0;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, thr1, 0);
  pthread_create(&t2, 0, thr2, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}

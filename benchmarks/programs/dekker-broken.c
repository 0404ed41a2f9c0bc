/*
 * dekker-broken.c -- a mutant of Dekker's mutual exclusion algorithm.
 *
 * Algorithm: Th. J. Dekker's solution, as presented by E. W. Dijkstra,
 *   "Cooperating Sequential Processes", EWD 123, Technological University
 *   Eindhoven, 1965 (see dekker.c for the correct version).
 *
 * Mutation: thread 1 no longer raises its flag (`flag1 = 1;`) before its
 *   entry loop; it only raises it again after backing off.  Thread 2 is
 *   unchanged.  Thread 1 therefore never announces that it is entering.
 *
 * Property: mutual exclusion.  In its critical section thread i writes
 *   the shared global x = i and then asserts x == i.
 *
 * Breaking interleaving:
 *   thr1: reads flag2 == 0, leaves its entry loop, x = 1
 *   thr2: flag2 = 1, reads flag1 == 0, leaves its entry loop, x = 2
 *   thr1: assert(x == 1) fails because x == 2.
 *
 * Expected verdict: UNSAFE
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "dekker-broken.c", 24, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

int flag1 = 0; /* thread 1 wants to enter */
int flag2 = 0; /* thread 2 wants to enter */
int turn = 1;  /* whose turn it is to insist: 1 or 2 */
int x = 0;     /* written in the critical sections */

void *thr1(void *arg) {
  /* MUTATION: `flag1 = 1;` removed here */
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

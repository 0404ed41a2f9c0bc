/*
 * peterson.c -- Peterson's mutual exclusion algorithm for two threads.
 *
 * Algorithm: G. L. Peterson, "Myths about the mutual exclusion problem",
 *   Information Processing Letters 12(3):115-116, 1981.  A thread raises
 *   its flag, then gives the turn to the other thread, and waits while the
 *   other thread's flag is up and it is the other thread's turn.  On exit
 *   it lowers its flag.  Written for this benchmark from the algorithm.
 *
 * Property: mutual exclusion.  In its critical section thread i writes
 *   the shared global x = i and then asserts x == i; the assertion can only
 *   fail if the other thread is in its critical section at the same time.
 *   Each thread enters its critical section once.  The result holds whether
 *   the two reads in the wait condition happen in one step or in two.
 *
 * Expected verdict: SAFE
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "peterson.c", 20, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

int flag1 = 0; /* thread 1 wants to enter */
int flag2 = 0; /* thread 2 wants to enter */
int turn = 0;  /* the thread that has to wait if both want to enter */
int x = 0;     /* written in the critical sections */

void *thr1(void *arg) {
  flag1 = 1;
  turn = 2;
  while (flag2 == 1 && turn == 2) {
  }
  /* critical section */
  x = 1;
  assert(x == 1);
  /* exit protocol */
  flag1 = 0;
  return 0;
}

void *thr2(void *arg) {
  flag2 = 1;
  turn = 1;
  while (flag1 == 1 && turn == 1) {
  }
  /* critical section */
  x = 2;
  assert(x == 2);
  /* exit protocol */
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

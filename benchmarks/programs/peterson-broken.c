/*
 * peterson-broken.c -- a mutant of Peterson's mutual exclusion algorithm.
 *
 * Algorithm: G. L. Peterson, "Myths about the mutual exclusion problem",
 *   Information Processing Letters 12(3):115-116, 1981 (see peterson.c for
 *   the correct version).
 *
 * Mutation: both threads give the turn away *before* raising their flag
 *   (the two writes `flag_i = 1; turn = j;` of the entry protocol are
 *   swapped).  A thread can then overwrite `turn` after the other thread
 *   has already read its lowered flag and entered.
 *
 * Property: mutual exclusion.  In its critical section thread i writes
 *   the shared global x = i and then asserts x == i.
 *
 * Breaking interleaving:
 *   thr1: turn = 2
 *   thr2: turn = 1, flag2 = 1, reads flag1 == 0, enters, x = 2
 *   thr1: flag1 = 1, reads turn == 1 (so the wait condition is false),
 *         enters, x = 1
 *   thr2: assert(x == 2) fails because x == 1.
 *
 * Expected verdict: UNSAFE
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "peterson-broken.c", 27, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

int flag1 = 0; /* thread 1 wants to enter */
int flag2 = 0; /* thread 2 wants to enter */
int turn = 0;  /* the thread that has to wait if both want to enter */
int x = 0;     /* written in the critical sections */

void *thr1(void *arg) {
  turn = 2;  /* MUTATION: was after `flag1 = 1;` */
  flag1 = 1;
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
  turn = 1;  /* MUTATION: was after `flag2 = 1;` */
  flag2 = 1;
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

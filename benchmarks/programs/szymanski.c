/*
 * szymanski.c -- Szymanski's mutual exclusion algorithm for two threads.
 *
 * Algorithm: B. K. Szymanski, "A simple solution to Lamport's concurrent
 *   programming problem with linear wait", Proc. ICS 1988.  Each thread
 *   has a flag with values 0..4: 1 = wants to enter, 2 = waiting for the
 *   others to pass the doorway, 3 = in the doorway, 4 = closed the door
 *   behind it.  Thread i:
 *     flag[i] = 1;  wait until every other flag < 3;        (doorway open)
 *     flag[i] = 3;  if some other flag == 1 {                (someone else wants in)
 *                     flag[i] = 2;  wait until some other flag == 4; }
 *     flag[i] = 4;  wait until every flag of a lower index < 2;
 *     critical section;
 *     wait until every flag of a higher index < 2 or > 3;
 *     flag[i] = 0;
 *   Written for this benchmark from the algorithm, for two threads
 *   (thread 1 has the lower index; "every other flag" is the one flag of
 *   the other thread).
 *
 * Property: mutual exclusion.  In its critical section thread i writes
 *   the shared global x = i and then asserts x == i.  Each thread enters
 *   its critical section once.
 *
 * Expected verdict: SAFE
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "szymanski.c", 28, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

int flag1 = 0; /* thread 1's state, 0..4 */
int flag2 = 0; /* thread 2's state, 0..4 */
int x = 0;     /* written in the critical sections */

void *thr1(void *arg) {
  flag1 = 1;
  while (flag2 >= 3) {
  }
  flag1 = 3;
  if (flag2 == 1) {
    flag1 = 2;
    while (flag2 != 4) {
    }
  }
  flag1 = 4;
  /* no thread has a lower index */
  /* critical section */
  x = 1;
  assert(x == 1);
  /* exit protocol: wait for thread 2 to leave the doorway */
  while (2 <= flag2 && flag2 <= 3) {
  }
  flag1 = 0;
  return 0;
}

void *thr2(void *arg) {
  flag2 = 1;
  while (flag1 >= 3) {
  }
  flag2 = 3;
  if (flag1 == 1) {
    flag2 = 2;
    while (flag1 != 4) {
    }
  }
  flag2 = 4;
  while (flag1 >= 2) {
  }
  /* critical section */
  x = 2;
  assert(x == 2);
  /* exit protocol: no thread has a higher index */
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

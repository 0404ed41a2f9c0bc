/*
 * bakery.c -- Lamport's Bakery algorithm for two threads, with choosing
 *   flags, non-atomic reads and unbounded tickets.
 *
 * Algorithm: L. Lamport, "A new solution of Dijkstra's concurrent
 *   programming problem", CACM 17(8):453-455, 1974.  Thread i sets
 *   choosing[i], reads the other ticket and takes one more than the
 *   maximum of the tickets, clears choosing[i]; then, for the other thread
 *   j, waits while choosing[j] is set and then while number[j] != 0 and
 *   (number[j], j) < (number[i], i) in lexicographic order.  After its
 *   critical section it sets number[i] = 0.  Every read and write of a
 *   shared variable is its own step.  Written for this benchmark from the
 *   algorithm.
 *
 * Threads: two threads (i = 1, 2), each running the protocol twice; the
 *   tickets can grow without bound in longer runs.
 *
 * Property: mutual exclusion.  In its critical section thread i writes
 *   the shared global x = i and then asserts x == i.
 *
 * Expected verdict: SAFE
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "bakery.c", 25, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

int choosing1 = 0, choosing2 = 0; /* thread i is choosing its ticket */
int number1 = 0, number2 = 0;     /* tickets; 0 = not competing */
int x = 0;                        /* written in the critical sections */

void *thr1(void *arg) {
  int round = 0, other = 0, mine = 0;
  while (round < 2) {
    choosing1 = 1;
    mine = number1;
    other = number2;
    if (other > mine) {
      mine = other;
    }
    number1 = mine + 1;
    choosing1 = 0;
    while (choosing2 != 0) {
    }
    other = number2;
    /* wait while (number2, 2) < (number1, 1): ties go to thread 1 */
    while (other != 0 && other < mine + 1) {
      other = number2;
    }
    /* critical section */
    x = 1;
    assert(x == 1);
    number1 = 0;
    round = round + 1;
  }
  return 0;
}

void *thr2(void *arg) {
  int round = 0, other = 0, mine = 0;
  while (round < 2) {
    choosing2 = 1;
    mine = number2;
    other = number1;
    if (other > mine) {
      mine = other;
    }
    number2 = mine + 1;
    choosing2 = 0;
    while (choosing1 != 0) {
    }
    other = number1;
    /* wait while (number1, 1) < (number2, 2) */
    while (other != 0 && other <= mine + 1) {
      other = number1;
    }
    /* critical section */
    x = 2;
    assert(x == 2);
    number2 = 0;
    round = round + 1;
  }
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

/*
 * naive-bakery.c -- the two-process Bakery algorithm with atomic ticket
 *   assignments, as presented by Manna and Pnueli.
 *
 * Algorithm: Z. Manna, A. Pnueli, "Temporal Verification of Reactive
 *   Systems: Safety", Springer 1995, the Bakery algorithm for two
 *   processes.  Each process takes a ticket one larger
 *   than the other's in one atomic step (read the other ticket and write
 *   its own), waits until the other ticket is 0 or larger than its own
 *   (ties go to process 1), enters its critical section, and resets its
 *   ticket to 0.  Tickets are unbounded integers.  Written for this
 *   benchmark from the algorithm.
 *
 * Threads: two processes, each running the protocol twice.
 *
 * Property: mutual exclusion.  In its critical section process i writes
 *   the shared global x = i and then asserts x == i.
 *
 * Expected verdict: SAFE
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "naive-bakery.c", 23, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

int ticket1 = 0; /* process 1's ticket (y1), 0 = not competing */
int ticket2 = 0; /* process 2's ticket (y2) */
int x = 0;       /* written in the critical sections */

void __VERIFIER_atomic_take_ticket1(void) {
  ticket1 = ticket2 + 1;
}

void __VERIFIER_atomic_take_ticket2(void) {
  ticket2 = ticket1 + 1;
}

void *thr1(void *arg) {
  int round = 0;
  while (round < 2) {
    __VERIFIER_atomic_take_ticket1();
    while (!(ticket2 == 0 || ticket1 <= ticket2)) {
    }
    /* critical section */
    x = 1;
    assert(x == 1);
    ticket1 = 0;
    round = round + 1;
  }
  return 0;
}

void *thr2(void *arg) {
  int round = 0;
  while (round < 2) {
    __VERIFIER_atomic_take_ticket2();
    while (!(ticket1 == 0 || ticket2 < ticket1)) {
    }
    /* critical section */
    x = 2;
    assert(x == 2);
    ticket2 = 0;
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

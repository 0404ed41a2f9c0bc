/*
 * bakery-bounded.c -- Lamport's Bakery algorithm for two threads that
 *   compete for the critical section forever, with tickets bounded by
 *   B = 3 so that the program is finite-state (liveness benchmark).
 *
 * Algorithm: L. Lamport, "A new solution of Dijkstra's concurrent
 *   programming problem", CACM 17(8):453-455, 1974, for two threads, with
 *   choosing flags and every read and write of a shared variable its own
 *   step (as ../bakery.c, which runs it twice per thread).  Thread i sets
 *   choosing_i, reads the other ticket and takes one more (its own ticket
 *   is 0 then, so that is one more than the maximum), clears choosing_i;
 *   waits while the other thread is choosing, then while the other ticket
 *   is nonzero and smaller (ties go to thread 1); after its critical
 *   section it sets its ticket to 0.  Written for this benchmark.
 *
 * The bound: with threads that compete forever, Lamport's tickets grow
 *   without bound (each thread can take the other's ticket plus one while
 *   the other is inside), so the state space is infinite.  Here a thread
 *   first waits (at T, blocking: an assume) until the other ticket is
 *   below B, and if the ticket it then reads in its doorway is B after
 *   all (the other thread computed it from an older ticket), it clears
 *   choosing_i and goes back to T.  Every ticket is a value read below B
 *   plus one, so tickets stay in 0..B.  The wait at T alone does not
 *   bound them (the ticket read in the doorway can be newer than the one
 *   tested at T; without the back-off rely explore stops at its state
 *   limit), and waiting in the doorway instead, with choosing_i raised,
 *   could deadlock with the other thread waiting for choosing_i == 0.  The
 *   bound only delays a thread; mutual exclusion is Lamport's.
 *
 * Locations (C labels, for at(thread, label)): NC the noncritical section
 *   (one step that always proceeds), T the bound's wait at the start of
 *   the doorway, W the wait for the smaller ticket, C the critical
 *   section.  The waits after the doorway are spin loops; T is the only
 *   place where a thread can be blocked (it then takes self-loops).
 *
 * Properties (../../liveness.json):
 *   G (at(thr1, T) -> F at(thr1, C)), and the same for thr2 (starvation
 *   freedom): HOLD under weak and under unconditional fairness.  Why, for
 *   thr1 at T (its ticket 0, choosing1 0):
 *   (1) T is blocked only while number2 == B.  Then thr2 is past its
 *   doorway; it sees choosing1 == 0 and number1 == 0, enters, leaves and
 *   sets number2 = 0.  Every later doorway of thr2 reads number1 after that
 *   and while thr1 holds no ticket, so thr2's tickets are 1 < B until thr1
 *   takes one: T stays enabled, and weak fairness makes thr1 pass it.
 *   (2) In the doorway thr1 backs off only if it reads B, a ticket that
 *   thr2 computed before (1); that happens at most once per stale ticket
 *   and then (1) applies.  (3) After the doorway it is Lamport's argument:
 *   thr2 raises choosing2 at most once more before it has to wait for
 *   thr1 (a ticket it takes now is larger than thr1's, or thr2 backs off
 *   to T and blocks there with choosing2 == 0), so thr1 sees choosing2 ==
 *   0; at W, thr2 holds a smaller ticket at most until it leaves C once,
 *   after which number2 is 0 or larger than number1 until thr1 moves, and
 *   thr1 keeps testing and enters.  Both threads take infinitely many steps
 *   in the spin loops, so weak fairness suffices everywhere but at T, where
 *   (1) shows T is enabled for good.  Without fairness they FAIL: thr1 may
 *   never be scheduled again.
 *   G F (at(thr1, C) || at(thr2, C)): HOLDS under weak fairness (follows).
 *
 * Safety: mutual exclusion: in its critical section thread i writes x = i
 *   and asserts x == i.  Expected safety verdict: SAFE.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "bakery-bounded.c", 64, "reach_error"); }
extern void __VERIFIER_assume(int cond);
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

#define B 3 /* the largest ticket */

int choosing1 = 0, choosing2 = 0; /* thread i is choosing its ticket */
int number1 = 0, number2 = 0;     /* tickets, 0..B; 0 = not competing */
int x = 0;                        /* written in the critical sections */

void *thr1(void *arg) {
  int other = 0, mine = 0;
  while (1) {
  NC:
    ; /* noncritical section */
  T:
    __VERIFIER_assume(number2 < B); /* the bound: wait for a ticket below B */
    choosing1 = 1;
    other = number2;
    if (other >= B) { /* stale: back off and wait again */
      choosing1 = 0;
      goto T;
    }
    mine = other + 1;
    number1 = mine;
    choosing1 = 0;
    while (choosing2 != 0) {
    }
  W:
    /* wait while (number2, 2) < (number1, 1): ties go to thread 1 */
    other = number2;
    while (other != 0 && other < mine) {
      other = number2;
    }
  C:
    x = 1; /* critical section */
    assert(x == 1);
    number1 = 0; /* exit */
  }
  return 0;
}

void *thr2(void *arg) {
  int other = 0, mine = 0;
  while (1) {
  NC:
    ; /* noncritical section */
  T:
    __VERIFIER_assume(number1 < B); /* the bound: wait for a ticket below B */
    choosing2 = 1;
    other = number1;
    if (other >= B) { /* stale: back off and wait again */
      choosing2 = 0;
      goto T;
    }
    mine = other + 1;
    number2 = mine;
    choosing2 = 0;
    while (choosing1 != 0) {
    }
  W:
    /* wait while (number1, 1) < (number2, 2) */
    other = number1;
    while (other != 0 && other <= mine) {
      other = number1;
    }
  C:
    x = 2; /* critical section */
    assert(x == 2);
    number2 = 0; /* exit */
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, thr1, 0);
  pthread_create(&t2, 0, thr2, 0);
  pthread_exit(0);
}

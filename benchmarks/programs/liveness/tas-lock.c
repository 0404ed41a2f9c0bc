/*
 * tas-lock.c -- a test-and-set spin lock for two threads that compete
 *   for the critical section forever: no deadlock, but a thread can be
 *   overtaken forever (liveness benchmark).
 *
 * Algorithm: the test-and-set lock (e.g. M. Herlihy, N. Shavit, "The Art
 *   of Multiprocessor Programming", 2008, ch. 7; T. E. Anderson, "The
 *   performance of spin lock alternatives for shared-memory
 *   multiprocessors", IEEE TPDS 1(1), 1990).  A thread atomically reads
 *   the lock and sets it to 1 until the value it read is 0, runs its
 *   critical section and releases the lock (lock = 0).  Written for this
 *   benchmark from the algorithm.
 *
 * Threads: two instances of P (P#1, P#2 in properties), identical.
 *
 * Locations (C labels, for at(thread, label)): NC the noncritical section
 *   (one step that always proceeds), W the spin loop of test-and-sets, C
 *   the critical section.  No thread ever blocks (a test-and-set always
 *   succeeds as a step, whatever it reads), so weak fairness makes each
 *   thread move infinitely often, as unconditional fairness does.
 *
 * Properties (../../liveness.json):
 *   G (at(P#1, W) -> F at(P#1, C)) (starvation freedom): FAILS under
 *   unconditional and weak fairness.  A fair run: P#2 holds the lock; P#1
 *   tests and reads 1; P#2 releases, runs its noncritical step and takes
 *   the lock again before P#1's next test; repeat.  P#1 moves in every
 *   round (its test-and-set reads 1 each time) and never enters.
 *   G F (at(P#1, C) || at(P#2, C)) (no deadlock or livelock: someone keeps
 *   entering): HOLDS under weak fairness.  If no thread ever reaches C
 *   again, a thread holding the lock leaves its critical section (fair
 *   and never blocked) and releases it, then lock stays 0 (only a
 *   test-and-set that reads 0 sets it again, and that thread goes on to
 *   C); a thread that moves reaches W, reads 0 and enters: a
 *   contradiction.  Without fairness it FAILS: P#1 may spin forever while
 *   P#2, which holds the lock, is never scheduled.
 *
 * Safety: mutual exclusion: in its critical section a thread increments
 *   cs and asserts cs == 1.  Expected safety verdict: SAFE.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "tas-lock.c", 42, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

int lock = 0; /* 1 when taken */
int cs = 0;   /* threads in the critical section */

int __VERIFIER_atomic_test_and_set(void) {
  int old = lock;
  lock = 1;
  return old;
}

void *P(void *arg) {
  while (1) {
  NC:
    ; /* noncritical section */
  W:
    while (__VERIFIER_atomic_test_and_set() == 1) {
    }
  C:
    cs = cs + 1; /* critical section */
    assert(cs == 1);
    cs = cs - 1;
    lock = 0; /* release */
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, P, 0);
  pthread_create(&t2, 0, P, 0);
  pthread_exit(0);
}

/*
 * ticket-lock.c -- a ticket lock for three threads that compete for the
 *   critical section forever, with tickets modulo 3 (liveness benchmark).
 *
 * Algorithm: the ticket lock (J. M. Mellor-Crummey, M. L. Scott,
 *   "Algorithms for scalable synchronization on shared-memory
 *   multiprocessors", ACM TOCS 9(1), 1991).  A thread takes a ticket by an
 *   atomic fetch-and-increment of next, spins until serving equals its
 *   ticket, runs its critical section, and releases the lock by
 *   incrementing serving (only the holder writes it).  Written for this
 *   benchmark from the algorithm (../hard/ticket-lock.c runs it twice per
 *   thread with unbounded tickets).
 *
 * Finite state: tickets are counted modulo K = 3, the number of threads.
 *   The tickets in use are serving, serving + 1, ..., next - 1; there are
 *   at most 3 of them (one per thread), so they stay distinct modulo 3 and
 *   the lock behaves as with unbounded tickets.
 *
 * Threads: three instances of P (P#1, P#2, P#3 in properties), identical,
 *   so a checker may use their symmetry.
 *
 * Locations (C labels, for at(thread, label)): NC the noncritical section
 *   (one step that always proceeds), T taking a ticket, W the spin loop,
 *   C the critical section.  No thread ever blocks (the ticket is taken
 *   unconditionally, the wait is a spin loop), so weak fairness makes
 *   each thread move infinitely often, as unconditional fairness does.
 *
 * Properties (../../liveness.json):
 *   G (at(P#1, W) -> F at(P#1, C)) (starvation freedom; also written
 *   at(P, ...) for every instance): HOLDS under weak and under
 *   unconditional fairness.  The lock is first come, first served: when
 *   P#1 holds ticket t, the tickets serving .. t - 1 ahead of it are held
 *   by threads that wait or are in C (at most 2 of them).  The holder of
 *   ticket serving sees serving == its ticket for good until it moves on,
 *   so by fairness it enters, leaves and increments serving; after at most
 *   two such rounds serving == t, which stays so until P#1 leaves C, and
 *   P#1, which keeps testing, enters.  Without fairness it FAILS: P#1 may
 *   never be scheduled again.
 *   G F (at(P#1, C) || at(P#2, C) || at(P#3, C)): HOLDS under weak
 *   fairness (follows from the above).
 *
 * Safety: mutual exclusion: in its critical section a thread increments
 *   cs and asserts cs == 1.  Expected safety verdict: SAFE.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "ticket-lock.c", 47, "reach_error"); }
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

#define K 3 /* tickets are counted modulo K, the number of threads */

int next = 0;    /* the next ticket to hand out */
int serving = 0; /* the ticket allowed into the critical section */
int cs = 0;      /* threads in the critical section */

void *P(void *arg) {
  int my = 0; /* this thread's ticket */
  while (1) {
  NC:
    ; /* noncritical section */
  T:
    __VERIFIER_atomic_begin(); /* fetch-and-increment */
    my = next;
    next = (next + 1) % K;
    __VERIFIER_atomic_end();
  W:
    while (serving != my) {
    }
  C:
    cs = cs + 1; /* critical section */
    assert(cs == 1);
    cs = cs - 1;
    serving = (serving + 1) % K; /* release: only the holder writes it */
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2, t3;
  pthread_create(&t1, 0, P, 0);
  pthread_create(&t2, 0, P, 0);
  pthread_create(&t3, 0, P, 0);
  pthread_exit(0);
}

/*
 * ticket-lock.c -- a ticket lock: mutual exclusion for three threads.
 *
 * Algorithm: the ticket lock (J. M. Mellor-Crummey, M. L. Scott,
 *   "Algorithms for scalable synchronization on shared-memory
 *   multiprocessors", ACM TOCS 9(1), 1991).  A thread takes a ticket by an
 *   atomic fetch-and-increment of next_ticket, spins until now_serving
 *   equals its ticket, runs its critical section, and releases the lock by
 *   incrementing now_serving (only the holder writes it).  Written for
 *   this benchmark.
 *
 * Threads: three threads running the same code with ids 1, 2, 3 (the
 *   thread argument), each entering the critical section ROUNDS = 2 times.
 *
 * Property: mutual exclusion: in the critical section x = id;
 *   assert(x == id).
 *
 * Expected verdict: SAFE.  No nondeterministic inputs.
 *
 * rely explore: no error in any run, 4,588 / 164,612 states (large blocks
 *   / small steps), 0.2 / 4 s.  With -D ROUNDS=1 / 3: 618 / 18,816 states
 *   (large blocks).
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "ticket-lock.c", 26, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

#ifndef ROUNDS
#define ROUNDS 2
#endif

int next_ticket = 0; /* the next ticket to hand out */
int now_serving = 0; /* the ticket allowed into the critical section */
int x = 0;           /* written in the critical section */

int __VERIFIER_atomic_fetch_and_increment(void) {
  int t = next_ticket;
  next_ticket = t + 1;
  return t;
}

void *thr(void *arg) {
  int id = (long)arg;
  int k = 0;
  for (k = 0; k < ROUNDS; k++) {
    int my = __VERIFIER_atomic_fetch_and_increment();
    while (now_serving != my) {   /* spin */
    }
    x = id;                       /* critical section */
    assert(x == id);
    now_serving = now_serving + 1; /* release: only the holder writes */
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2, t3;
  pthread_create(&t1, 0, thr, (void *)1);
  pthread_create(&t2, 0, thr, (void *)2);
  pthread_create(&t3, 0, thr, (void *)3);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  pthread_join(t3, 0);
  return 0;
}

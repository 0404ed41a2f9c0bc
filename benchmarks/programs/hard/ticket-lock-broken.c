/*
 * ticket-lock-broken.c -- a ticket lock whose fetch-and-increment is not
 *   atomic.
 *
 * Algorithm: the ticket lock (J. M. Mellor-Crummey, M. L. Scott, ACM TOCS
 *   9(1), 1991), as in ticket-lock.c: take a ticket from next_ticket, spin
 *   until now_serving equals it, critical section, increment now_serving.
 *   Written for this benchmark.
 *
 * Bug (relative to ticket-lock.c): the ticket is taken in two steps,
 *   t = next_ticket; next_ticket = t + 1, so two threads can draw the same
 *   ticket and enter the critical section together.
 *
 * Threads: three threads running the same code with ids 1, 2, 3 (the
 *   thread argument), each entering the critical section ROUNDS = 2 times.
 *
 * Property: mutual exclusion: in the critical section x = id;
 *   assert(x == id).
 *
 * Expected verdict: UNSAFE.  An interleaving that breaks it:
 *     1. thread 1  t = next_ticket       (ticket 0)
 *     2. thread 2  t = next_ticket       (ticket 0 too)
 *     3. thread 1  next_ticket = 1; now_serving == 0: enters; x = 1
 *     4. thread 2  next_ticket = 1; now_serving == 0: enters; x = 2
 *     5. thread 1  assert(x == 1) fails: x = 2
 *   No nondeterministic inputs.
 *
 * rely explore: error reachable, 590 / 16,185 states (large blocks / small
 *   steps), 0.1 / 0.6 s.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "ticket-lock-broken.c", 33, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

#ifndef ROUNDS
#define ROUNDS 2
#endif

int next_ticket = 0; /* the next ticket to hand out */
int now_serving = 0; /* the ticket allowed into the critical section */
int x = 0;           /* written in the critical section */

int fetch_and_increment(void) {
  int t = next_ticket;          /* BUG: not atomic, a read ... */
  next_ticket = t + 1;          /* ... and a later write */
  return t;
}

void *thr(void *arg) {
  int id = (long)arg;
  int k = 0;
  for (k = 0; k < ROUNDS; k++) {
    int my = fetch_and_increment();
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

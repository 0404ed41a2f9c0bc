/*
 * ext-ticket-lock-bug.c -- a ticket lock for unboundedly many threads that
 *   releases the lock before its critical section ends.
 *
 * Algorithm: the ticket lock (J. M. Mellor-Crummey, M. L. Scott, ACM TOCS
 *   9(1), 1991), as in ext-ticket-lock.c.  Written for this benchmark.
 *
 * Shape: SV-COMP pthread-ext (`while (1) pthread_create(...)`), unsigned
 *   counters, the fetch-and-increment an __VERIFIER_atomic_ function.
 *
 * Threads: main, which creates worker threads forever; every worker takes
 *   the lock once.  Its ticket is its identity in the critical section.
 *
 * Changed from ext-ticket-lock.c: the release (now_serving = my + 1) is
 *   written between the two statements of the critical section.
 *
 * Property: mutual exclusion: in the critical section x = my;
 *   assert(x == my), my the worker's ticket.
 *
 * Expected verdict: UNSAFE, with 2 workers.  An interleaving:
 *     1. worker 1  takes ticket 0; now_serving == 0: enters; x = 0
 *     2. worker 1  now_serving = 1 (released too early)
 *     3. worker 2  takes ticket 1; now_serving == 1: enters; x = 1
 *     4. worker 1  assert(x == 0) fails
 *   One worker alone is safe.
 *
 * Checked: rely rejects the unbounded loop today (unsupported:
 *   unbounded thread creation).  rely explore on copies with the loop
 *   bounded to 1, 2, 3 workers (`for (k = 0; k < K; k++)`): no error /
 *   error reachable / error reachable, 12 / 56 / 205 states (large
 *   blocks; an UNSAFE search stops at the first error).
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "ext-ticket-lock-bug.c", 35, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

unsigned int next_ticket = 0; /* the next ticket to hand out */
unsigned int now_serving = 0; /* the ticket allowed into the critical section */
unsigned int x = 0;           /* written in the critical section */

/* take a ticket: 1 and *t = the ticket, or 0 when none are left */
int __VERIFIER_atomic_take_ticket(unsigned int *t) {
  if (next_ticket == 0u - 1) {
    return 0;
  }
  *t = next_ticket;
  next_ticket = next_ticket + 1;
  return 1;
}

void *worker(void *arg) {
  unsigned int my;
  if (!__VERIFIER_atomic_take_ticket(&my)) {
    return 0;                       /* no tickets left */
  }
  while (now_serving != my) {       /* spin */
  }
  x = my;                           /* critical section ... */
  now_serving = my + 1;             /* BUG: released inside it */
  assert(x == my);                  /* ... still in the critical section */
  return 0;
}

int main(void) {
  pthread_t t;
  while (1) {
    pthread_create(&t, 0, worker, 0);
  }
  return 0;
}

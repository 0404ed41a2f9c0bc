/*
 * ext-ticket-lock.c -- a ticket lock for unboundedly many threads.
 *
 * Algorithm: the ticket lock (J. M. Mellor-Crummey, M. L. Scott,
 *   "Algorithms for scalable synchronization on shared-memory
 *   multiprocessors", ACM TOCS 9(1), 1991).  A thread takes a ticket by an
 *   atomic fetch-and-increment of next_ticket, spins until now_serving
 *   equals its ticket, runs its critical section, and releases the lock by
 *   incrementing now_serving (only the holder writes it).  Written for
 *   this benchmark.
 *
 * Shape: SV-COMP pthread-ext (`while (1) pthread_create(...)`), unsigned
 *   counters, the fetch-and-increment an __VERIFIER_atomic_ function.
 *
 * Threads: main, which creates worker threads forever; every worker takes
 *   the lock once.  Its ticket is its identity in the critical section.
 *
 * Property: mutual exclusion: in the critical section x = my;
 *   assert(x == my), my the worker's ticket.
 *
 * Tickets are unsigned and would wrap after 2^32 of them; two workers
 *   with the same ticket would then both enter.  The fetch-and-increment
 *   therefore hands out no ticket once next_ticket == UINT_MAX (the
 *   worker gives up): without that test the program is UNSAFE with
 *   2^32 + 1 workers (workers 0 and 2^32 both hold ticket 0).
 *
 * Expected verdict: SAFE for any number of workers.  Why: the tickets
 *   handed out are distinct (next_ticket only grows, no wrap); a worker is
 *   in its critical section only while now_serving == my; now_serving
 *   changes only by the holder's release; so at most one worker is
 *   between its spin loop and its release, and only that worker writes x.
 *   The proof needs the distinctness of two workers' tickets (a relation
 *   between two threads' locals, or my < next_ticket together with a
 *   per-ticket argument), not a count of the threads.
 *
 * Checked: rely rejects the unbounded loop today (unsupported:
 *   unbounded thread creation).  rely explore on copies with the loop
 *   bounded to 1, 2, 3 workers (`for (k = 0; k < K; k++)`): no error in
 *   any run, 12 / 58 / 296 states (large blocks).
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "ext-ticket-lock.c", 43, "reach_error"); }
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
  x = my;                           /* critical section */
  assert(x == my);
  now_serving = now_serving + 1;    /* release */
  return 0;
}

int main(void) {
  pthread_t t;
  while (1) {
    pthread_create(&t, 0, worker, 0);
  }
  return 0;
}

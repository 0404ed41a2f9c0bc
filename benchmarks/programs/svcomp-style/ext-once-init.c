/*
 * ext-once-init.c -- one-time initialisation under a mutex, done by
 *   whichever of n workers comes first (n nondeterministic in 1..1000).
 *
 * Shape: SV-COMP pthread-ext (threads created in
 *   `for (i = 0; i < n; i++)` with n = __VERIFIER_nondet_int() and an
 *   assumption on its range); the pattern of pthread_once written with a
 *   mutex and a flag.  Written for this benchmark.
 *
 * Threads: main creates n workers.  A worker locks m; if initialized is
 *   0 it writes data = 42 and then initialized = 1; it counts itself in
 *   users; it unlocks m and uses data: assert(data == 42).
 *
 * Property: a worker that has passed the initialisation sees the
 *   initialised data: assert(data == 42) after the critical section.
 *
 * Expected verdict: SAFE for every n.  Why: initialized is set only under
 *   m and after data = 42, and neither is ever reset, so
 *   initialized == 1 implies data == 42 in every state, and a worker
 *   leaves its critical section with initialized == 1 (it saw it or set
 *   it).  The proof is thread-modular (globals data, initialized; the
 *   worker's pc) and needs no count of the threads; users is a counter
 *   incremented under the lock that the property does not depend on.
 *
 * Checked: rely rejects the loop with a nondeterministic bound today
 *   (unsupported: unbounded thread creation).  rely explore on copies
 *   with n = 1, 2, 3 (n = K and the loop bound K): no error in any run,
 *   10 / 58 / 290 states (large blocks).
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "ext-once-init.c", 32, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

int initialized = 0; /* data has been initialised */
int data = 0;        /* the shared resource */
int users = 0;       /* workers that passed the initialisation */
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  if (initialized == 0) {
    data = 42;
    initialized = 1;
  }
  users = users + 1;
  pthread_mutex_unlock(&m);
  assert(data == 42);
  return 0;
}

int main(void) {
  pthread_t t;
  int i;
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(1 <= n && n <= 1000);
  for (i = 0; i < n; i++) {
    pthread_create(&t, 0, worker, 0);
  }
  return 0;
}

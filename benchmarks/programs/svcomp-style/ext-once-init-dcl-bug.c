/*
 * ext-once-init-dcl-bug.c -- one-time initialisation by double-checked
 *   locking, with the flag published before the data, done by whichever
 *   of n workers comes first (n nondeterministic, no assumption).
 *
 * Shape: SV-COMP pthread-ext (threads created in
 *   `for (i = 0; i < n; i++)` with n = __VERIFIER_nondet_int()); the
 *   double-checked locking pattern (D. Schmidt, T. Harrison, "Double-
 *   checked locking", PLoP 1996).  Written for this benchmark.
 *
 * Threads: main creates n workers (none if n <= 0).  A worker tests
 *   initialized without the lock; if it is 0 it locks m, tests it again,
 *   and if still 0 sets initialized = 1 and then data = 42, and unlocks.
 *   Then it uses data: assert(data == 42).
 *
 * Changed from ext-once-init.c: the first test of initialized is outside
 *   the lock (double-checked locking), and the initialiser writes the flag
 *   before the data.  Either change alone is harmless under sequential
 *   consistency; together they let a worker skip the lock and read data
 *   before it is written.
 *
 * Property: assert(data == 42) after the initialisation.
 *
 * Expected verdict: UNSAFE, with n = 2.  An interleaving:
 *     1. worker 1  initialized == 0; lock; initialized == 0;
 *                  initialized = 1
 *     2. worker 2  initialized == 1: skips the lock;
 *                  assert(data == 42) fails (data == 0)
 *   One worker alone is safe.
 *
 * Checked: rely rejects the loop with a nondeterministic bound today
 *   (unsupported: unbounded thread creation).  rely explore on copies
 *   with n = 1, 2, 3 (n = K and the loop bound K): no error / error
 *   reachable / error reachable, 16 / 43 / 104 states (large blocks; an
 *   UNSAFE search stops at the first error).
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "ext-once-init-dcl-bug.c", 39, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

int initialized = 0; /* data has been initialised */
int data = 0;        /* the shared resource */
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  if (initialized == 0) {        /* first check, without the lock */
    pthread_mutex_lock(&m);
    if (initialized == 0) {      /* second check, under the lock */
      initialized = 1;           /* BUG: the flag is published ... */
      data = 42;                 /* ... before the data */
    }
    pthread_mutex_unlock(&m);
  }
  assert(data == 42);
  return 0;
}

int main(void) {
  pthread_t t;
  int i;
  int n = __VERIFIER_nondet_int();
  for (i = 0; i < n; i++) {
    pthread_create(&t, 0, worker, 0);
  }
  return 0;
}

/*
 * ext-mutex-readback-bug.c -- unboundedly many workers incrementing an
 *   unsigned counter under a mutex; the read-back is in a second critical
 *   section.
 *
 * Shape: SV-COMP pthread-ext (`while (1) pthread_create(...)`).  Written
 *   for this benchmark.
 *
 * Threads: main, which creates worker threads forever; every worker runs
 *   lock(m); v = c; c = v + 1; unlock(m); lock(m); assert(c == v + 1);
 *   unlock(m) once.
 *
 * Changed from ext-mutex-readback.c: the worker releases m between its
 *   increment and its assertion (two critical sections instead of one).
 *
 * Property: assert(c == v + 1) in the worker.
 *
 * Expected verdict: UNSAFE, with 2 workers.  An interleaving:
 *     1. worker 1  lock; v = 0; c = 1; unlock
 *     2. worker 2  lock; v = 1; c = 2; unlock
 *     3. worker 1  lock; assert(c == 0 + 1) fails (c == 2)
 *   One worker alone is safe.
 *
 * Checked: rely rejects the unbounded loop today (unsupported:
 *   unbounded thread creation).  rely explore on copies with the loop
 *   bounded to 1, 2, 3 workers (`for (k = 0; k < K; k++)`): no error /
 *   error reachable / error reachable, 16 / 64 / 155 states (large
 *   blocks; an UNSAFE search stops at the first error).
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "ext-mutex-readback-bug.c", 32, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

unsigned int c = 0; /* critical sections entered so far (mod 2^32) */
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  unsigned int v;
  pthread_mutex_lock(&m);
  v = c;
  c = v + 1;
  pthread_mutex_unlock(&m);  /* BUG: the lock is dropped here ... */
  pthread_mutex_lock(&m);    /* ... and taken again */
  assert(c == v + 1);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  while (1) {
    pthread_create(&t, 0, worker, 0);
  }
  return 0;
}

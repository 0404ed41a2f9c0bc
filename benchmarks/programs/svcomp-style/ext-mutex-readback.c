/*
 * ext-mutex-readback.c -- unboundedly many workers, each incrementing an
 *   unsigned counter under a pthread mutex and reading it back while it
 *   still holds the mutex.
 *
 * Shape: SV-COMP pthread-ext (a thread template instantiated without
 *   bound by `while (1) pthread_create(...)` in main).  Written for this
 *   benchmark.
 *
 * Threads: main, which creates worker threads forever; every worker runs
 *   lock(m); v = c; c = v + 1; assert(c == v + 1); unlock(m) once.
 *
 * Property: under the mutex nobody else writes c, so a worker reads back
 *   the value it wrote: assert(c == v + 1) (unsigned, so the comparison
 *   is modulo 2^32 and the wrap of c after 2^32 workers does not matter).
 *
 * Expected verdict: SAFE for any number of workers.  Why: c is written
 *   only by a worker holding m; between its write and its assertion the
 *   worker holds m, so every other thread's step leaves c unchanged.  The
 *   proof is thread-modular (one worker's locals v, its pc, the owner of
 *   m and c), with no count of the threads.
 *
 * Checked: rely rejects the unbounded loop today (unsupported:
 *   unbounded thread creation).  rely explore on copies with the loop
 *   bounded to 1, 2, 3 workers (`for (k = 0; k < K; k++)`): no error in
 *   any run, 12 / 42 / 152 states (large blocks).
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "ext-mutex-readback.c", 30, "reach_error"); }
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

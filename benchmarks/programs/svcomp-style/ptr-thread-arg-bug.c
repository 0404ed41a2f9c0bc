/*
 * ptr-thread-arg-bug.c -- main hands each worker the address of its own cell
 *   of a local array; the workers write their results through it.
 *
 * Shape: SV-COMP pthread (thread arguments: `pthread_create(&t[i], 0, f,
 *   &arg[i])` in a loop with a constant bound, the argument cast back
 *   from `void *` to `int *` in the thread).  Written for this benchmark.
 *
 * Threads: main; two workers, created in a `for` loop over i = 0, 1, each
 *   given &vals[i] after main stored i there.  A worker adds 10 to the
 *   value its pointer points to.
 *
 * Property: after joining the workers, vals[0] == 10 and vals[1] == 11.
 *
 * Expected verdict: UNSAFE.  Changed: main joins only t[0] before its
 *   assertion, so it can read vals[1] == 1 before the second worker adds
 *   10 to it.
 *
 * rely explore: error reachable, 89 / 701 states (large blocks / small
 *   steps).
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "ptr-thread-arg-bug.c", 22, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

#define THREADS 2

void *worker(void *arg) {
  int *v = (int *)arg;
  *v = *v + 10;
  return 0;
}

int main(void) {
  int vals[THREADS];
  pthread_t t[THREADS];
  int i;
  for (i = 0; i < THREADS; i++) {
    vals[i] = i;
    pthread_create(&t[i], 0, worker, &vals[i]);
  }
  pthread_join(t[0], 0);
  assert(vals[0] == 10 && vals[1] == 11);
  return 0;
}

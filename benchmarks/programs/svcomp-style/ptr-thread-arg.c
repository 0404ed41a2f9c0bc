/*
 * ptr-thread-arg.c -- main hands each worker the address of its own cell
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
 * Property: after joining both workers, vals[0] == 10 and vals[1] == 11.
 *
 * Expected verdict: SAFE.  Why: each worker writes only its own cell, and
 *   main reads both only after both joins.
 *
 * rely explore: no error within bounds, 94 / 971 states (large blocks /
 *   small steps): vals is declared without a value, and since its address
 *   escapes to the workers rely keeps it as a global, whose indeterminate
 *   initial values the explorer draws from its range (-2..2); the default
 *   portfolio proves it SAFE (aret).
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "ptr-thread-arg.c", 22, "reach_error"); }
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
  for (i = 0; i < THREADS; i++) {
    pthread_join(t[i], 0);
  }
  assert(vals[0] == 10 && vals[1] == 11);
  return 0;
}

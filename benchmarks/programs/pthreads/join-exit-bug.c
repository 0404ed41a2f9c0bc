/*
 * join-exit-bug.c -- pthread_exit called in a helper function (it does not
 *   return): the thread's result is the helper's argument and the code
 *   after the call never runs; n is a nondet value in [0, 2]; the -bug
 *   twin: calls finish also for n == 0.
 *
 * Expected verdict: UNSAFE. the worker calls finish also for n == 0:
 *   pthread_exit ends the thread there, after stays 0, and main's assert,
 *   which for n == 0 wants after == 1, fails.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "join-exit-bug.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
int after = 0;

void finish(int v) {
  pthread_exit((void *)(long)v);
}

void *worker(void *arg) {
  int n = *(int *)arg;
  if (n >= 0)
    finish(n * 10);
  after = 1;
  return (void *)(long)0;
}

int main(void) {
  pthread_t t;
  void *res;
  int r;
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 0 && n <= 2);
  pthread_create(&t, 0, worker, &n);
  pthread_join(t, &res);
  r = (int)(long)res;
  assert((n > 0 && r == n * 10 && after == 0) || (n == 0 && r == 0 && after == 1));
  return 0;
}

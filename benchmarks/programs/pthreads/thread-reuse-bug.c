/*
 * thread-reuse-bug.c -- one pthread_t variable reused by a loop creating 3
 *   threads, each joined before the variable is reused; the -bug twin:
 *   joins once, after the loop.
 *
 * Expected verdict: UNSAFE. the loop creates all three threads through the
 *   same variable and main joins it once, after the loop: that joins only
 *   the last thread, the first two may not have incremented yet, and c == 3
 *   (expect(3)) fails.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "thread-reuse-bug.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int c = 0;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  c = c + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

void expect(int n) {
  int v;
  pthread_mutex_lock(&m);
  v = c;
  pthread_mutex_unlock(&m);
  assert(v == n);
}

int main(void) {
  pthread_t t;
  int i;
  for (i = 0; i < 3; i++) {
    pthread_create(&t, 0, worker, 0);
  }
  pthread_join(t, 0);
  expect(3);
  return 0;
}

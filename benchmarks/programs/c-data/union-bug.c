/*
 * union-bug.c -- a union: stored through member a, read through member b (both int).
 *
 * Expected verdict: UNSAFE. each worker reads u.b and writes u.a in two
 *   statements without a lock: t1 reads 0, t2 reads 0, both write 1, and
 *   u.b == 1 fails the assert.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "union-bug.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
union U { int a; int b; };
union U u;

void *worker(void *arg) {
  int t = u.b;
  u.a = t + 1;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  u.a = 0;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(u.b == 2);
  return 0;
}

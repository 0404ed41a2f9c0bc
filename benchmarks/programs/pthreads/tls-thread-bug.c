/*
 * tls-thread-bug.c -- a __thread int: each thread its own copy, initialised
 *   from the declaration (5), not from main's copy; the -bug twin: expects
 *   main's value in a new thread.
 *
 * Expected verdict: UNSAFE. the worker expects to start from main's 100, but
 *   a new thread's copy starts from the declaration's 5, so mine == 100 + 2
 *   * id fails (in every interleaving).
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "tls-thread-bug.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
__thread int mine = 5;

void *worker(void *arg) {
  int id = *(int *)arg;
  mine = mine + id;
  mine = mine + id;
  assert(mine == 100 + 2 * id);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  int id1 = 1;
  int id2 = 2;
  mine = 100;
  pthread_create(&t1, 0, worker, &id1);
  pthread_create(&t2, 0, worker, &id2);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(mine == 100);
  return 0;
}

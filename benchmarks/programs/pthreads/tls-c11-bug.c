/*
 * tls-c11-bug.c -- a _Thread_local call counter: each thread counts its own
 *   calls, then adds its count to a shared total under a mutex; the -bug
 *   twin: main reads its own copy as the total.
 *
 * Expected verdict: UNSAFE. main reads its own _Thread_local copy as if it
 *   were the total: main never called work(), its calls is 0, and calls == 4
 *   fails (in every interleaving).
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "tls-c11-bug.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
_Thread_local int calls = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int total = 0;

void work(void) {
  calls = calls + 1;
}

void *worker(void *arg) {
  int mine;
  work();
  work();
  mine = calls;
  assert(mine == 2);
  pthread_mutex_lock(&m);
  total = total + mine;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(calls == 4);
  return 0;
}

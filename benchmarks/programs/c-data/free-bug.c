/*
 * free-bug.c -- free of a malloc'd buffer while a thread may still use it (a use-after-free caught by an assert on a freed flag).
 *
 * Expected verdict: UNSAFE. main frees the buffer before joining the
 *   worker: when the worker runs after the free it finds freed == 1 and
 *   the assert fails before it touches buf (the failing run has no
 *   undefined behaviour; the verdict does not rest on memory-safety
 *   checking).
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "free-bug.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
int *buf;
int freed = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  assert(!freed);
  buf[0] = buf[0] + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  buf = malloc(sizeof(int));
  if (buf == 0) return 0;
  buf[0] = 0;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&m);
  free(buf);
  freed = 1;
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  return 0;
}

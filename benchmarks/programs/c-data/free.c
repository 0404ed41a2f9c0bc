/*
 * free.c -- free of a malloc'd buffer after the threads that use it are joined; no use after the free.
 *
 * Expected verdict: SAFE. main frees the buffer (and raises freed) only
 *   after joining the worker, so the worker always finds freed == 0;
 *   nothing touches buf after the free.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "free.c", 0, "reach_error"); }
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
  pthread_join(t, 0);
  pthread_mutex_lock(&m);
  free(buf);
  freed = 1;
  pthread_mutex_unlock(&m);
  return 0;
}

/*
 * malloc-struct-bug.c -- a malloc'd struct shared by two threads through the thread argument.
 *
 * Expected verdict: UNSAFE. the read and the write of s->hits are two
 *   statements without the mutex: both workers read 0, both write 1, and
 *   s->hits == 1 fails the assert.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "malloc-struct-bug.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
struct stats { int hits; int misses; };
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *p) {
  struct stats *s = p;
  int h = s->hits;
  s->hits = h + 1;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  struct stats *s = malloc(sizeof(struct stats));
  if (s == 0) return 0;
  s->hits = 0;
  s->misses = 0;
  pthread_create(&t1, 0, worker, s);
  pthread_create(&t2, 0, worker, s);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(s->hits == 2);
  free(s);
  return 0;
}

/*
 * nested-struct.c -- a struct inside a struct (g.r.lo, g.r.hi), global, initialized with nested braces.
 *
 * Expected verdict: SAFE. the writer keeps g.r.hi == g.r.lo + 1 inside
 *   one critical section and the reader checks it under the same mutex.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "nested-struct.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
struct inner { int lo; int hi; };
struct outer { struct inner r; int count; };
struct outer g = { { 0, 1 }, 0 };
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *writer(void *arg) {
  pthread_mutex_lock(&m);
  g.r.lo = g.r.lo + 1;
  g.r.hi = g.r.lo + 1;
  g.count = g.count + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

void *reader(void *arg) {
  pthread_mutex_lock(&m);
  assert(g.r.hi == g.r.lo + 1);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, writer, 0);
  pthread_create(&t2, 0, reader, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}

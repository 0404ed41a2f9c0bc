/*
 * arg-struct.c -- a struct pointer as thread argument (a job: lo and hi of
 *   a range) and the range's sum as the thread's result through return
 *   (void *)(long)s and pthread_join; the -bug twin: one struct, rewritten
 *   after the first pthread_create.
 *
 * Expected verdict: SAFE. each thread gets its own job struct, [0, 2) and
 *   [2, 4), so the results are 1 and 5 and sum to 6.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "arg-struct.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
struct job { int lo; int hi; };
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *summer(void *arg) {
  struct job *j = arg;
  int lo, hi, i;
  int s = 0;
  pthread_mutex_lock(&m);
  lo = j->lo;
  hi = j->hi;
  pthread_mutex_unlock(&m);
  for (i = lo; i < hi; i++)
    s = s + i;
  return (void *)(long)s;
}

int main(void) {
  pthread_t t1, t2;
  struct job j1, j2;
  void *r1;
  void *r2;
  j1.lo = 0;
  j1.hi = 2;
  j2.lo = 2;
  j2.hi = 4;
  pthread_create(&t1, 0, summer, &j1);
  pthread_create(&t2, 0, summer, &j2);
  pthread_join(t1, &r1);
  pthread_join(t2, &r2);
  assert((int)(long)r1 + (int)(long)r2 == 6);
  return 0;
}

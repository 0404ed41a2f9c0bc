/*
 * arg-struct-bug.c -- a struct pointer as thread argument (a job: lo and hi
 *   of a range) and the range's sum as the thread's result through return
 *   (void *)(long)s and pthread_join; the -bug twin: one struct, rewritten
 *   after the first pthread_create.
 *
 * Expected verdict: UNSAFE. main reuses one job struct for both threads,
 *   rewriting it (under the mutex) after the first pthread_create: when the
 *   first thread reads it after the rewrite, both sum [2, 4), the results
 *   are 5 and 5, and r1 + r2 == 6 fails.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "arg-struct-bug.c", 0, "reach_error"); }
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
  struct job j;
  void *r1;
  void *r2;
  j.lo = 0;
  j.hi = 2;
  pthread_create(&t1, 0, summer, &j);
  pthread_mutex_lock(&m);
  j.lo = 2;
  j.hi = 4;
  pthread_mutex_unlock(&m);
  pthread_create(&t2, 0, summer, &j);
  pthread_join(t1, &r1);
  pthread_join(t2, &r2);
  assert((int)(long)r1 + (int)(long)r2 == 6);
  return 0;
}

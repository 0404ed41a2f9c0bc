/*
 * malloc-nondet-bug.c -- a malloc'd int array of n cells, n a nondet value in [1, 1000]; two threads write its first and last cells.
 *
 * Expected verdict: UNSAFE. first raises first_done in one critical
 *   section and writes a[0] in a later one: last can run between them,
 *   see the flag and a[0] == 0 (main's fill loop), and the assert fails.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "malloc-nondet-bug.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
int *a;
int n;
int first_done = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *first(void *arg) {
  pthread_mutex_lock(&m);
  first_done = 1;
  pthread_mutex_unlock(&m);
  pthread_mutex_lock(&m);
  a[0] = 1;
  pthread_mutex_unlock(&m);
  return 0;
}

void *last(void *arg) {
  pthread_mutex_lock(&m);
  if (first_done) {
    assert(a[0] == 1);
  }
  a[n - 1] = 2;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  n = __VERIFIER_nondet_int();
  __VERIFIER_assume(0 < n && n <= 1000);
  a = malloc(n * sizeof(int));
  if (a == 0) return 0;
  for (int i = 0; i < n; i++) a[i] = 0;
  pthread_create(&t1, 0, first, 0);
  pthread_create(&t2, 0, last, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  free(a);
  return 0;
}

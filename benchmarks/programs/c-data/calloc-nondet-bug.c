/*
 * calloc-nondet-bug.c -- a calloc'd int array of n cells, n a nondet value in [1, 1000], indexed by a nondet k checked to be in [0, n).
 *
 * Expected verdict: UNSAFE. each claimer tests a[k] == 0 in one critical
 *   section and increments it in another: both can see 0 before either
 *   increments, a[k] reaches 2 and the checker's assert fails.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "calloc-nondet-bug.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
int *a;
int k;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *claimer(void *arg) {
  int free_slot;
  pthread_mutex_lock(&m);
  free_slot = a[k] == 0;
  pthread_mutex_unlock(&m);
  if (free_slot) {
    pthread_mutex_lock(&m);
    a[k] = a[k] + 1;
    pthread_mutex_unlock(&m);
  }
  return 0;
}

void *checker(void *arg) {
  int v;
  pthread_mutex_lock(&m);
  v = a[k];
  pthread_mutex_unlock(&m);
  assert(v == 0 || v == 1);
  return 0;
}

int main(void) {
  pthread_t t1, t2, t3;
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(0 < n && n <= 1000);
  a = calloc(n, sizeof(int));
  if (a == 0) return 0;
  k = __VERIFIER_nondet_int();
  if (k < 0 || k >= n) return 0;
  pthread_create(&t1, 0, claimer, 0);
  pthread_create(&t2, 0, claimer, 0);
  pthread_create(&t3, 0, checker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  pthread_join(t3, 0);
  free(a);
  return 0;
}

/*
 * split-nondet.c -- a malloc'd int array of n cells, n a nondet value in [1, 1000], split in two halves given to two threads as pointers (a and a + half) that they index from 0.
 *
 * Expected verdict: SAFE. low writes cells 0 .. half-1 through a, high
 *   writes half .. n-1 through a + half: the halves are disjoint (low's
 *   is empty when n == 1), so after the joins every cell below half
 *   holds 1 and every other cell 2.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "split-nondet.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
int *a;
int n;
int half;

void *low(void *arg) {
  int *p = arg;
  for (int i = 0; i < half; i++) p[i] = 1;
  return 0;
}

void *high(void *arg) {
  int *p = arg;
  for (int i = 0; i < n - half; i++) p[i] = 2;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  n = __VERIFIER_nondet_int();
  __VERIFIER_assume(0 < n && n <= 1000);
  a = malloc(n * sizeof(int));
  if (a == 0) return 0;
  half = n / 2;
  pthread_create(&t1, 0, low, a);
  pthread_create(&t2, 0, high, a + half);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  int k = __VERIFIER_nondet_int();
  if (0 <= k && k < n) {
    assert(a[k] == (k < half ? 1 : 2));
  }
  free(a);
  return 0;
}

/*
 * array-sum-nondet-bug.c -- weaver-style: an array of N cells, N a nondet value in [1, 1000], filled with nondet values in main and read by two threads, one summing it forward, one backward.
 *
 * Expected verdict: UNSAFE. the backward loop stops at i > 0 and skips
 *   A[0]: whenever A[0] != 0 the sums differ and the assert fails.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "array-sum-nondet-bug.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
int *A;
int N;
int fsum = 0, bsum = 0;

void *forward(void *arg) {
  for (int i = 0; i < N; i++) fsum = fsum + A[i];
  return 0;
}

void *backward(void *arg) {
  for (int i = N - 1; i > 0; i--) bsum = bsum + A[i];
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  N = __VERIFIER_nondet_int();
  __VERIFIER_assume(0 < N && N <= 1000);
  A = malloc(N * sizeof(int));
  if (A == 0) return 0;
  for (int i = 0; i < N; i++) {
    int v = __VERIFIER_nondet_int();
    __VERIFIER_assume(-1000 <= v && v <= 1000);
    A[i] = v;
  }
  pthread_create(&t1, 0, forward, 0);
  pthread_create(&t2, 0, backward, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(fsum == bsum);
  free(A);
  return 0;
}

/*
 * fib-bench.c -- two threads adding each other's variable, a bound on the
 *   largest value.
 *
 * Shape: SV-COMP pthread (the fib_bench pair): i = j = 1; one thread does
 *   i = i + j, the other j = j + i, ROUNDS = 4 times each.  Written for
 *   this benchmark.
 *
 * Threads: main; thr1 (i = i + j, 4 times); thr2 (j = j + i, 4 times).
 *
 * Property: after joining both, main asserts i <= 55 && j <= 55.
 *
 * Why 55: both variables only grow, and a step adds the current value of
 *   the other one, so the largest value after 8 steps comes from strict
 *   alternation, which computes the Fibonacci numbers: 2, 3, 5, 8, 13,
 *   21, 34, 55 (F(10) with F(1) = F(2) = 1).  A step that reads a stale
 *   value of the other variable (if the read and the write are separate
 *   steps) adds less, so the bound holds at any granularity.
 *
 * Expected verdict: SAFE.  The bound is tight: fib-bench-bug.c asserts
 *   i < 55 && j < 55 and fails.
 *
 * rely explore: no error in any run, 796 / 10,211 states (large blocks
 *   / small steps).
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "fib-bench.c", 28, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

#define ROUNDS 4

int i = 1;
int j = 1;

void *thr1(void *arg) {
  int k;
  for (k = 0; k < ROUNDS; k++) {
    i = i + j;
  }
  return 0;
}

void *thr2(void *arg) {
  int k;
  for (k = 0; k < ROUNDS; k++) {
    j = j + i;
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, thr1, 0);
  pthread_create(&t2, 0, thr2, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(i <= 55 && j <= 55);
  return 0;
}

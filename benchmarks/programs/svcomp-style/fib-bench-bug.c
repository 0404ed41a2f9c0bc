/*
 * fib-bench-bug.c -- two threads adding each other's variable, a bound one
 *   too small.
 *
 * Shape: SV-COMP pthread (the fib_bench pair): i = j = 1; one thread does
 *   i = i + j, the other j = j + i, ROUNDS = 4 times each.  Written for
 *   this benchmark.
 *
 * Threads: main; thr1 (i = i + j, 4 times); thr2 (j = j + i, 4 times).
 *
 * Changed from fib-bench.c: the assertion is i < 55 && j < 55 (strict).
 *
 * Property: after joining both, main asserts i < 55 && j < 55.
 *
 * Expected verdict: UNSAFE.  An interleaving: strict alternation,
 *     thr1 i = 2, thr2 j = 3, thr1 i = 5, thr2 j = 8, thr1 i = 13,
 *     thr2 j = 21, thr1 i = 34, thr2 j = 55; main: assert fails (j == 55).
 *   Only the two strict alternations (the other starts with thr2 and
 *   ends with i == 55) reach 55: the error is two paths among many.
 *
 * rely explore: error reachable, 706 / 9,981 states (large blocks /
 *   small steps); an UNSAFE search stops at the first error.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "fib-bench-bug.c", 26, "reach_error"); }
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
  assert(i < 55 && j < 55);
  return 0;
}

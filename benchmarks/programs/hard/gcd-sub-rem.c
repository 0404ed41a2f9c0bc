/*
 * gcd-sub-rem.c -- Euclid's algorithm run by two threads: one by
 *   subtraction, one by remainder.
 *
 * Algorithm: Euclid's gcd on shared a, b (both positive), split between
 *   two threads, each step one atomic section:
 *   - sub: while a != b, if a > b then a = a - b;
 *   - rem: while a != b, if b > a then b = b % a, and if that gives 0
 *     (a divides b) b = a.
 *   Each step keeps a > 0, b > 0 and gcd(a, b); the larger one shrinks,
 *   so both threads stop with a == b == gcd of the inputs.  A thread
 *   whose step does not apply spins until the other has made one.
 *   Written for this benchmark.
 *
 * Threads: main (chooses the inputs a0, b0 nondeterministically in 1..8,
 *   starts sub and rem, joins them) and the two workers.
 *
 * Property: at the end a == b, and a divides both inputs
 *   (a0 % a == 0 && b0 % a == 0).  Since every common divisor of the
 *   inputs divides a (the steps keep the gcd), a is their gcd.
 *
 * Expected verdict: SAFE (for every positive input pair; the program
 *   bounds a0 and b0 to 1..8 with assumes so that explore can check every
 *   pair).  Note: b % a is a remainder by a variable (Spacer has no linear
 *   encoding for it).
 *
 * rely explore --nondet-range 1..8: no error in any run, 1,903 states
 *   (large blocks), 0.2 s.  The range matters: with the default -2..2
 *   explore answers "no error within bounds" after 119 states, trying only
 *   a0, b0 in 1..2: large blocks merge the assumes with a = a0 into one
 *   step, and there the explorer draws a0, b0 from the range instead of
 *   solving the bounds.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "gcd-sub-rem.c", 36, "reach_error"); }
#include <pthread.h>
#undef assert
/* several assertions in one function: no ERROR label (C allows a label
   only once per function) */
#define assert(e) if (!(e)) reach_error()
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

int a; /* shared operands, both > 0 */
int b;

/* One subtraction step; returns 1 when a == b (done). */
int __VERIFIER_atomic_sub_step(void) {
  if (a == b) {
    return 1;
  }
  if (a > b) {
    a = a - b;
  }
  return 0;
}

/* One remainder step; returns 1 when a == b (done). */
int __VERIFIER_atomic_rem_step(void) {
  if (a == b) {
    return 1;
  }
  if (b > a) {
    b = b % a;
    if (b == 0) {
      b = a;       /* a divides b: the gcd is a */
    }
  }
  return 0;
}

void *sub(void *arg) {
  while (!__VERIFIER_atomic_sub_step()) {
  }
  return 0;
}

void *rem(void *arg) {
  while (!__VERIFIER_atomic_rem_step()) {
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  int a0 = __VERIFIER_nondet_int();
  int b0 = __VERIFIER_nondet_int();
  __VERIFIER_assume(a0 >= 1 && a0 <= 8);
  __VERIFIER_assume(b0 >= 1 && b0 <= 8);
  a = a0;
  b = b0;
  pthread_create(&t1, 0, sub, 0);
  pthread_create(&t2, 0, rem, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(a == b);
  assert(a0 % a == 0 && b0 % a == 0);
  return 0;
}

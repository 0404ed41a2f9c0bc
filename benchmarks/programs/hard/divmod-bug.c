/*
 * divmod-bug.c -- C's / and % by constants on shared counters; a check
 *   that assumes division rounds down (floor), which C's / does not.
 *
 * Shape: as divmod.c.  x starts at 0; thread up adds 3 once, thread down
 *   subtracts 3 twice (each step atomic), so x is always a multiple of 3,
 *   possibly negative.  Thread halver halves h = -7 toward zero until it
 *   reaches 0, summing the remainders h % 2 in rsum.  A checker thread
 *   reads x once and checks C's division by 2 on it (q = v / 2,
 *   r = v % 2); it then reads h once and checks it.  main checks
 *   -7 / 2 == -3, -7 % 2 == -1 and, after the joins, x == -3, h == 0 and
 *   rsum == -3.  Written for this benchmark.
 *
 * Bug (relative to divmod.c): the checker asserts q * 2 <= v ("halving
 *   rounds down") instead of v >= 0 || q * 2 >= v.  That holds for
 *   v >= 0 and under floor division, but C's / truncates toward zero, so
 *   for v = -3: q = -1 and q * 2 = -2 > -3.  Every other assertion holds;
 *   the program fails only because of C's round-toward-zero semantics.
 *
 * Property: the assertions (C99 6.5.5: / truncates toward zero).
 *
 * Expected verdict: UNSAFE.  An interleaving that breaks it:
 *     1. down     x = x - 3             (x = -3)
 *     2. checker  v = x; q = v / 2; r = v % 2   (v = -3, q = -1, r = -1)
 *     3. checker  v % 3 == 0, q * 2 + r == v, -2 < r < 2, r <= 0 hold
 *     4. checker  assert(q * 2 <= v) fails: -2 > -3
 *   No nondeterministic inputs.
 *
 * rely explore: error reachable, 118 / 8,756 states (large blocks / small
 *   steps), 0.07 / 0.4 s.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "divmod-bug.c", 34, "reach_error"); }
#include <pthread.h>
#undef assert
/* several assertions in one function: no ERROR label (C allows a label
   only once per function) */
#define assert(e) if (!(e)) reach_error()

int x = 0;    /* stepped by 3 */
int h = -7;   /* halved toward zero */
int rsum = 0; /* sum of the remainders h % 2 */

void __VERIFIER_atomic_step(int d) {
  x = x + d;
}

void *up(void *arg) {
  __VERIFIER_atomic_step(3);
  return 0;
}

void *down(void *arg) {
  __VERIFIER_atomic_step(-3);
  __VERIFIER_atomic_step(-3);
  return 0;
}

void *halver(void *arg) {
  int v = h;
  while (v != 0) {
    int q = v / 2;
    int r = v % 2;
    rsum = rsum + r;
    h = q;
    v = h;
  }
  return 0;
}

void *checker(void *arg) {
  int v = x;
  int q = v / 2;
  int r = v % 2;
  assert(v % 3 == 0);
  assert(q * 2 + r == v);
  assert(r > -2 && r < 2);
  assert(v >= 0 || r <= 0);       /* the remainder has the sign of v */
  assert(q * 2 <= v);             /* BUG: assumes halving rounds down */
  int g = h;                      /* -7, -3, -1 or 0 */
  assert(g >= -7 && g <= 0);
  assert(g % 2 <= 0);
  assert(g / 2 * 2 >= g);
  return 0;
}

int main(void) {
  pthread_t t1, t2, t3, t4;
  int n = -7;
  assert(n / 2 == -3);
  assert(n % 2 == -1);
  pthread_create(&t1, 0, up, 0);
  pthread_create(&t2, 0, down, 0);
  pthread_create(&t3, 0, halver, 0);
  pthread_create(&t4, 0, checker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  pthread_join(t3, 0);
  pthread_join(t4, 0);
  assert(x == -3);
  assert(x % 3 == 0);
  assert(h == 0);
  assert(rsum == -3);
  return 0;
}

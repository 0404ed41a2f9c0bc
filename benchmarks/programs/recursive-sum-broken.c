/*
 * recursive-sum-broken.c -- two threads each set a shared x to sum(3) = 6,
 *   computed by a recursive function, while holding a mutex.
 *
 * Algorithm: sum(n) = n + sum(n - 1), sum(0) = 0.  Each worker locks m,
 *   sets x = 0, then x = x + sum(3) (x is read after the call returns),
 *   asserts x == 6 and unlocks.  Written for rely's explicit engines
 *   (issue 7): they keep the calls as calls (Flanagan-Qadeer's pushdown
 *   rules, section 3.1); the ARET engine inlines calls and so rejects
 *   the recursion as unsupported.
 *
 * Threads: main and two workers; main starts them and ends.
 *
 * Property: x == 6 at the assertion.
 *
 * Breaking interleaving: worker 1 sets x = 0 and calls sum; worker 2 runs
 *   to x = 6; worker 1 returns and sets x = 6 + 6 = 12.
 *
 * Expected verdict: UNSAFE
 */
#include <pthread.h>
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "recursive-sum-broken.c", 23, "reach_error"); }
#undef assert
#define assert(e) if (!(e)) reach_error()

int x = 0;
pthread_mutex_t m;

int sum(int n) {
  if (n <= 0) return 0;
  return n + sum(n - 1);
}

void *worker(void *arg) {
  /* MUTATION: recursive-sum.c locks m here */
  x = 0;
  x = x + sum(3);
  assert(x == 6);
  /* MUTATION: and unlocks it here */
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_exit(0);
}

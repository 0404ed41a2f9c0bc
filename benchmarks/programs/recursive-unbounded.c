/*
 * recursive-unbounded.c -- two threads recurse to a nondeterministic depth,
 *   then each frame runs a critical section on its way back.
 *
 * Algorithm: descend() calls itself while a nondeterministic _Bool says
 *   so (the stack is unbounded), then locks m, sets x = 0, x = x + 1,
 *   asserts x == 1 and unlocks.  Written for rely's explicit engines
 *   (issue 7): the thread-modular engine's summaries (Flanagan-Qadeer
 *   section 3.1) are finite although the stacks are not, so it proves
 *   the program; the global engine explores stacks one frame deeper at a
 *   time and stops at its state limit.
 *
 * Threads: main and two workers; main starts them and ends.
 *
 * Property: x == 1 at the assertion.
 *
 * Expected verdict: SAFE
 */
#include <pthread.h>
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "recursive-unbounded.c", 21, "reach_error"); }
#undef assert
#define assert(e) if (!(e)) reach_error()
extern _Bool __VERIFIER_nondet_bool(void);

int x = 0;
pthread_mutex_t m;

void descend(int depth) {
  if (__VERIFIER_nondet_bool()) descend(0);
  pthread_mutex_lock(&m);
  x = 0;
  x = x + 1;
  assert(x == 1);
  pthread_mutex_unlock(&m);
}

void *worker(void *arg) {
  descend(0);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_exit(0);
}

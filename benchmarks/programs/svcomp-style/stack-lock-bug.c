/*
 * stack-lock-bug.c -- a bounded stack over a global array, its top index
 *   guarded by a mutex; the popper trusts a stale "something was pushed"
 *   test.
 *
 * Shape: SV-COMP pthread (a stack over a fixed-size global array with a
 *   top index under a lock; push and pop; assert no underflow).  Written
 *   for this benchmark.
 *
 * Threads: main; pusher pushes 1, 2, 3, each push in its own critical
 *   section, counting pushes in `pushed`; popper tries SIZE = 3 times,
 *   each time in one critical section, popping if pushed > 0.
 *
 * Changed from stack-lock.c: the popper's test is pushed > 0 (something
 *   was pushed once) instead of pushed > popped (something is there now).
 *
 * Property: no underflow: a pop the popper expects to succeed finds the
 *   stack non-empty, assert(v != EMPTY).
 *
 * Expected verdict: UNSAFE.  An interleaving:
 *     1. pusher  lock; push(1); pushed = 1; unlock       (top = 1)
 *     2. popper  lock; pushed > 0: pop() == 1; unlock     (top = 0)
 *     3. popper  lock; pushed > 0: pop() == EMPTY;
 *                assert(v != EMPTY) fails
 *
 * rely explore: error reachable, 130 / 1,318 states (large blocks /
 *   small steps); an UNSAFE search stops at the first error.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "stack-lock-bug.c", 31, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

#define SIZE 3
#define EMPTY (-1)
#define OVERFLOW (-2)

int stack[SIZE];
int top = 0;      /* number of elements on the stack */
int pushed = 0;   /* pushes done */
int popped = 0;   /* pops done */
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

int push(int v) {
  if (top == SIZE) {
    return OVERFLOW;
  }
  stack[top] = v;
  top = top + 1;
  return 0;
}

int pop(void) {
  if (top == 0) {
    return EMPTY;
  }
  top = top - 1;
  return stack[top];
}

void *pusher(void *arg) {
  int i;
  for (i = 0; i < SIZE; i++) {
    pthread_mutex_lock(&m);
    if (push(i + 1) == 0) {
      pushed = pushed + 1;
    }
    pthread_mutex_unlock(&m);
  }
  return 0;
}

void *popper(void *arg) {
  int i, v;
  for (i = 0; i < SIZE; i++) {
    pthread_mutex_lock(&m);
    if (pushed > 0) {            /* BUG: stale test, should be pushed > popped */
      v = pop();
      assert(v != EMPTY);
      popped = popped + 1;
    }
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, pusher, 0);
  pthread_create(&t2, 0, popper, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}

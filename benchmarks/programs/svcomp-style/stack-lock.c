/*
 * stack-lock.c -- a bounded stack over a global array, its top index
 *   guarded by a mutex; one pusher and one popper.
 *
 * Shape: SV-COMP pthread (a stack over a fixed-size global array with a
 *   top index under a lock; push and pop; the popper asserts that a pop
 *   it has a reason to expect to succeed does not underflow).  Written
 *   for this benchmark.
 *
 * Threads: main; pusher pushes 1, 2, 3, each push in its own critical
 *   section, counting pushes in `pushed`; popper tries SIZE = 3 times,
 *   each time in one critical section: if more pushes than pops happened
 *   (pushed > popped) it pops and counts the pop in `popped`.
 *
 * Property: no underflow: a pop done because pushed > popped finds the
 *   stack non-empty, assert(v != EMPTY) with EMPTY = -1 (every pushed
 *   value is positive).
 *
 * Expected verdict: SAFE.  Why: every critical section keeps
 *   top == pushed - popped, so pushed > popped means top > 0.  Pushes
 *   never overflow: there are SIZE of them in all.
 *
 * rely explore: no error in any run, 640 / 7,109 states (large blocks /
 *   small steps).
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "stack-lock.c", 28, "reach_error"); }
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
    if (pushed > popped) {
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

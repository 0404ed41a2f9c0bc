/*
 * funptr-typedef-bug.c -- a typedef of a function pointer (task_fn); the thread function is chosen at run time through a variable of that type.
 *
 * Expected verdict: UNSAFE. g is inc or dec by a nondet choice; when it
 *   is dec the second thread subtracts 1 and x == 0 fails the assert.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "funptr-typedef-bug.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
typedef void *(*task_fn)(void *);
int x = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *inc(void *arg) {
  pthread_mutex_lock(&m);
  x = x + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

void *dec(void *arg) {
  pthread_mutex_lock(&m);
  x = x - 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  task_fn f = inc;
  task_fn g = __VERIFIER_nondet_int() ? inc : dec;
  pthread_create(&t1, 0, f, 0);
  pthread_create(&t2, 0, g, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(x == 2);
  return 0;
}

/*
 * funptr-typedef.c -- a typedef of a function pointer (task_fn); the thread function is passed through a variable of that type.
 *
 * Expected verdict: SAFE. f always points to inc, so both threads add 1
 *   under the mutex and x == 2 after the joins.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "funptr-typedef.c", 0, "reach_error"); }
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
  pthread_create(&t1, 0, f, 0);
  pthread_create(&t2, 0, f, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(x == 2);
  return 0;
}

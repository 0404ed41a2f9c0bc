/*
 * struct-mutex-bug.c -- a struct containing a pthread_mutex_t (c.lock), initialized with pthread_mutex_init, used by two threads.
 *
 * Expected verdict: UNSAFE. the read and the write of c.value are in two
 *   critical sections: both workers read 0 before either writes, and
 *   c.value == 1 fails the assert.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "struct-mutex-bug.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
struct counter { pthread_mutex_t lock; int value; };
struct counter c;

void *worker(void *arg) {
  pthread_mutex_lock(&c.lock);
  int t = c.value;
  pthread_mutex_unlock(&c.lock);
  pthread_mutex_lock(&c.lock);
  c.value = t + 1;
  pthread_mutex_unlock(&c.lock);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_mutex_init(&c.lock, 0);
  c.value = 0;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(c.value == 2);
  return 0;
}

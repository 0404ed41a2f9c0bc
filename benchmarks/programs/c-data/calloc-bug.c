/*
 * calloc-bug.c -- a calloc'd int array: its cells start at zero.
 *
 * Expected verdict: UNSAFE. each worker updates c[0] and c[1] in two
 *   critical sections: the checker can run between them and see c[0] ==
 *   1, c[1] == 0.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "calloc-bug.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
int *c;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *checker(void *arg) {
  pthread_mutex_lock(&m);
  assert(c[0] == c[1]);
  pthread_mutex_unlock(&m);
  return 0;
}

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  c[0] = c[0] + 1;
  pthread_mutex_unlock(&m);
  pthread_mutex_lock(&m);
  c[1] = c[1] + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t1, t2, t3;
  c = calloc(4, sizeof(int));
  if (c == 0) return 0;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_create(&t3, 0, checker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  pthread_join(t3, 0);
  return 0;
}

/*
 * array-index.c -- an array indexed at run time by a nondet index within bounds (slots[i]).
 *
 * Expected verdict: SAFE. each worker adds 1 to slots[i] for its own
 *   nondet i in [0, 4) inside one critical section: the slots sum to 2
 *   after the joins.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "array-index.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
int slots[4];
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  int i = __VERIFIER_nondet_int();
  __VERIFIER_assume(0 <= i && i < 4);
  pthread_mutex_lock(&m);
  slots[i] = slots[i] + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(slots[0] + slots[1] + slots[2] + slots[3] == 2);
  return 0;
}

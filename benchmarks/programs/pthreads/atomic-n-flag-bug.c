/*
 * atomic-n-flag-bug.c -- message passing with
 *   __atomic_store_n/__atomic_load_n and __ATOMIC_SEQ_CST: data, then a
 *   ready flag; the -bug twin: stores ready first.
 *
 * Expected verdict: UNSAFE. the producer stores ready before data: the
 *   consumer can load ready == 1 between the two stores and then load data
 *   == 0, and the assert fails.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "atomic-n-flag-bug.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
int data = 0;
int ready = 0;

void *producer(void *arg) {
  __atomic_store_n(&ready, 1, __ATOMIC_SEQ_CST);
  __atomic_store_n(&data, 42, __ATOMIC_SEQ_CST);
  return 0;
}

void *consumer(void *arg) {
  int r, d;
  r = __atomic_load_n(&ready, __ATOMIC_SEQ_CST);
  if (r == 1) {
    d = __atomic_load_n(&data, __ATOMIC_SEQ_CST);
    assert(d == 42);
  }
  return 0;
}

int main(void) {
  pthread_t p, c;
  pthread_create(&c, 0, consumer, 0);
  pthread_create(&p, 0, producer, 0);
  pthread_join(p, 0);
  pthread_join(c, 0);
  return 0;
}

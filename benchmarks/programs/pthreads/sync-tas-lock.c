/*
 * sync-tas-lock.c -- a test-and-set spinlock: __sync_lock_test_and_set to
 *   acquire, __sync_lock_release to release, around a read-modify-write;
 *   the -bug twin: tests, then sets, in two statements.
 *
 * Expected verdict: SAFE. __sync_lock_test_and_set atomically sets lk to 1
 *   and returns its old value, so only the thread that saw 0 enters; the
 *   read and write of c are not interleaved and c == 2.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "sync-tas-lock.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
int lk = 0;
int c = 0;

void *worker(void *arg) {
  int t;
  while (__sync_lock_test_and_set(&lk, 1) != 0) {
  }
  t = c;
  c = t + 1;
  __sync_lock_release(&lk);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(c == 2);
  return 0;
}

/*
 * spin-lock.c -- pthread_spin_init(&s, PTHREAD_PROCESS_PRIVATE)/pthread_spi
 *   n_lock/pthread_spin_unlock/pthread_spin_destroy around a read-modify-
 *   write of a counter; the -bug twin: unlocks between the read and the
 *   write.
 *
 * Expected verdict: SAFE. each thread reads and writes c in one critical
 *   section of the spinlock, so no update is lost and c == 2.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "spin-lock.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
pthread_spinlock_t s;
int c = 0;

void *worker(void *arg) {
  int t;
  pthread_spin_lock(&s);
  t = c;
  c = t + 1;
  pthread_spin_unlock(&s);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_spin_init(&s, PTHREAD_PROCESS_PRIVATE);
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(c == 2);
  pthread_spin_destroy(&s);
  return 0;
}

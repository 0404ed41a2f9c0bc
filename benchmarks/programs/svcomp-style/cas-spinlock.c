/*
 * cas-spinlock.c -- a spin lock built on compare-and-swap, three threads,
 *   two critical sections each.
 *
 * Algorithm: the compare-and-swap spin lock (M. Herlihy, N. Shavit, "The
 *   Art of Multiprocessor Programming", 2008, ch. 7): acquire retries
 *   CAS(lock, 0, 1) until it succeeds; release writes lock = 0.  The CAS
 *   is an __VERIFIER_atomic_ function taking the lock's address, as in
 *   SV-COMP pthread-atomic.  Written for this benchmark.
 *
 * Threads: three threads running the same code with ids 1, 2, 3 (the
 *   thread argument), each entering the critical section twice.
 *
 * Property: mutual exclusion: in the critical section x = id;
 *   assert(x == id).
 *
 * Expected verdict: SAFE.  The lock bit does not record its owner, so
 *   (as for LockBit in Gupta, Popeea, Rybalchenko, POPL 2011) no
 *   thread-modular proof over the globals and one thread's locals exists.
 *
 * rely explore: no error in any run, 1,716 / 75,997 states (large
 *   blocks / small steps).
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "cas-spinlock.c", 26, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

int lock = 0; /* 1 while some thread holds the lock */
int x = 0;    /* written in the critical section */

/* if *p == expected, write desired to *p and return 1; else return 0 */
int __VERIFIER_atomic_cas(int *p, int expected, int desired) {
  if (*p == expected) {
    *p = desired;
    return 1;
  }
  return 0;
}

void acquire(void) {
  while (__VERIFIER_atomic_cas(&lock, 0, 1) == 0) {
  }
}

void release(void) {
  lock = 0;
}

void *thr(void *arg) {
  int id = (long)arg;
  int k;
  for (k = 0; k < 2; k++) {
    acquire();
    x = id;             /* critical section */
    assert(x == id);
    release();
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2, t3;
  pthread_create(&t1, 0, thr, (void *)1);
  pthread_create(&t2, 0, thr, (void *)2);
  pthread_create(&t3, 0, thr, (void *)3);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  pthread_join(t3, 0);
  return 0;
}

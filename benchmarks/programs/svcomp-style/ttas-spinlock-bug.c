/*
 * ttas-spinlock-bug.c -- a test-and-test-and-set spin lock that ignores
 *   the result of its test-and-set, three threads.
 *
 * Algorithm: the test-and-test-and-set lock (L. Rudolph, Z. Segall,
 *   "Dynamic decentralized cache schemes for MIMD parallel processors",
 *   ISCA 1984; Herlihy, Shavit, "The Art of Multiprocessor Programming",
 *   ch. 7): spin reading lock until it is 0, then test-and-set it; if the
 *   test-and-set returned 1 someone else got there first, and the thread
 *   must spin again.  The test-and-set is an __VERIFIER_atomic_ function
 *   taking the lock's address.  Written for this benchmark.
 *
 * Threads: three threads running the same code with ids 1, 2, 3 (the
 *   thread argument), each entering the critical section once.
 *
 * Bug: acquire does not look at the value test-and-set returns: after
 *   seeing lock == 0 it enters even when its test-and-set found the lock
 *   already taken.  (The correct acquire is
 *   `while (1) { while (lock != 0) {} if (tas(&lock) == 0) break; }`.)
 *
 * Property: mutual exclusion: in the critical section x = id;
 *   assert(x == id).
 *
 * Expected verdict: UNSAFE, with 2 of the threads.  An interleaving:
 *     1. thread 1  reads lock == 0
 *     2. thread 2  reads lock == 0
 *     3. thread 1  test-and-set: returns 0, lock = 1
 *     4. thread 2  test-and-set: returns 1 (ignored)
 *     5. thread 1  x = 1
 *     6. thread 2  x = 2
 *     7. thread 1  assert(x == 1) fails
 *
 * rely explore: error reachable, 176 / 1,141 states (large blocks /
 *   small steps); an UNSAFE search stops at the first error.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "ttas-spinlock-bug.c", 38, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

int lock = 0; /* 1 while some thread holds the lock */
int x = 0;    /* written in the critical section */

/* set *p to 1 and return its old value */
int __VERIFIER_atomic_test_and_set(int *p) {
  int old = *p;
  *p = 1;
  return old;
}

void acquire(void) {
  while (lock != 0) {                 /* test ... */
  }
  __VERIFIER_atomic_test_and_set(&lock); /* BUG: ... and set, result ignored */
}

void release(void) {
  lock = 0;
}

void *thr(void *arg) {
  int id = (long)arg;
  acquire();
  x = id;               /* critical section */
  assert(x == id);
  release();
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

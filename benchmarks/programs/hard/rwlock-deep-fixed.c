/*
 * rwlock-deep-fixed.c -- readers-writer lock, a reader that reads the
 *   protected data before it takes the read lock and re-validates it
 *   under the lock; the correct variant of rwlock-deep-bug.c.
 *
 * Algorithm: the readers-writer lock of C. Flanagan, S. N. Freund,
 *   S. Qadeer, "Thread-modular verification for shared-memory programs",
 *   ESOP 2002 (as in ../rwlock.c).  Global w says a writer holds the
 *   lock, r counts the readers holding it.  Taking the write lock
 *   atomically waits for w == 0 && r == 0 and sets w = 1; taking the read
 *   lock atomically waits for w == 0 and increments r; releasing sets
 *   w = 0 or decrements r.  Written for this benchmark.
 *
 * Threads: two writers (x = 1 and x = 2 under the write lock) and two
 *   readers running the same code, each using the lock once.
 *
 * Fix (relative to rwlock-deep-bug.c): a reader still copies x into its
 *   local l before taking the read lock (an optimistic read), but under
 *   the lock it compares l with x and reads x again if they differ:
 *   l = x; take_read(); if (l != x) l = x; y = l; assert(y == x).
 *
 * Property: stability of x for readers: under the read lock, the value a
 *   reader publishes in y equals x.
 *
 * Expected verdict: SAFE
 *
 * rely explore: no error in any run, 5,842 / 18,306 states (large blocks /
 *   small steps), 0.2 / 0.3 s.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "rwlock-deep-fixed.c", 32, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
extern void __VERIFIER_assume(int cond);

int w = 0; /* 1 iff a writer holds the lock */
int r = 0; /* number of readers holding the lock */
int x = 0; /* data protected by the lock */
int y = 0; /* last value published by a reader */

void __VERIFIER_atomic_take_write_lock(void) {
  __VERIFIER_assume(w == 0 && r == 0);
  w = 1;
}

void __VERIFIER_atomic_take_read_lock(void) {
  __VERIFIER_assume(w == 0);
  r = r + 1;
}

void __VERIFIER_atomic_release_read_lock(void) {
  r = r - 1;
}

void *writer1(void *arg) {
  __VERIFIER_atomic_take_write_lock();
  x = 1;
  w = 0; /* release the write lock */
  return 0;
}

void *writer2(void *arg) {
  __VERIFIER_atomic_take_write_lock();
  x = 2;
  w = 0; /* release the write lock */
  return 0;
}

void *reader(void *arg) {
  int l = 0;
  l = x;                              /* optimistic read, outside the lock */
  __VERIFIER_atomic_take_read_lock();
  if (l != x) {                       /* FIX: re-validate under the lock */
    l = x;
  }
  y = l;
  assert(y == x);
  __VERIFIER_atomic_release_read_lock();
  return 0;
}

int main(void) {
  pthread_t t1, t2, t3, t4;
  pthread_create(&t1, 0, writer1, 0);
  pthread_create(&t2, 0, reader, 0);
  pthread_create(&t3, 0, writer2, 0);
  pthread_create(&t4, 0, reader, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  pthread_join(t3, 0);
  pthread_join(t4, 0);
  return 0;
}

/*
 * rwlock-deep-bug.c -- readers-writer lock, a reader that reads the
 *   protected data before it takes the read lock.
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
 * Bug: a reader copies x into its local l BEFORE taking the read lock
 *   (l = x; take_read(); y = l; assert(y == x)), so the value it publishes
 *   under the lock may be stale.
 *
 * Property: stability of x for readers: under the read lock, the value a
 *   reader publishes in y equals x.
 *
 * Expected verdict: UNSAFE.  An interleaving that breaks it:
 *     1. reader   l = x            (l = 0)
 *     2. writer1  take_write_lock  (w = 1)
 *     3. writer1  x = 1
 *     4. writer1  w = 0            (release)
 *     5. reader   take_read_lock   (r = 1)
 *     6. reader   y = l            (y = 0)
 *     7. reader   assert(y == x)   fails: y = 0, x = 1
 *   The error needs a whole writer critical section between the reader's
 *   read and its lock acquisition.
 *
 * rely explore: error reachable, 225 / 407 states (large blocks / small
 *   steps), 0.05 / 0.08 s.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "rwlock-deep-bug.c", 39, "reach_error"); }
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
  l = x;                              /* BUG: read outside the lock */
  __VERIFIER_atomic_take_read_lock();
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

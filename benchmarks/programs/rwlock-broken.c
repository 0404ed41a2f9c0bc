/*
 * rwlock-broken.c -- a mutant of the readers-writer lock.
 *
 * Algorithm: the readers-writer lock example of C. Flanagan, S. N. Freund,
 *   S. Qadeer, "Thread-modular verification for shared-memory programs",
 *   ESOP 2002, LNCS 2305 (see rwlock.c for the correct version).
 *
 * Mutation: taking the read lock no longer waits for w == 0, so a reader
 *   can enter while a writer holds the lock.  (Writers still wait for
 *   r == 0, so the writer has to get in first.)
 *
 * Threads: two writers (writing x = 1 and x = 2 under the write lock) and
 *   two readers (running the same code), each using the lock once.
 *
 * Property: stability of x for readers.  Under the read lock a reader
 *   copies x into a local l, publishes it in the shared global y, and
 *   asserts y == x.
 *
 * Breaking interleaving:
 *   writer1: takes the write lock (w = 1)
 *   reader:  takes the read lock although w == 1 (r = 1), l = x (0)
 *   writer1: x = 1
 *   reader:  y = l (0), assert(y == x) fails because x == 1.
 *
 * Expected verdict: UNSAFE
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "rwlock-broken.c", 29, "reach_error"); }
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
  /* MUTATION: `__VERIFIER_assume(w == 0);` removed */
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
  int l;
  __VERIFIER_atomic_take_read_lock();
  l = x;
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

/*
 * rwlock-twin-writers.c -- readers-writer lock, both writers running one function.
 *
 * Algorithm: as rwlock.c (Flanagan, Freund, Qadeer, ESOP 2002): w says a writer
 *   holds the lock, r counts the readers holding it; taking the write lock
 *   atomically waits for w == 0 && r == 0 and sets w = 1, taking the read lock
 *   waits for w == 0 and increments r.
 *
 * Threads: two instances of one writer function (writing x = 3 under the write
 *   lock) and two instances of the reader, each using the lock once.  This is
 *   the shape of the copy in Threader's distribution (SV-COMP
 *   c/pthread-atomic/read_write_lock-1.c); rwlock.c has two different writers
 *   (x = 1 and x = 2).  Written for this benchmark from the algorithm.
 *
 * Property: as rwlock.c, under the read lock a reader copies x into l,
 *   publishes it in y and asserts y == x.
 *
 * Expected verdict: SAFE.  No modular proof exists (the readers share the
 *   counter r), as in rwlock.c; here the writers need not know of each other.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "rwlock-twin-writers.c", 23, "reach_error"); }
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

void *writer(void *arg) {
  __VERIFIER_atomic_take_write_lock();
  x = 3;
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
  pthread_create(&t1, 0, writer, 0);
  pthread_create(&t2, 0, reader, 0);
  pthread_create(&t3, 0, writer, 0);
  pthread_create(&t4, 0, reader, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  pthread_join(t3, 0);
  pthread_join(t4, 0);
  return 0;
}

/*
 * rwlock-readers.c -- a pthread_rwlock_t from PTHREAD_RWLOCK_INITIALIZER:
 *   one writer (pthread_rwlock_wrlock) and two readers
 *   (pthread_rwlock_rdlock) sharing it; a mutex m keeps each single access
 *   race-free, the invariant x == y is the rwlock's; the -bug twin: the
 *   writer takes pthread_rwlock_rdlock.
 *
 * Expected verdict: SAFE. the writer changes x and y in two steps while it
 *   holds the write lock, which excludes both readers; a reader reads x and
 *   y together under the read lock, so it sees both before or both after,
 *   and a == b.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "rwlock-readers.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x = 0;
int y = 0;

void *writer(void *arg) {
  pthread_rwlock_wrlock(&rw);
  pthread_mutex_lock(&m);
  x = x + 1;
  pthread_mutex_unlock(&m);
  pthread_mutex_lock(&m);
  y = y + 1;
  pthread_mutex_unlock(&m);
  pthread_rwlock_unlock(&rw);
  return 0;
}

void *reader(void *arg) {
  int a, b;
  pthread_rwlock_rdlock(&rw);
  pthread_mutex_lock(&m);
  a = x;
  b = y;
  pthread_mutex_unlock(&m);
  pthread_rwlock_unlock(&rw);
  assert(a == b);
  return 0;
}

int main(void) {
  pthread_t w, r1, r2;
  pthread_create(&r1, 0, reader, 0);
  pthread_create(&w, 0, writer, 0);
  pthread_create(&r2, 0, reader, 0);
  pthread_join(w, 0);
  pthread_join(r1, 0);
  pthread_join(r2, 0);
  assert(x == 1 && y == 1);
  return 0;
}

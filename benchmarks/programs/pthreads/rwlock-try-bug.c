/*
 * rwlock-try-bug.c -- pthread_rwlock_init/destroy, pthread_rwlock_trywrlock
 *   and pthread_rwlock_tryrdlock (each returns 0 or EBUSY); two writers and
 *   a reader count themselves in and out under a mutex; the -bug twin: the
 *   writers use pthread_rwlock_tryrdlock.
 *
 * Expected verdict: UNSAFE. the writers take the lock with
 *   pthread_rwlock_tryrdlock, which shares it: the reader gets the read lock
 *   and counts itself in; a writer's tryrdlock also returns 0, it counts
 *   itself in, sees readers == 1, and w == 1 && r == 0 fails (two writers
 *   inside at once fail it too).
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "rwlock-try-bug.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
#include <errno.h>
pthread_rwlock_t rw;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int writers = 0;
int readers = 0;

void check_rc(int rc) {
  assert(rc == 0 || rc == EBUSY);
}

void *writer(void *arg) {
  int rc, w, r;
  rc = pthread_rwlock_tryrdlock(&rw);
  check_rc(rc);
  if (rc == 0) {
    pthread_mutex_lock(&m);
    writers = writers + 1;
    w = writers;
    r = readers;
    pthread_mutex_unlock(&m);
    assert(w == 1 && r == 0);
    pthread_mutex_lock(&m);
    writers = writers - 1;
    pthread_mutex_unlock(&m);
    pthread_rwlock_unlock(&rw);
  }
  return 0;
}

void *reader(void *arg) {
  int rc, w;
  rc = pthread_rwlock_tryrdlock(&rw);
  check_rc(rc);
  if (rc == 0) {
    pthread_mutex_lock(&m);
    readers = readers + 1;
    w = writers;
    pthread_mutex_unlock(&m);
    assert(w == 0);
    pthread_mutex_lock(&m);
    readers = readers - 1;
    pthread_mutex_unlock(&m);
    pthread_rwlock_unlock(&rw);
  }
  return 0;
}

int main(void) {
  pthread_t w1, w2, r;
  pthread_rwlock_init(&rw, 0);
  pthread_create(&w1, 0, writer, 0);
  pthread_create(&w2, 0, writer, 0);
  pthread_create(&r, 0, reader, 0);
  pthread_join(w1, 0);
  pthread_join(w2, 0);
  pthread_join(r, 0);
  pthread_rwlock_destroy(&rw);
  return 0;
}

/*
 * rw-from-cond.c -- a readers-writer lock built from a mutex and a
 *   condition variable; one writer thread and two readers (a thread and
 *   main); the -bug twin: write_lock does not wait for readers.
 *
 * Expected verdict: SAFE. write_lock waits until no one writes and no reader
 *   holds the lock, and read_lock until no one writes, so a reader never
 *   runs between the writer's updates of x and y and a == b.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "rw-from-cond.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
int readers, writing;
int x, y;

void read_lock(void) {
  pthread_mutex_lock(&m);
  while (writing == 1)
    pthread_cond_wait(&changed, &m);
  readers = readers + 1;
  pthread_mutex_unlock(&m);
}

void read_unlock(void) {
  pthread_mutex_lock(&m);
  readers = readers - 1;
  if (readers == 0)
    pthread_cond_broadcast(&changed);
  pthread_mutex_unlock(&m);
}

void write_lock(void) {
  pthread_mutex_lock(&m);
  while (writing == 1 || readers > 0)
    pthread_cond_wait(&changed, &m);
  writing = 1;
  pthread_mutex_unlock(&m);
}

void write_unlock(void) {
  pthread_mutex_lock(&m);
  writing = 0;
  pthread_cond_broadcast(&changed);
  pthread_mutex_unlock(&m);
}
void *writer(void *arg) {
  write_lock();
  x = x + 1;
  y = y + 1;
  write_unlock();
  return 0;
}

void *reader(void *arg) {
  int a, b;
  read_lock();
  a = x;
  b = y;
  read_unlock();
  assert(a == b);
  return 0;
}

int main(void) {
  pthread_t w, r;
  pthread_create(&r, 0, reader, 0);
  pthread_create(&w, 0, writer, 0);
  reader(0);
  pthread_join(w, 0);
  pthread_join(r, 0);
  return 0;
}

/*
 * struct-global.c -- a global struct used as a mailbox (ready flag and data).
 *
 * Expected verdict: SAFE. the writer sets data and ready in one critical
 *   section; the reader tests ready and reads data under the same mutex.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "struct-global.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
struct msg { int ready; int data; };
struct msg box;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *writer(void *arg) {
  pthread_mutex_lock(&m);
  box.data = 42;
  box.ready = 1;
  pthread_mutex_unlock(&m);
  return 0;
}

void *reader(void *arg) {
  pthread_mutex_lock(&m);
  if (box.ready) {
    assert(box.data == 42);
  }
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, writer, 0);
  pthread_create(&t2, 0, reader, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}

/*
 * struct-global-bug.c -- a global struct used as a mailbox (ready flag and data).
 *
 * Expected verdict: UNSAFE. the writer raises ready before it writes
 *   data, without a lock: the reader can see ready == 1 and data == 0
 *   (zero-initialized global).
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "struct-global-bug.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
struct msg { int ready; int data; };
struct msg box;

void *writer(void *arg) {
  box.ready = 1;
  box.data = 42;
  return 0;
}

void *reader(void *arg) {
  if (box.ready) {
    assert(box.data == 42);
  }
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

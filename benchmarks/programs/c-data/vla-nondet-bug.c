/*
 * vla-nondet-bug.c -- a variable-length array whose size n is a nondet value in [1, 4], shared through a global pointer.
 *
 * Expected verdict: UNSAFE. the reader assumes data[0] and data[n-1] are
 *   different cells: with n == 1 the writer overwrites data[0] = 1 with
 *   2, and once the reader sees data[n-1] == 2 it finds data[0] == 2 and
 *   the assert fails.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "vla-nondet-bug.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
int *data;
int len;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *writer(void *arg) {
  pthread_mutex_lock(&m);
  data[0] = 1;
  data[len - 1] = 2;
  pthread_mutex_unlock(&m);
  return 0;
}

void *reader(void *arg) {
  pthread_mutex_lock(&m);
  if (data[len - 1] == 2) {
    assert(data[0] == 1);
  }
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(0 < n && n <= 4);
  int buf[n];
  for (int i = 0; i < n; i++) buf[i] = 0;
  data = buf;
  len = n;
  pthread_create(&t1, 0, writer, 0);
  pthread_create(&t2, 0, reader, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}

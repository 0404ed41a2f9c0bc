/*
 * join-result-bug.c -- thread results: one thread returns (void *)(long)r,
 *   the other ends with pthread_exit((void *)(long)r); main reads both
 *   through pthread_join(t, &res) and (int)(long)res; the -bug twin:
 *   expects the first thread created to take the first ticket.
 *
 * Expected verdict: UNSAFE. main assumes the thread created first takes the
 *   first ticket (r1 == 1): when the second thread runs first, r1 == 2 and
 *   the assert fails.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "join-result-bug.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int next = 0;

int take_ticket(void) {
  int r;
  pthread_mutex_lock(&m);
  next = next + 1;
  r = next;
  pthread_mutex_unlock(&m);
  return r;
}

void *returner(void *arg) {
  int r = take_ticket();
  return (void *)(long)r;
}

void *exiter(void *arg) {
  int r = take_ticket();
  pthread_exit((void *)(long)r);
}

int main(void) {
  pthread_t t1, t2;
  void *res1;
  void *res2;
  int r1, r2;
  pthread_create(&t1, 0, returner, 0);
  pthread_create(&t2, 0, exiter, 0);
  pthread_join(t1, &res1);
  pthread_join(t2, &res2);
  r1 = (int)(long)res1;
  r2 = (int)(long)res2;
  assert(r1 == 1 && r2 == 2);
  return 0;
}

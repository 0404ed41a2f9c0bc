/*
 * struct-local-bug.c -- a struct-typed local (snap) filled from a global struct field by field.
 *
 * Expected verdict: UNSAFE. the reader copies the fields without the
 *   mutex: after the worker writes x = 1 the reader copies x = 1 and y =
 *   0, and snap.x == snap.y fails.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "struct-local-bug.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
struct pair { int x; int y; };
struct pair shared = { 0, 0 };
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  shared.x = shared.x + 1;
  shared.y = shared.y + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

void *reader(void *arg) {
  struct pair snap;
  snap.x = shared.x;
  snap.y = shared.y;
  assert(snap.x == snap.y);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, reader, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}

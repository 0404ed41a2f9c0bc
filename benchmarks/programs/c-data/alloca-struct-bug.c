/*
 * alloca-struct-bug.c -- an alloca'd struct in main's frame, shared with two threads through the thread argument.
 *
 * Expected verdict: UNSAFE. each thread reads b->y and writes y + 2 in
 *   two statements outside the mutex: both read 0, both write 2, and b->y
 *   == 2 fails the assert.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "alloca-struct-bug.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
#include <alloca.h>
struct box { int x; int y; };
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *p) {
  struct box *b = p;
  pthread_mutex_lock(&m);
  b->x = b->x + 1;
  pthread_mutex_unlock(&m);
  int y = b->y;
  b->y = y + 2;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  struct box *b = alloca(sizeof(struct box));
  b->x = 0;
  b->y = 0;
  pthread_create(&t1, 0, worker, b);
  pthread_create(&t2, 0, worker, b);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(b->x == 2 && b->y == 4);
  return 0;
}

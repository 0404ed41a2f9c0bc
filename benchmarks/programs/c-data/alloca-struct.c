/*
 * alloca-struct.c -- an alloca'd struct in main's frame, shared with two threads through the thread argument.
 *
 * Expected verdict: SAFE. main joins both threads before its frame (and
 *   the alloca block) goes away; each thread adds 1 to x and 2 to y in
 *   one critical section.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "alloca-struct.c", 0, "reach_error"); }
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
  b->y = b->y + 2;
  pthread_mutex_unlock(&m);
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

/*
 * struct-ptr-arg.c -- a pointer to a struct (a local of main) passed as the thread argument and read through a->id.
 *
 * Expected verdict: SAFE. each thread gets its own struct (ids 1 and 2)
 *   that nobody writes after the create: sum == 3 after the joins.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "struct-ptr-arg.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
struct arg { int id; };
int sum = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *p) {
  struct arg *a = (struct arg *)p;
  int id = a->id;
  pthread_mutex_lock(&m);
  sum = sum + id;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  struct arg a1, a2;
  a1.id = 1;
  a2.id = 2;
  pthread_create(&t1, 0, worker, &a1);
  pthread_create(&t2, 0, worker, &a2);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(sum == 3);
  return 0;
}

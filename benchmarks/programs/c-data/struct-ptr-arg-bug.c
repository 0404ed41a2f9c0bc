/*
 * struct-ptr-arg-bug.c -- a pointer to a struct (a local of main) passed as the thread argument and read through a->id.
 *
 * Expected verdict: UNSAFE. main reuses one struct for both threads and
 *   sets id = 2 right after the first create: the first thread can read
 *   id 2 too, and sum == 4 fails the assert.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "struct-ptr-arg-bug.c", 0, "reach_error"); }
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
  struct arg a;
  a.id = 1;
  pthread_create(&t1, 0, worker, &a);
  a.id = 2;
  pthread_create(&t2, 0, worker, &a);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(sum == 3);
  return 0;
}

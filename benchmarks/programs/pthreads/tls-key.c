/*
 * tls-key.c -- pthread_key_create/pthread_setspecific/pthread_getspecific/p
 *   thread_key_delete: each thread stores the address of its own local, and
 *   a new thread's value starts as NULL; the -bug twin: expects main's
 *   value for the key in a new thread.
 *
 * Expected verdict: SAFE. a new thread's value for the key is NULL (not
 *   main's); each thread then reads back the pointer it stored itself,
 *   whatever the other thread stored, and main still reads its own 7.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "tls-key.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
pthread_key_t key;

void *worker(void *arg) {
  int mine = *(int *)arg;
  int *before, *p;
  before = pthread_getspecific(key);
  pthread_setspecific(key, &mine);
  p = pthread_getspecific(key);
  assert(before == 0 && p == &mine && *p == *(int *)arg);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  int id1 = 1;
  int id2 = 2;
  int base = 7;
  int *p;
  pthread_key_create(&key, 0);
  pthread_setspecific(key, &base);
  pthread_create(&t1, 0, worker, &id1);
  pthread_create(&t2, 0, worker, &id2);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  p = pthread_getspecific(key);
  assert(p == &base && *p == 7);
  pthread_key_delete(key);
  return 0;
}

/*
 * thread-array.c -- an array of pthread_t created and joined in two loops
 *   of constant bound 3, each thread given the address of its own array
 *   cell as argument; the -bug twin: joins only two.
 *
 * Expected verdict: SAFE. main joins all three threads before it reads sum,
 *   and each adds its id under the mutex, so sum == 1 + 2 + 3.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "thread-array.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int sum = 0;

void *worker(void *arg) {
  int v = *(int *)arg;
  pthread_mutex_lock(&m);
  sum = sum + v;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t[3];
  int ids[3];
  int i, s;
  for (i = 0; i < 3; i++) {
    ids[i] = i + 1;
    pthread_create(&t[i], 0, worker, &ids[i]);
  }
  for (i = 0; i < 3; i++) {
    pthread_join(t[i], 0);
  }
  pthread_mutex_lock(&m);
  s = sum;
  pthread_mutex_unlock(&m);
  assert(s == 6);
  return 0;
}

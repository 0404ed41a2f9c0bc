/*
 * sem-mutex.c -- a POSIX semaphore (sem_init/sem_wait/sem_post/sem_destroy)
 *   of count 1 used as a mutex around a read-modify-write; the -bug twin:
 *   count 2.
 *
 * Expected verdict: SAFE. sem_init(&s, 0, 1) lets one thread at a time
 *   between sem_wait and sem_post, so the read and the write of c are not
 *   interleaved and c == 2.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "sem-mutex.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
#include <semaphore.h>
sem_t s;
int c = 0;

void *worker(void *arg) {
  int t;
  sem_wait(&s);
  t = c;
  c = t + 1;
  sem_post(&s);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  sem_init(&s, 0, 1);
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(c == 2);
  sem_destroy(&s);
  return 0;
}

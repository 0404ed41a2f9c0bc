/*
 * cond-while-bug.c -- pthread_cond_wait in a while loop re-checking its
 *   condition, pthread_cond_signal, PTHREAD_COND_INITIALIZER; one producer
 *   of two items, two consumers (a thread and main); the -bug twin: if
 *   instead of while around the wait.
 *
 * Expected verdict: UNSAFE. take() tests count with if instead of while, so
 *   a woken consumer does not re-check it. The consumer thread waits (count
 *   0); the producer adds an item and signals; before the woken thread re-
 *   acquires m, main takes that item (count 0 again); the woken thread then
 *   decrements count to -1 and the assert fails. A spurious wakeup (POSIX
 *   allows them) gives the same failure with no help from main.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "cond-while-bug.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t nonempty = PTHREAD_COND_INITIALIZER;
int count = 0;

void *producer(void *arg) {
  int i;
  for (i = 0; i < 2; i++) {
    pthread_mutex_lock(&m);
    count = count + 1;
    pthread_cond_signal(&nonempty);
    pthread_mutex_unlock(&m);
  }
  return 0;
}

void take(void) {
  pthread_mutex_lock(&m);
  if (count == 0)
    pthread_cond_wait(&nonempty, &m);
  count = count - 1;
  assert(count >= 0);
  pthread_mutex_unlock(&m);
}

void *consumer(void *arg) {
  take();
  return 0;
}

int main(void) {
  pthread_t p, c;
  pthread_create(&p, 0, producer, 0);
  pthread_create(&c, 0, consumer, 0);
  take();
  pthread_join(p, 0);
  pthread_join(c, 0);
  assert(count == 0);
  return 0;
}

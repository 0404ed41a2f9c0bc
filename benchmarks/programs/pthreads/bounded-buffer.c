/*
 * bounded-buffer.c -- a bounded buffer of 2 slots with a mutex and two
 *   condition variables (not_full, not_empty), all set up with
 *   pthread_mutex_init/pthread_cond_init and torn down with the destroy
 *   calls; main produces 1, 2, 3 and a consumer thread takes them; the -bug
 *   twin: put waits only while count > 2.
 *
 * Expected verdict: SAFE. put waits while the buffer is full and get while
 *   it is empty, each re-testing in a while loop, so no unconsumed item is
 *   overwritten and the consumer takes 1, 2, 3 in order.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "bounded-buffer.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
pthread_mutex_t m;
pthread_cond_t not_full, not_empty;
int buf[2];
int head, tail, count;

void put(int v) {
  pthread_mutex_lock(&m);
  while (count == 2)
    pthread_cond_wait(&not_full, &m);
  buf[tail] = v;
  tail = tail + 1;
  if (tail == 2)
    tail = 0;
  count = count + 1;
  pthread_cond_signal(&not_empty);
  pthread_mutex_unlock(&m);
}

int get(void) {
  int v;
  pthread_mutex_lock(&m);
  while (count == 0)
    pthread_cond_wait(&not_empty, &m);
  v = buf[head];
  head = head + 1;
  if (head == 2)
    head = 0;
  count = count - 1;
  pthread_cond_signal(&not_full);
  pthread_mutex_unlock(&m);
  return v;
}

void *consumer(void *arg) {
  int i, v;
  for (i = 1; i <= 3; i++) {
    v = get();
    assert(v == i);
  }
  return 0;
}

int main(void) {
  pthread_t c;
  int i;
  pthread_mutex_init(&m, 0);
  pthread_cond_init(&not_full, 0);
  pthread_cond_init(&not_empty, 0);
  pthread_create(&c, 0, consumer, 0);
  for (i = 1; i <= 3; i++)
    put(i);
  pthread_join(c, 0);
  pthread_cond_destroy(&not_full);
  pthread_cond_destroy(&not_empty);
  pthread_mutex_destroy(&m);
  return 0;
}

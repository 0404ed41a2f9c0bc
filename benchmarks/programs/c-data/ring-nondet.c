/*
 * ring-nondet.c -- a ring buffer (malloc'd int array) whose capacity cap is a nondet value in [1, 1000], one producer and one consumer under a mutex.
 *
 * Expected verdict: SAFE. the producer puts an item only while count <
 *   cap, writing the slot, advancing tail mod cap and counting in one
 *   critical section; the consumer takes and advances head mod cap in
 *   one: it takes 1 then 2 whatever the capacity (cap == 1 included).
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "ring-nondet.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
int *ring;
int cap;
int head = 0, tail = 0, count = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *producer(void *arg) {
  for (int i = 1; i <= 2; i++) {
    int put = 0;
    while (!put) {
      pthread_mutex_lock(&m);
      if (count < cap) {
        ring[tail] = i;
        tail = (tail + 1) % cap;
        count = count + 1;
        put = 1;
      }
      pthread_mutex_unlock(&m);
    }
  }
  return 0;
}

void *consumer(void *arg) {
  for (int expected = 1; expected <= 2; expected++) {
    int got = 0, v = 0;
    while (!got) {
      pthread_mutex_lock(&m);
      if (count > 0) {
        v = ring[head];
        head = (head + 1) % cap;
        count = count - 1;
        got = 1;
      }
      pthread_mutex_unlock(&m);
    }
    assert(v == expected);
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  cap = __VERIFIER_nondet_int();
  __VERIFIER_assume(0 < cap && cap <= 1000);
  ring = malloc(cap * sizeof(int));
  if (ring == 0) return 0;
  pthread_create(&t1, 0, producer, 0);
  pthread_create(&t2, 0, consumer, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  free(ring);
  return 0;
}

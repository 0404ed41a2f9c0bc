/*
 * work-queue.c -- a work queue on the heap (calloc'd struct with its own mutex, an array of items, head and count): one producer, one consumer.
 *
 * Expected verdict: SAFE. every enqueue and dequeue runs in one critical
 *   section of q->m and the producer writes slot (head + count) % CAP, so
 *   the consumer takes 1 then 2 in FIFO order.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "work-queue.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
#define CAP 2
struct queue { pthread_mutex_t m; int items[CAP]; int head; int count; };
struct queue *q;

void *consumer(void *arg) {
  int expected = 1;
  for (int k = 0; k < 2; k++) {
    int got = 0, v = 0;
    while (!got) {
      pthread_mutex_lock(&q->m);
      if (q->count > 0) {
        v = q->items[q->head];
        q->head = (q->head + 1) % CAP;
        q->count = q->count - 1;
        got = 1;
      }
      pthread_mutex_unlock(&q->m);
    }
    assert(v == expected);
    expected = expected + 1;
  }
  return 0;
}

void *producer(void *arg) {
  for (int i = 1; i <= 2; i++) {
    int done = 0;
    while (!done) {
      pthread_mutex_lock(&q->m);
      if (q->count < CAP) {
        q->items[(q->head + q->count) % CAP] = i;
        q->count = q->count + 1;
        done = 1;
      }
      pthread_mutex_unlock(&q->m);
    }
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  q = calloc(1, sizeof(struct queue));
  if (q == 0) return 0;
  pthread_mutex_init(&q->m, 0);
  pthread_create(&t1, 0, producer, 0);
  pthread_create(&t2, 0, consumer, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}

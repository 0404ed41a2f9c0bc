/*
 * queue-lock.c -- a bounded FIFO queue (a ring buffer over a global array)
 *   guarded by a mutex; one producer and one consumer.
 *
 * Shape: SV-COMP pthread (a queue over a fixed-size global array, head,
 *   tail and count under a lock; enqueue and dequeue retried while full or
 *   empty).  Written for this benchmark.
 *
 * Threads: main; producer enqueues 1, 2, 3, 4 into a queue of QSIZE = 2
 *   slots, retrying while it is full; consumer dequeues 4 values,
 *   retrying while it is empty.
 *
 * Property: first in, first out: the k-th value dequeued is k,
 *   assert(v == expected).
 *
 * Expected verdict: SAFE.  Every enqueue and dequeue is one critical
 *   section that keeps count == (tail - head) mod QSIZE (or QSIZE when
 *   full) and the slots from head on hold the next count values in order.
 *
 * rely explore: no error in any run, 386 / 7,845 states (large blocks /
 *   small steps).
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "queue-lock.c", 25, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

#define QSIZE 2
#define ITEMS 4

int buf[QSIZE];
int head = 0;   /* next slot to dequeue */
int tail = 0;   /* next slot to fill */
int count = 0;  /* values in the queue */
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

/* 1 if v was enqueued, 0 if the queue is full */
int enqueue(int v) {
  int ok = 0;
  pthread_mutex_lock(&m);
  if (count < QSIZE) {
    buf[tail] = v;
    tail = (tail + 1) % QSIZE;
    count = count + 1;
    ok = 1;
  }
  pthread_mutex_unlock(&m);
  return ok;
}

/* 1 and *v = the oldest value, or 0 if the queue is empty */
int dequeue(int *v) {
  int ok = 0;
  pthread_mutex_lock(&m);
  if (count > 0) {
    *v = buf[head];
    head = (head + 1) % QSIZE;
    count = count - 1;
    ok = 1;
  }
  pthread_mutex_unlock(&m);
  return ok;
}

void *producer(void *arg) {
  int k;
  for (k = 1; k <= ITEMS; k++) {
    while (!enqueue(k)) {   /* full: retry */
    }
  }
  return 0;
}

void *consumer(void *arg) {
  int expected;
  int v = 0;
  for (expected = 1; expected <= ITEMS; expected++) {
    while (!dequeue(&v)) {  /* empty: retry */
    }
    assert(v == expected);
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, producer, 0);
  pthread_create(&t2, 0, consumer, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}

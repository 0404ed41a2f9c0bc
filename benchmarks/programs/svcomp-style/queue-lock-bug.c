/*
 * queue-lock-bug.c -- a bounded FIFO queue (a ring buffer over a global
 *   array) whose enqueue reserves a slot under the mutex and fills it
 *   after releasing it; one producer and one consumer.
 *
 * Shape: SV-COMP pthread (a queue over a fixed-size global array, head,
 *   tail and count under a lock).  Written for this benchmark.
 *
 * Threads: main; producer enqueues 1, 2, 3, 4 into a queue of QSIZE = 2
 *   slots, retrying while it is full; consumer dequeues 4 values,
 *   retrying while it is empty.
 *
 * Changed from queue-lock.c: enqueue takes the slot (tail, count) in the
 *   critical section but writes buf[slot] = v after unlocking, so a value
 *   is counted before it is there.
 *
 * Property: first in, first out: the k-th value dequeued is k,
 *   assert(v == expected).
 *
 * Expected verdict: UNSAFE.  An interleaving:
 *     1. producer  lock; slot = 0; tail = 1; count = 1; unlock
 *     2. consumer  lock; count > 0: v = buf[0] (still 0); head = 1;
 *                  count = 0; unlock
 *     3. consumer  assert(v == 1) fails
 *
 * rely explore: error reachable, 80 / 655 states (large blocks / small
 *   steps); an UNSAFE search stops at the first error.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "queue-lock-bug.c", 31, "reach_error"); }
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
  int slot = -1;
  pthread_mutex_lock(&m);
  if (count < QSIZE) {
    slot = tail;
    tail = (tail + 1) % QSIZE;
    count = count + 1;
  }
  pthread_mutex_unlock(&m);
  if (slot < 0) {
    return 0;
  }
  buf[slot] = v;            /* BUG: filled after the slot was published */
  return 1;
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

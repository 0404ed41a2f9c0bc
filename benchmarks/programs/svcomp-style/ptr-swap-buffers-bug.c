/*
 * ptr-swap-buffers-bug.c -- double buffering: a writer fills the back buffer
 *   and then swaps the front and back pointers under a lock; a reader
 *   reads through the front pointer under the same lock.
 *
 * Shape: SV-COMP pthread (global pointers to global buffers, swapped by
 *   one thread while another dereferences them).  Written for this
 *   benchmark.
 *
 * Threads: main; writer: for each of 2 rounds writes the intermediate
 *   value 1 and then the final value 2 into *back, and swaps front and
 *   back under the mutex; reader: 2 times, under the mutex, v = *front.
 *
 * Property: the reader never sees a buffer being written:
 *   assert(v != 1).
 *
 * Expected verdict: UNSAFE.  Changed: the writer swaps first and then
 *   writes its values into the new front buffer, which the reader can
 *   read between the two writes: swap, *front = 1, the reader's
 *   v = *front sees 1.
 *
 * rely explore: error reachable, 137 / 1,140 states (large blocks / small
 *   steps).
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "ptr-swap-buffers-bug.c", 27, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

int buf0 = 2, buf1 = 2;
int *front = &buf0;
int *back = &buf1;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *writer(void *arg) {
  int round;
  int *tmp;
  for (round = 0; round < 2; round++) {
    pthread_mutex_lock(&m);
    tmp = front;
    front = back;
    back = tmp;
    pthread_mutex_unlock(&m);
    *front = 1;
    *front = 2;
  }
  return 0;
}

void *reader(void *arg) {
  int k, v;
  for (k = 0; k < 2; k++) {
    pthread_mutex_lock(&m);
    v = *front;
    pthread_mutex_unlock(&m);
    assert(v != 1);
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, writer, 0);
  pthread_create(&t2, 0, reader, 0);
  return 0;
}

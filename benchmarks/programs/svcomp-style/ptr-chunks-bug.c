/*
 * ptr-chunks-bug.c -- workers claim chunks of a global array under a lock and
 *   walk their chunk with a pointer.
 *
 * Shape: SV-COMP pthread-lit (the work-sharing loop of Sanchez et al.,
 *   SAS 2012, over a fixed-size global array instead of the heap: a
 *   shared index `next` handed out under a lock, each worker writing its
 *   cells through a pointer it advances with p++).  Written for this
 *   benchmark.
 *
 * Threads: main; two workers.  A worker takes CHUNK cells from `next`
 *   under the mutex if that many are left (p = data + next, end = p +
 *   CHUNK), then walks p from its start to end, incrementing each cell.
 *
 * Property: after both joins every cell was incremented exactly once:
 *   assert(data[i] == 1) for each i.
 *
 * Expected verdict: UNSAFE.  Changed: the walk runs while p <= end, one
 *   cell past its chunk.  The first worker to finish its chunk [0, 2)
 *   also increments data[2], which the other worker increments too
 *   (data[2] == 2 fails); the worker with the chunk [2, 4) dereferences
 *   data + 4, one past the array's end (undefined behaviour: rely's error
 *   location too).
 *
 * rely explore: error reachable, 121 / 7,538 states (large blocks / small
 *   steps).
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "ptr-chunks-bug.c", 26, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

#define CHUNK 2
#define N 4

int data[N];
int next = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  int *p, *end;
  pthread_mutex_lock(&m);
  p = data + next;
  end = p;
  if (next + CHUNK <= N) {
    next = next + CHUNK;
    end = p + CHUNK;
  }
  pthread_mutex_unlock(&m);
  while (p <= end) {
    *p = *p + 1;
    p++;
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  int i;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  for (i = 0; i < N; i++) {
    assert(data[i] == 1);
  }
  return 0;
}

/*
 * bluetooth-n10.c -- the stop procedure of a Windows NT Bluetooth driver
 *   with 10 identical worker threads and the stopping thread; unfixed
 *   version (check-then-increment race).
 *
 * Source: S. Qadeer, D. Wu, "KISS: keep it simple and sequential",
 *   PLDI 2004, the Bluetooth driver example (as in ../bluetooth2-fixed.c
 *   and ../bluetooth3-fixed.c).  The device extension counts the threads
 *   inside the driver in pendingIo (starting at 1 for the device itself);
 *   stoppingFlag says a stop is under way; stoppingEvent is signalled when
 *   pendingIo drops to 0; stopped says the device has been stopped.
 *   Written for this benchmark.
 *
 * Threads: N = 10 workers running the same code, created in a constant-
 *   bounded loop, and one stopper.
 *   - worker: IoIncrement (leave if stoppingFlag is set, else increment
 *     pendingIo), the work, which needs the device not stopped, and
 *     IoDecrement (decrement pendingIo atomically, signal stoppingEvent if
 *     it reached 0).
 *   - stopper: sets stoppingFlag, IoDecrement for the device's own count,
 *     waits for stoppingEvent, sets stopped.
 *
 * Bug (as in ../bluetooth2.c): IoIncrement tests stoppingFlag in one step
 *   and increments pendingIo (an interlocked increment) in a later step.
 *
 * Property: a worker inside the driver never sees a stopped device:
 *   assert(!stopped) while it works.
 *
 * Expected verdict: UNSAFE.  An interleaving that breaks it (one worker
 *   suffices; the others may run or not):
 *     1. worker   reads stoppingFlag == 0, so it will enter
 *     2. stopper  stoppingFlag = 1
 *     3. stopper  pendingIo: 1 -> 0 (its IoDecrement)
 *     4. worker   pendingIo: 0 -> 1 (too late: the count was already 0)
 *     5. stopper  sees 0 from its decrement, signals stoppingEvent,
 *                 passes its wait
 *     6. stopper  stopped = 1
 *     7. worker   assert(!stopped) fails
 *
 * rely explore: error reachable, 316,887 states (large blocks), 9-14 s
 *   (the search meets the error late; at N = 2 (-D N=2): 311 states).
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "bluetooth-n10.c", 45, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

#ifndef N
#define N 10   /* workers */
#endif

int pendingIo = 1;     /* threads in the driver, plus 1 for the device */
int stoppingFlag = 0;  /* a stop is under way: no new work may enter */
int stoppingEvent = 0; /* signalled when pendingIo reaches 0 */
int stopped = 0;       /* the device has been stopped */

void __VERIFIER_atomic_interlocked_increment(void) {
  pendingIo = pendingIo + 1;
}

int io_increment(void) {
  if (stoppingFlag) {
    return -1;                 /* the device is stopping */
  }
  __VERIFIER_atomic_interlocked_increment();   /* BUG: a separate step */
  return 0;
}

int __VERIFIER_atomic_interlocked_decrement(void) {
  pendingIo = pendingIo - 1;
  return pendingIo;
}

void io_decrement(void) {
  int left = __VERIFIER_atomic_interlocked_decrement();
  if (left == 0) {
    stoppingEvent = 1;         /* KeSetEvent */
  }
}

void *worker(void *arg) {
  int status = io_increment();
  if (status == 0) {
    assert(!stopped);          /* do the work */
    io_decrement();
  }
  return 0;
}

void *stopper(void *arg) {
  stoppingFlag = 1;
  io_decrement();
  while (!stoppingEvent) {     /* KeWaitForSingleObject */
  }
  stopped = 1;
  return 0;
}

int main(void) {
  pthread_t t[N];
  pthread_t s;
  int i = 0;
  for (i = 0; i < N; i++) {
    pthread_create(&t[i], 0, worker, 0);
  }
  pthread_create(&s, 0, stopper, 0);
  for (i = 0; i < N; i++) {
    pthread_join(t[i], 0);
  }
  pthread_join(s, 0);
  return 0;
}

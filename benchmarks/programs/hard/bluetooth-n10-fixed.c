/*
 * bluetooth-n10-fixed.c -- the stop procedure of a Windows NT Bluetooth driver
 *   with 10 identical worker threads and the stopping thread; fixed version.
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
 * Fix (as in ../bluetooth2-fixed.c): the test of stoppingFlag and the
 *   increment of pendingIo are one atomic step, so a worker either enters
 *   before the flag is set (and the stopper waits for it) or sees the flag.
 *
 * Property: a worker inside the driver never sees a stopped device:
 *   assert(!stopped) while it works.
 *
 * Expected verdict: SAFE
 *
 * rely explore: not exhaustive at N = 10 (the state space grows about
 *   40-fold per two workers; at N = 8 it passes the default bound of
 *   1,000,000 states).  Checked at smaller N with -D N=K (the #ifndef
 *   above): no error in any run at N = 2 / 4 / 6, 337 / 12,329 / 480,749
 *   states (large blocks), 0.05 / 0.3 / about 20 s.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "bluetooth-n10-fixed.c", 39, "reach_error"); }
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

int __VERIFIER_atomic_io_increment(void) {
  if (stoppingFlag) {
    return -1;                 /* the device is stopping */
  }
  pendingIo = pendingIo + 1;   /* FIX: same atomic step as the test */
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
  int status = __VERIFIER_atomic_io_increment();
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

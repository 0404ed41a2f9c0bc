/*
 * bluetooth2.c -- the stop procedure of a Windows NT Bluetooth driver,
 *   with one worker thread and the stopping thread; unfixed version.
 *
 * Source: S. Qadeer, D. Wu, "KISS: keep it simple and sequential",
 *   PLDI 2004, the Bluetooth driver example (benchmark "Bluetooth2" of
 *   Gupta, Popeea, Rybalchenko, POPL 2011, Table 1).  The device extension
 *   counts the threads inside the driver in pendingIo (starting at 1 for
 *   the device itself); stoppingFlag says a stop is under way; the event
 *   stoppingEvent is signalled when pendingIo drops to 0; stopped says the
 *   device has been stopped.  Written for this benchmark from that
 *   description.
 *
 * Threads:
 *   - worker (a dispatch routine): IoIncrement -- if stoppingFlag is set it
 *     leaves; otherwise it increments pendingIo (an interlocked increment,
 *     but the flag test is a separate, earlier step).  It then does its
 *     work, which needs the device not stopped, and IoDecrement: decrement
 *     pendingIo atomically and signal stoppingEvent if it reached 0.
 *   - stopper: sets stoppingFlag, does IoDecrement for the device's own
 *     count, waits for stoppingEvent, and sets stopped.
 *
 * Property: a worker inside the driver never sees a stopped device:
 *   assert(!stopped) while it works.
 *
 * Our verdict differs from Table 1.  Table 1 lists Bluetooth2 as safe (a
 *   proof in 29.1 s).  In this model -- the KISS model, where the test of
 *   stoppingFlag and the increment of pendingIo are two steps -- the
 *   check-then-increment race is reachable with one worker already;
 *   `rely explore` finds it (its trace, 8 steps, replayed):
 *     1. worker  reads stoppingFlag == 0, so it will enter
 *     2. stopper stoppingFlag = 1
 *     3. stopper pendingIo: 1 -> 0 (its IoDecrement)
 *     4. worker  pendingIo: 0 -> 1 (too late: the count was already 0)
 *     5. stopper sees 0 from its decrement and signals stoppingEvent
 *     6. stopper passes its wait on stoppingEvent
 *     7. stopper stopped = 1
 *     8. worker  assert(!stopped) fails
 *   We do not know how the paper's program differs; we keep the verdict
 *   this model has.  bluetooth2-fixed.c makes steps 1 and 4 one atomic
 *   step and is safe.
 *
 * Expected verdict: UNSAFE
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "bluetooth2.c", 47, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

int pendingIo = 1;     /* threads in the driver, plus 1 for the device */
int stoppingFlag = 0;  /* a stop is under way: no new work may enter */
int stoppingEvent = 0; /* signalled when pendingIo reaches 0 */
int stopped = 0;       /* the device has been stopped */

void __VERIFIER_atomic_interlocked_increment(void) {
  pendingIo = pendingIo + 1;
}

int __VERIFIER_atomic_interlocked_decrement(void) {
  pendingIo = pendingIo - 1;
  return pendingIo;
}

int io_increment(void) {
  if (stoppingFlag) {
    return -1;                               /* the device is stopping */
  }
  __VERIFIER_atomic_interlocked_increment(); /* BUG: not atomic with the test */
  return 0;
}

void io_decrement(void) {
  int left = __VERIFIER_atomic_interlocked_decrement();
  if (left == 0) {
    stoppingEvent = 1;                       /* KeSetEvent */
  }
}

void *worker(void *arg) {
  int status = io_increment();
  if (status == 0) {
    assert(!stopped);                        /* do the work */
    io_decrement();
  }
  return 0;
}

void *stopper(void *arg) {
  stoppingFlag = 1;
  io_decrement();
  while (!stoppingEvent) {                   /* KeWaitForSingleObject */
  }
  stopped = 1;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, stopper, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}

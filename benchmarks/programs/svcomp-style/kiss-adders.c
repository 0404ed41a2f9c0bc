/*
 * kiss-adders.c -- a device driver's stop procedure with one stopper and
 *   unboundedly many adders (threads doing I/O), the KISS model.
 *
 * Source: S. Qadeer, D. Wu, "KISS: keep it simple and sequential", PLDI
 *   2004, the Bluetooth driver example: pendingIo counts the threads
 *   inside the driver plus 1 for the device itself; stoppingFlag says a
 *   stop is under way; stoppingEvent is signalled when pendingIo drops to
 *   0; stopped says the device has been stopped.  Written for this
 *   benchmark from that description.
 *
 * Shape: SV-COMP pthread-lit (the Qadeer-Wu stopper and adders) with the
 *   adders created as in pthread-ext, `while (1) pthread_create(...)`.
 *
 * Threads: main creates the stopper, then adders forever.
 *   - adder: enter -- atomically: if stoppingFlag is set, or pendingIo is
 *     at INT_MAX, it refuses; otherwise pendingIo = pendingIo + 1.  If it
 *     entered it does its work, which needs the device not stopped
 *     (assert(!stopped)), and leaves: atomically pendingIo =
 *     pendingIo - 1, and if that made it 0 it signals stoppingEvent.
 *   - stopper: stoppingFlag = 1; leaves for the device itself (the same
 *     decrement and signal); waits for stoppingEvent; stopped = 1.
 *
 * Property: an adder inside the driver never sees a stopped device:
 *   assert(!stopped) while it works.
 *
 * The INT_MAX test keeps pendingIo from overflowing (2^31 - 1 adders
 *   inside at once); without it the count would wrap (or be undefined)
 *   and could come back to 0 with adders inside.
 *
 * Expected verdict: SAFE for any number of adders.  Why: pendingIo ==
 *   (adders inside) + (1 until the stopper's own decrement); the stopper
 *   sets stoppingFlag before its decrement, so once pendingIo reaches 0
 *   no adder can enter, and stoppingEvent is set only when pendingIo
 *   reaches 0, i.e. when no adder is inside.  This proof counts the
 *   adders inside: an invariant relating pendingIo to the number of
 *   threads at a location (A. Farzan, Z. Kincaid, A. Podelski, "Proofs
 *   that count", POPL 2014), not a thread-modular one.
 *
 * Checked: rely rejects the unbounded loop today (unsupported:
 *   unbounded thread creation).  rely explore on copies with the loop
 *   bounded to 1, 2, 3 adders (`for (k = 0; k < K; k++)`): no error in
 *   any run, 48 / 198 / 844 states (large blocks).
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "kiss-adders.c", 47, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

int pendingIo = 1;     /* threads in the driver, plus 1 for the device */
int stoppingFlag = 0;  /* a stop is under way: no new work may enter */
int stoppingEvent = 0; /* signalled when pendingIo reaches 0 */
int stopped = 0;       /* the device has been stopped */

/* IoIncrement: 0 if the thread may enter, -1 if not */
int __VERIFIER_atomic_io_increment(void) {
  if (stoppingFlag || pendingIo == 2147483647) {
    return -1;
  }
  pendingIo = pendingIo + 1;
  return 0;
}

/* the interlocked decrement: the new value */
int __VERIFIER_atomic_io_decrement(void) {
  pendingIo = pendingIo - 1;
  return pendingIo;
}

void io_decrement(void) {
  if (__VERIFIER_atomic_io_decrement() == 0) {
    stoppingEvent = 1;                       /* KeSetEvent */
  }
}

void *adder(void *arg) {
  if (__VERIFIER_atomic_io_increment() == 0) {
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
  pthread_t t;
  pthread_create(&t, 0, stopper, 0);
  while (1) {
    pthread_create(&t, 0, adder, 0);
  }
  return 0;
}

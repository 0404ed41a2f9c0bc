/*
 * kiss-adders-bug.c -- a device driver's stop procedure with one stopper
 *   and unboundedly many adders; an adder still uses the device after it
 *   has left the driver.
 *
 * Source: S. Qadeer, D. Wu, "KISS: keep it simple and sequential", PLDI
 *   2004, the Bluetooth driver example, as in kiss-adders.c.  Written for
 *   this benchmark from that description.
 *
 * Shape: SV-COMP pthread-lit (the Qadeer-Wu stopper and adders) with the
 *   adders created as in pthread-ext, `while (1) pthread_create(...)`.
 *
 * Threads: main creates the stopper, then adders forever (as in
 *   kiss-adders.c).
 *
 * Changed from kiss-adders.c: the adder's work comes after its
 *   io_decrement (it uses the device after giving back its reference).
 *
 * Property: an adder never sees a stopped device: assert(!stopped) where
 *   it works.
 *
 * Expected verdict: UNSAFE, with 1 adder.  An interleaving:
 *     1. adder    enters: stoppingFlag == 0, pendingIo = 2
 *     2. stopper  stoppingFlag = 1
 *     3. stopper  pendingIo = 1 (its own decrement): not 0
 *     4. adder    pendingIo = 0: signals stoppingEvent
 *     5. stopper  stoppingEvent == 1: stopped = 1
 *     6. adder    assert(!stopped) fails
 *
 * Checked: rely rejects the unbounded loop today (unsupported:
 *   unbounded thread creation).  rely explore on copies with the loop
 *   bounded to 1, 2, 3 adders (`for (k = 0; k < K; k++)`): error
 *   reachable with each, 53 / 205 / 722 states (large blocks; an UNSAFE
 *   search stops at the first error).
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "kiss-adders-bug.c", 38, "reach_error"); }
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
    io_decrement();
    assert(!stopped);                        /* BUG: work after leaving */
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

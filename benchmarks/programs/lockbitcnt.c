/*
 * lockbitcnt.c -- the paper's example LockBitCnt (Fig. 12) from Gupta, Popeea, Rybalchenko,
 *   POPL'11, §6: LockBit where thread 1 first increments its local counter cnt and
 *   assumes cnt >= 1 (rho_0), then takes the lock (rho_1).
 *
 * Our lowering merges the thread-local rho_0 into the following rho_1 (large blocks):
 *   the transition from thread 1's entry is rho_0 ; rho_1.
 *
 * Property: mutual exclusion, written as in lockbit.c.
 *
 * Expected verdict: SAFE
 */
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
extern void reach_error(void);

int lock = 0;
int x = 0;

void __VERIFIER_atomic_take_lock(int v) {
  __VERIFIER_assume(lock == 0);
  lock = v;
}

void *thr1(void *arg) {
  int cnt = 0;
  cnt++;                           /* x: cnt++; assume(cnt >= 1) */
  __VERIFIER_assume(cnt >= 1);
  __VERIFIER_atomic_take_lock(1);  /* a: take_lock(lock, 1) */
  x = 1;                           /* b: critical */
  assert(x == 1);
  return 0;
}

void *thr2(void *arg) {
  __VERIFIER_atomic_take_lock(1);  /* p: take_lock(lock, 1) */
  x = 2;                           /* q: critical */
  assert(x == 2);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, thr1, 0);
  pthread_create(&t2, 0, thr2, 0);
  return 0;
}

/*
 * lockid.c -- the paper's example LockId (Fig. 3) from Gupta, Popeea, Rybalchenko,
 *   "Predicate Abstraction and Refinement for Verifying Multi-Threaded Programs", POPL'11, §2.
 *
 * Each thread waits until lock == 0 and then sets lock to its own id (1 or 2: the lock records
 *   its owner, so a modular proof over lock and the thread's own pc exists).
 *   take_lock is one atomic step, as in the paper: rho_i = (lock = 0 && lock' = 1/2 && pc_i = a && pc_i' = b).
 *
 * Property: mutual exclusion. The paper's phi_err is "both threads at their critical
 *   section"; C cannot name another thread's pc, so each thread writes the shared x
 *   in its critical section and asserts it reads back its own value.
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
  __VERIFIER_atomic_take_lock(1); /* a: take_lock(lock, 1) */
  x = 1;                      /* b: critical */
  assert(x == 1);
  return 0;
}

void *thr2(void *arg) {
  __VERIFIER_atomic_take_lock(2); /* p: take_lock(lock, 2) */
  x = 2;                      /* q: critical */
  assert(x == 2);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, thr1, 0);
  pthread_create(&t2, 0, thr2, 0);
  return 0;
}

/*
 * qrcu.c -- Quick Read-Copy Update (QRCU): two readers and an updater.
 *
 * Algorithm: P. E. McKenney's QRCU ("QRCU with lockless fastpath", Linux
 *   kernel mailing list, 2007; "Using Promela and Spin to verify parallel
 *   algorithms", LWN.net, 2007).  Two counters ctr[0], ctr[1] and an index
 *   `completed` select the counter readers use; the current counter
 *   starts at 1 (a bias that keeps it non-zero while it is current).
 *     read_lock:    repeat { idx = completed; } until atomic_inc_not_zero(&ctr[idx])
 *     read_unlock:  atomic_dec(&ctr[idx]) (waking the updater if it hits 0)
 *     synchronize:  lock the updater mutex; idx = completed;
 *                   if ctr[idx] == 1, there are no readers: done (fast path);
 *                   otherwise ctr[!idx]++, completed = !idx, ctr[idx]--,
 *                   and wait until ctr[idx] == 0; unlock the mutex.
 *   Written for this benchmark from the algorithm; the index is kept in
 *   {0, 1} instead of taking `completed & 1`, and the wait queue is a
 *   busy wait.
 *
 * Threads: two readers, each running one read-side critical section, and
 *   one updater running one grace period (synchronize).
 *
 * Property: a grace period waits for the readers that were already inside
 *   when it started.  Ghost flags in1, in2 are set in the same atomic step
 *   as a reader's successful increment and cleared with its decrement.
 *   The updater copies them before it starts synchronize and afterwards
 *   asserts that a reader it saw inside is no longer inside (each reader
 *   enters once, so it would still be the same visit).
 *
 * Expected verdict: SAFE
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "qrcu.c", 33, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

int ctr[2] = {1, 0};  /* reader counters; the current one carries a bias of 1 */
int completed = 0;    /* index of the current counter, 0 or 1 */
pthread_mutex_t mutex; /* serialises updaters */
int in1 = 0, in2 = 0; /* ghost: reader i holds a counter reference */

int __VERIFIER_atomic_inc_not_zero(int idx, int id) {
  if (ctr[idx] > 0) {
    ctr[idx] = ctr[idx] + 1;
    if (id == 1) {
      in1 = 1;
    } else {
      in2 = 1;
    }
    return 1;
  }
  return 0;
}

void __VERIFIER_atomic_reader_dec(int idx, int id) {
  ctr[idx] = ctr[idx] - 1;
  if (id == 1) {
    in1 = 0;
  } else {
    in2 = 0;
  }
}

void __VERIFIER_atomic_inc(int idx) {
  ctr[idx] = ctr[idx] + 1;
}

void __VERIFIER_atomic_dec(int idx) {
  ctr[idx] = ctr[idx] - 1;
}

int qrcu_read_lock(int id) {
  int idx = 0, ok = 0;
  while (!ok) {
    idx = completed;
    ok = __VERIFIER_atomic_inc_not_zero(idx, id);
  }
  return idx;
}

void qrcu_read_unlock(int idx, int id) {
  __VERIFIER_atomic_reader_dec(idx, id); /* wake_up: the updater polls */
}

void synchronize_qrcu(void) {
  int idx = 0, c = 0;
  pthread_mutex_lock(&mutex);
  idx = completed;
  c = ctr[idx];
  if (c != 1) {                      /* readers present: slow path */
    __VERIFIER_atomic_inc(1 - idx);  /* the other counter becomes current */
    completed = 1 - idx;
    __VERIFIER_atomic_dec(idx);      /* drop the old counter's bias */
    c = ctr[idx];
    while (c != 0) {                 /* wait for the old readers */
      c = ctr[idx];
    }
  }
  pthread_mutex_unlock(&mutex);
}

void *reader1(void *arg) {
  int idx = qrcu_read_lock(1);
  /* read-side critical section */
  qrcu_read_unlock(idx, 1);
  return 0;
}

void *reader2(void *arg) {
  int idx = qrcu_read_lock(2);
  /* read-side critical section */
  qrcu_read_unlock(idx, 2);
  return 0;
}

void *updater(void *arg) {
  int s1 = in1;
  int s2 = in2;
  synchronize_qrcu();
  assert((s1 == 0 || in1 == 0) && (s2 == 0 || in2 == 0));
  return 0;
}

int main(void) {
  pthread_t t1, t2, t3;
  pthread_mutex_init(&mutex, 0);
  pthread_create(&t1, 0, reader1, 0);
  pthread_create(&t2, 0, reader2, 0);
  pthread_create(&t3, 0, updater, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  pthread_join(t3, 0);
  return 0;
}

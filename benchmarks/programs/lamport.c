/*
 * lamport.c -- Lamport's fast mutual exclusion algorithm for two threads.
 *
 * Algorithm: L. Lamport, "A fast mutual exclusion algorithm", ACM TOCS
 *   5(1):1-11, 1987.  Shared x and y hold thread ids (y = 0: free),
 *   b[i] says thread i is trying.  Thread i:
 *     start: b[i] = true;  x = i;
 *            if (y != 0) { b[i] = false; await y == 0; goto start; }
 *            y = i;
 *            if (x != i) { b[i] = false;
 *                          for each j: await !b[j];
 *                          if (y != i) { await y == 0; goto start; } }
 *            critical section;
 *            y = 0;  b[i] = false;
 *   In the absence of contention a thread enters with a constant number
 *   of steps (the fast path).  Written for this benchmark from the
 *   algorithm, for two threads with ids 1 and 2; `goto start` is a loop.
 *
 * Threads: two threads (ids 1 and 2), each entering its critical section
 *   once (it may go back to start any number of times).
 *
 * Property: mutual exclusion.  In its critical section thread i writes
 *   the shared global cs = i and then asserts cs == i.
 *
 * Expected verdict: SAFE
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "lamport.c", 29, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

int x = 0;             /* the last thread to enter the doorway */
int y = 0;             /* the thread owning the fast path, 0 if none */
int b1 = 0, b2 = 0;    /* thread i is trying to enter */
int cs = 0;            /* written in the critical sections */

void *thr1(void *arg) {
  int entered = 0;
  while (!entered) {
    b1 = 1;
    x = 1;
    if (y != 0) {
      b1 = 0;
      while (y != 0) {
      }
      continue;                 /* goto start */
    }
    y = 1;
    if (x != 1) {
      b1 = 0;
      while (b1 != 0) {         /* await !b[1] (its own flag: already clear) */
      }
      while (b2 != 0) {         /* await !b[2] */
      }
      if (y != 1) {
        while (y != 0) {
        }
        continue;               /* goto start */
      }
    }
    entered = 1;
  }
  /* critical section */
  cs = 1;
  assert(cs == 1);
  y = 0;
  b1 = 0;
  return 0;
}

void *thr2(void *arg) {
  int entered = 0;
  while (!entered) {
    b2 = 1;
    x = 2;
    if (y != 0) {
      b2 = 0;
      while (y != 0) {
      }
      continue;                 /* goto start */
    }
    y = 2;
    if (x != 2) {
      b2 = 0;
      while (b1 != 0) {         /* await !b[1] */
      }
      while (b2 != 0) {         /* await !b[2] (its own flag: already clear) */
      }
      if (y != 2) {
        while (y != 0) {
        }
        continue;               /* goto start */
      }
    }
    entered = 1;
  }
  /* critical section */
  cs = 2;
  assert(cs == 2);
  y = 0;
  b2 = 0;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, thr1, 0);
  pthread_create(&t2, 0, thr2, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}

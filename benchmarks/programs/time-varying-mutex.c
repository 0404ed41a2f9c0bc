/*
 * time-varying-mutex.c -- shared data whose protecting lock changes over
 *   time: which of two mutexes guards x is decided by a phase variable.
 *
 * Source: the "time-varying mutex" pattern (benchmark "Time-varying mutex"
 *   of Gupta, Popeea, Rybalchenko, POPL 2011, Table 1): no single lock
 *   protects x for the whole run.  While phase == 0, x belongs to the
 *   holder of mutex a; while phase == 1, to the holder of mutex b.  The
 *   phase is changed only by a thread that holds both mutexes.  Written
 *   for this benchmark from that description.
 *
 * Threads: thread 1 takes a; if phase == 0 it uses x (x = 1), then takes b
 *   as well, switches phase to 1 and releases both.  Thread 2 takes b; if
 *   phase == 1 it uses x (x = 2); it releases b.  Each runs once.
 *
 * Property: mutual exclusion on x: each thread writes x and asserts that
 *   it reads back its own value, which fails only if the other thread
 *   writes x in between.
 *
 * Note: Table 1 says no modular proof exists for the paper's program.  In
 *   this version the mutexes record their owner (rely's model of
 *   pthread_mutex), and `rely verify` finds a modular proof.
 *
 * Expected verdict: SAFE
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "time-varying-mutex.c", 28, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

pthread_mutex_t a, b;
int phase = 0; /* 0: a protects x; 1: b protects x */
int x = 0;

void *thr1(void *arg) {
  pthread_mutex_lock(&a);
  if (phase == 0) {
    x = 1;
    assert(x == 1);
    pthread_mutex_lock(&b);  /* hand x over to b's holders */
    phase = 1;
    pthread_mutex_unlock(&b);
  }
  pthread_mutex_unlock(&a);
  return 0;
}

void *thr2(void *arg) {
  pthread_mutex_lock(&b);
  if (phase == 1) {
    x = 2;
    assert(x == 2);
  }
  pthread_mutex_unlock(&b);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_mutex_init(&a, 0);
  pthread_mutex_init(&b, 0);
  pthread_create(&t1, 0, thr1, 0);
  pthread_create(&t2, 0, thr2, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}

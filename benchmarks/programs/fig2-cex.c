/*
 * fig2-cex.c -- an order violation: a thread uses an object before its
 *   creator has published it.
 *
 * Source: the Mozilla order-violation bug used as an example by S. Lu,
 *   S. Park, E. Seo, Y. Zhou, "Learning from mistakes: a comprehensive
 *   study on real world concurrency bug characteristics", ASPLOS 2008
 *   (benchmark "Fig2" of Gupta, Popeea, Rybalchenko, POPL 2011, Table 1).
 *   The creating thread writes `mThread = PR_CreateThread(mMain, ...)`;
 *   the new thread's start routine mMain reads `mThread->State` at once,
 *   and nothing makes it wait for the assignment.  Written for this
 *   benchmark from that description.
 *
 * Threads: main creates the thread mMain and then stores the new thread's
 *   handle in the shared mThread (0 stands for NULL, 1 for the handle) and
 *   marks the thread running; mMain reads mThread and copies its state.
 *
 * Property: the publication happens before the use: mMain asserts that
 *   mThread is not NULL when it dereferences it.
 *
 * Breaking interleaving: mMain runs right after pthread_create, before
 *   main has assigned mThread, and reads mThread == 0.
 *
 * Expected verdict: UNSAFE
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "fig2-cex.c", 28, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

int mThread = 0;      /* the handle of the new thread; 0 is NULL */
int mThreadState = 0; /* mThread->State: 0 unset, 1 running */
int mState = 0;       /* mMain's copy of the state */

void *mMain(void *arg) {
  int t = mThread;
  assert(t != 0);             /* mState = mThread->State dereferences mThread */
  mState = mThreadState;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, mMain, 0); /* PR_CreateThread(mMain, ...) */
  mThreadState = 1;
  mThread = 1;                     /* mThread = <its return value> */
  pthread_join(t, 0);
  return 0;
}

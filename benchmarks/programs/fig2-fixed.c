/*
 * fig2-fixed.c -- the order violation of fig2-cex.c, fixed with a lock.
 *
 * Source: the Mozilla order-violation bug used as an example by S. Lu,
 *   S. Park, E. Seo, Y. Zhou, "Learning from mistakes: a comprehensive
 *   study on real world concurrency bug characteristics", ASPLOS 2008
 *   (benchmark "Fig2" of Gupta, Popeea, Rybalchenko, POPL 2011, Table 1).
 *   The creating thread writes `mThread = PR_CreateThread(mMain, ...)`;
 *   the new thread's start routine mMain reads `mThread->State`.  The fix
 *   makes mMain wait: the creator holds a lock from before the creation
 *   until after the assignment, and mMain takes the same lock before it
 *   uses mThread.  Written for this benchmark from that description.
 *
 * Threads: main takes the lock, creates mMain, stores the handle in the
 *   shared mThread (0 stands for NULL, 1 for the handle), marks the thread
 *   running and releases the lock; mMain takes the lock, reads mThread,
 *   copies its state and releases the lock.
 *
 * Property: the publication happens before the use: mMain asserts that
 *   mThread is not NULL when it dereferences it.
 *
 * Expected verdict: SAFE
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "fig2-fixed.c", 26, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

pthread_mutex_t mLock;  /* held by the creator until mThread is set */
int mThread = 0;        /* the handle of the new thread; 0 is NULL */
int mThreadState = 0;   /* mThread->State: 0 unset, 1 running */
int mState = 0;         /* mMain's copy of the state */

void *mMain(void *arg) {
  int t = 0;
  pthread_mutex_lock(&mLock);   /* wait until the creator is done */
  t = mThread;
  assert(t != 0);               /* mState = mThread->State dereferences mThread */
  mState = mThreadState;
  pthread_mutex_unlock(&mLock);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_mutex_init(&mLock, 0);
  pthread_mutex_lock(&mLock);
  pthread_create(&t, 0, mMain, 0); /* PR_CreateThread(mMain, ...) */
  mThreadState = 1;
  mThread = 1;                     /* mThread = <its return value> */
  pthread_mutex_unlock(&mLock);
  pthread_join(t, 0);
  return 0;
}

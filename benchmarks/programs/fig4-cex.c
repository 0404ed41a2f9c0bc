/*
 * fig4-cex.c -- a multi-variable order violation: the entries of a cache
 *   and the flag that says the cache is empty are updated by two threads
 *   in separate steps, and the steps of the two threads interleave.
 *
 * Source: the Mozilla multi-variable bug in the JavaScript engine's
 *   property cache discussed by S. Lu, S. Park, E. Seo, Y. Zhou, "Learning
 *   from mistakes: a comprehensive study on real world concurrency bug
 *   characteristics", ASPLOS 2008 (benchmark "Fig4" of Gupta, Popeea,
 *   Rybalchenko, POPL 2011, Table 1).  The cache has a table of entries
 *   and a flag `empty`; the two must agree: if empty is set, no entry is
 *   filled.  Filling writes an entry and then clears `empty`; flushing
 *   clears the entries and then sets `empty`.  In this version each write
 *   is protected by the cache lock, but the lock is released between the
 *   two writes of one operation.  Written for this benchmark from that
 *   description.
 *
 * Threads: a filler fills entry 0 and then entry 1; a flusher flushes the
 *   whole cache once.  main waits for both and then checks the cache.
 *
 * Property: the two writes of a flush are not separated by a fill in the
 *   wrong order: after both threads are done, empty == 1 implies that
 *   every entry is clear.
 *
 * Breaking interleaving (the one `rely explore` finds): the flusher clears
 *   the table; the filler fills entries 0 and 1, clearing empty each time;
 *   the flusher sets empty = 1.  Now the cache says it is empty but both
 *   entries hold objects.
 *
 * Expected verdict: UNSAFE
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "fig4-cex.c", 34, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

pthread_mutex_t cacheLock; /* protects each single write to the cache */
int table0 = 0;            /* entry 0: 0 clear, else the object cached */
int table1 = 0;            /* entry 1 */
int empty = 1;             /* 1 iff the cache has been flushed and not filled since */
int fills = 0;             /* number of fills done (statistics) */

void cache_fill(int entry, int obj) {
  pthread_mutex_lock(&cacheLock);
  if (entry == 0) {
    table0 = obj;
  } else {
    table1 = obj;
  }
  pthread_mutex_unlock(&cacheLock);
  /* BUG: the lock is dropped between the entry and the flag */
  pthread_mutex_lock(&cacheLock);
  empty = 0;
  fills = fills + 1;
  pthread_mutex_unlock(&cacheLock);
}

void cache_flush(void) {
  pthread_mutex_lock(&cacheLock);
  table0 = 0;
  table1 = 0;
  pthread_mutex_unlock(&cacheLock);
  /* BUG: the lock is dropped between the entries and the flag */
  pthread_mutex_lock(&cacheLock);
  empty = 1;
  fills = 0;
  pthread_mutex_unlock(&cacheLock);
}

void *filler(void *arg) {
  cache_fill(0, 7);
  cache_fill(1, 9);
  return 0;
}

void *flusher(void *arg) {
  cache_flush();
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_mutex_init(&cacheLock, 0);
  pthread_create(&t1, 0, filler, 0);
  pthread_create(&t2, 0, flusher, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(empty == 0 || (table0 == 0 && table1 == 0));
  return 0;
}

/*
 * fig4-fixed.c -- the multi-variable order violation of fig4-cex.c, fixed:
 *   each cache operation holds the cache lock across all of its writes.
 *
 * Source: the Mozilla multi-variable bug in the JavaScript engine's
 *   property cache discussed by S. Lu, S. Park, E. Seo, Y. Zhou, "Learning
 *   from mistakes: a comprehensive study on real world concurrency bug
 *   characteristics", ASPLOS 2008 (benchmark "Fig4" of Gupta, Popeea,
 *   Rybalchenko, POPL 2011, Table 1).  The cache has a table of entries
 *   and a flag `empty`; the two must agree: if empty is set, no entry is
 *   filled.  Filling writes an entry and then clears `empty`; flushing
 *   clears the entries and then sets `empty`.  In the fix each operation
 *   does both of its writes in one critical section, so the writes of a
 *   fill and a flush can no longer interleave.  Written for this benchmark
 *   from that description.
 *
 * Threads: a filler fills entry 0 and then entry 1; a flusher flushes the
 *   whole cache once; a reader looks at the cache under the lock once.
 *   main waits for the filler and the flusher and then checks the cache.
 *
 * Property: after both threads are done, empty == 1 implies that every
 *   entry is clear; the reader checks the same whenever it holds the lock.
 *
 * Expected verdict: SAFE
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "fig4-fixed.c", 28, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

pthread_mutex_t cacheLock; /* protects the whole cache */
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
  empty = 0;               /* FIX: same critical section as the entry */
  fills = fills + 1;
  pthread_mutex_unlock(&cacheLock);
}

void cache_flush(void) {
  pthread_mutex_lock(&cacheLock);
  table0 = 0;
  table1 = 0;
  empty = 1;               /* FIX: same critical section as the entries */
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

void *reader(void *arg) {
  int e = 0, a = 0, b = 0;
  pthread_mutex_lock(&cacheLock);
  e = empty;
  a = table0;
  b = table1;
  assert(e == 0 || (a == 0 && b == 0));
  pthread_mutex_unlock(&cacheLock);
  return 0;
}

int main(void) {
  pthread_t t1, t2, t3;
  pthread_mutex_init(&cacheLock, 0);
  pthread_create(&t1, 0, filler, 0);
  pthread_create(&t2, 0, flusher, 0);
  pthread_create(&t3, 0, reader, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(empty == 0 || (table0 == 0 && table1 == 0));
  return 0;
}

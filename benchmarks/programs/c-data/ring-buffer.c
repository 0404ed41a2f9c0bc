/*
 * ring-buffer.c -- a ring buffer (global int array) whose start position is a nondet index, guarded by __VERIFIER_atomic_begin/end sections of several statements.
 *
 * Expected verdict: SAFE. the producer writes the slot, advances tail and
 *   publishes count in one atomic section; the consumer reads and
 *   advances in one atomic section: it takes 1 then 2 whatever the start.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "ring-buffer.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
#define N 4
int ring[N];
int head, tail, count;

void *consumer(void *arg) {
  for (int expected = 1; expected <= 2; expected++) {
    int got = 0, v = 0;
    while (!got) {
      __VERIFIER_atomic_begin();
      if (count > 0) {
        v = ring[head];
        head = (head + 1) % N;
        count = count - 1;
        got = 1;
      }
      __VERIFIER_atomic_end();
    }
    assert(v == expected);
  }
  return 0;
}

void *producer(void *arg) {
  for (int i = 1; i <= 2; i++) {
    __VERIFIER_atomic_begin();
    ring[tail] = i;
    tail = (tail + 1) % N;
    count = count + 1;
    __VERIFIER_atomic_end();
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  int start = __VERIFIER_nondet_int();
  __VERIFIER_assume(0 <= start && start < N);
  head = start;
  tail = start;
  pthread_create(&t1, 0, producer, 0);
  pthread_create(&t2, 0, consumer, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}

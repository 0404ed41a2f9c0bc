/*
 * sem-prodcons-bug.c -- producer/consumer over a 2-slot buffer with three
 *   semaphores: empty (count 2), full (count 0) and a binary one guarding
 *   the indices; the -bug twin: empty starts at 3.
 *
 * Expected verdict: UNSAFE. empty starts at 3 for a buffer of 2 slots: the
 *   producer can put 1, 2 and then 3 into slot 0 before the consumer takes
 *   1, and the consumer reads 3 where v == 1 is asserted.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "sem-prodcons-bug.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
#include <semaphore.h>
sem_t empty, full, guard;
int buf[2];
int in = 0;
int out = 0;

void *producer(void *arg) {
  int i;
  for (i = 1; i <= 3; i++) {
    sem_wait(&empty);
    sem_wait(&guard);
    buf[in] = i;
    in = in + 1;
    if (in == 2)
      in = 0;
    sem_post(&guard);
    sem_post(&full);
  }
  return 0;
}

void *consumer(void *arg) {
  int i, v;
  for (i = 1; i <= 3; i++) {
    sem_wait(&full);
    sem_wait(&guard);
    v = buf[out];
    out = out + 1;
    if (out == 2)
      out = 0;
    sem_post(&guard);
    sem_post(&empty);
    assert(v == i);
  }
  return 0;
}

int main(void) {
  pthread_t p, c;
  sem_init(&empty, 0, 3);
  sem_init(&full, 0, 0);
  sem_init(&guard, 0, 1);
  pthread_create(&p, 0, producer, 0);
  pthread_create(&c, 0, consumer, 0);
  pthread_join(p, 0);
  pthread_join(c, 0);
  sem_destroy(&empty);
  sem_destroy(&full);
  sem_destroy(&guard);
  return 0;
}

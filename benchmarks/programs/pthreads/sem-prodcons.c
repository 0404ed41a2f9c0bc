/*
 * sem-prodcons.c -- producer/consumer over a 2-slot buffer with three
 *   semaphores: empty (count 2), full (count 0) and a binary one guarding
 *   the indices; the -bug twin: empty starts at 3.
 *
 * Expected verdict: SAFE. the producer waits on empty, whose count is the
 *   number of free slots, so it never overwrites an item the consumer has
 *   not taken; the consumer takes 1, 2, 3 in order.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "sem-prodcons.c", 0, "reach_error"); }
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
  sem_init(&empty, 0, 2);
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

/*
 * malloc-array.c -- a malloc'd int array (3 cells); each thread writes its own cell.
 *
 * Expected verdict: SAFE. the threads write different cells and main
 *   reads them only after both joins: a[0] + a[1] + a[2] == 3.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "malloc-array.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
int *a;

void *first(void *arg) {
  a[0] = 1;
  return 0;
}

void *second(void *arg) {
  a[1] = 2;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  a = malloc(3 * sizeof(int));
  if (a == 0) return 0;
  for (int i = 0; i < 3; i++) a[i] = 0;
  pthread_create(&t1, 0, first, 0);
  pthread_create(&t2, 0, second, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(a[0] + a[1] + a[2] == 3);
  free(a);
  return 0;
}

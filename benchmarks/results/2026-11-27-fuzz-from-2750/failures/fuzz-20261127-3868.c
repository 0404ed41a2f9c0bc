extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "gen.c", 3, "reach_error"); }
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

signed char x0 = 'a';
unsigned int x1 = 1;
int a0[4];
int a1[1];
pthread_mutex_t m0 = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER;
void *t0(void *arg) {
  __VERIFIER_assume(((-2 / 3) * (x1 ? __VERIFIER_nondet_int() : 'a')));
  while ((!(123456789012345678901234567890) % 1)) {

  }
  a0[3]--;
  return 0;
}
int main(void) {
  pthread_t h0;
  pthread_create(&h0, 0, t0, 0);
  for (int i2 = 0; i2 < 3; i2++) {

  }
  pthread_mutex_lock(&m1);
  switch (((2147483647 > 0xFFFFFFFFFFFFFFFF) < ((_Bool) __VERIFIER_nondet_int()))) {

  default: {
    while (x0) {

    }
  }
  }
  assert(((__VERIFIER_nondet_int() && x0) > -2));
  if (!('a')) reach_error();
  pthread_join(h0, 0);
  return 0;
}

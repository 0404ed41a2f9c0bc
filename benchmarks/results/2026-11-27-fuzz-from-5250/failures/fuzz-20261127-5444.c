#include <pthread.h>
#include <assert.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

char x0 = 0x1ffffffffffffffff;
int a0[2];
pthread_mutex_t m0 = PTHREAD_MUTEX_INITIALIZER;
void *t0(void *arg) {
  assert(((char) 'a'));
  if ((9223372036854775808 / 5)) {

  }
  __VERIFIER_assume(((2147483648 / 6) ? (x0 || 0x7fffffff) : (__VERIFIER_nondet_int() >= 99999999999999999999)));
  if (!(1)) reach_error();
  return 0;
}
int main(void) {
  pthread_t h0;
  pthread_create(&h0, 0, t0, 0);
  switch ((x0 ? (__VERIFIER_nondet_int() % 6) : (5 || x0))) {
  case 3: {

  } break;
  case -1: {
    a0[1] %= !(-('\0'));
    a0[0] *= __VERIFIER_nondet_int();
    pthread_mutex_unlock(&m0);
  } break;
  default: {

  }
  }
  while (a0[1]) {
    pthread_mutex_unlock(&m0);
  }
  while (((9 <= 3) > a0[1LL])) {
    __VERIFIER_atomic_begin();
    {
      pthread_mutex_unlock(&m0);
      assert((x0 >= (x0 || __VERIFIER_nondet_int())));
      pthread_mutex_unlock(&m0);
    }
    __VERIFIER_atomic_end();
    pthread_mutex_lock(&m0);
    L1_132651: {
      break;
    }
    if (__VERIFIER_nondet_int()) goto L1_132651;
  }
  a0[1]++;
  pthread_join(h0, 0);
  return 0;
}

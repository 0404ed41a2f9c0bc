#include <pthread.h>
void reach_error(void) {}
int __VERIFIER_nondet_int(void);
void __VERIFIER_assume(int cond);
void assert(int cond) { if (!cond) { ERROR: reach_error(); } }

unsigned int x0 = 2;
int x1 = 123456789012345678901234567890;
pthread_mutex_t m0 = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER;
int f(int p) {
  if (p > 2) return p / 2;
  return p % 3 + x0;
}
void *t0(void *arg) {
  L2_134619: {
    switch (-((0xFFFFFFFFFFFFFFFF ? 9 : __VERIFIER_nondet_int()))) {
    case 2: {
      __VERIFIER_assume(((char) x1));
      if (!(((unsigned char) (x1 && __VERIFIER_nondet_int())))) reach_error();
      __VERIFIER_assume(4294967295u);
    } break;
    case 2: {
      pthread_mutex_lock(&m1);
    }
    }
    pthread_mutex_unlock(&m0);
  }
  if (__VERIFIER_nondet_int()) goto L2_134619;
  pthread_mutex_lock(&m1);
  __VERIFIER_atomic_begin();
  {
    f((0x1ffffffffffffffff > f(x0)));
    x0++;
    if (!(f((x1 / 1)))) reach_error();
  }
  __VERIFIER_atomic_end();
  pthread_mutex_lock(&m0);
  {
    __VERIFIER_atomic_begin();
    {
      f((__VERIFIER_nondet_int() > x1));
      x0--;
      pthread_mutex_lock(&m1);
    }
    __VERIFIER_atomic_end();
    L1_726618: {

    }
    if (__VERIFIER_nondet_int()) goto L1_726618;
  }
  pthread_mutex_unlock(&m0);
  return 0;
}
void *t1(void *arg) {
  for (int i2 = 0; i2 < 0; i2++) {
    if (f((x1 != 123456789012345678901234567890))) {
      x0 = __VERIFIER_nondet_int();
      ;
      break;
    }
  }
  x1--;
  __VERIFIER_atomic_begin();
  {
    assert((__VERIFIER_nondet_int() ? -(__VERIFIER_nondet_int()) : f(10)));
    pthread_mutex_unlock(&m1);
  }
  __VERIFIER_atomic_end();
  while (((int) (-1 + __VERIFIER_nondet_int()))) {

  }
  return 0;
}
int main(void) {
  pthread_t h0;
  pthread_t h1;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_mutex_lock(&m0);
  __VERIFIER_assume(((__VERIFIER_nondet_int() && x1) - (-2 * 123456789012345678901234567890)));
  x1 += x0;
  if ((__VERIFIER_nondet_int() == (0777 - __VERIFIER_nondet_int()))) {
    pthread_mutex_lock(&m0);
    {
      if (!((((unsigned long long) x0) >= (123456789012345678901234567890 || x1)))) reach_error();
      pthread_mutex_unlock(&m1);
      if (!(f(1LL))) reach_error();
    }
    pthread_mutex_unlock(&m0);
    x0++;
    switch (0xffffffff) {
    case 1: {
      x0--;
      assert(__VERIFIER_nondet_int());
    } break;
    }
  } else {

  }
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  return 0;
}

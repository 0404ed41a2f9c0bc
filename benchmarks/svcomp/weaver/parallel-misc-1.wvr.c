// This file is part of the SV-Benchmarks collection of verification tasks:
// https://gitlab.com/sosy-lab/benchmarking/sv-benchmarks
//
// SPDX-FileCopyrightText: 2021 F. Schuessele <schuessf@informatik.uni-freiburg.de>
// SPDX-FileCopyrightText: 2021 D. Klumpp <klumpp@informatik.uni-freiburg.de>
//
// SPDX-License-Identifier: LicenseRef-BSD-3-Clause-Attribution-Vandikas

typedef unsigned long int pthread_t;

union pthread_attr_t
{
  char __size[36];
  long int __align;
};
typedef union pthread_attr_t pthread_attr_t;

extern void __assert_fail(const char *__assertion, const char *__file,
      unsigned int __line, const char *__function)
     __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "misc-1.wvr.c", 21, __extension__ __PRETTY_FUNCTION__); }
extern int pthread_create (pthread_t *__restrict __newthread,
      const pthread_attr_t *__restrict __attr,
      void *(*__start_routine) (void *),
      void *__restrict __arg) __attribute__ ((__nothrow__)) __attribute__ ((__nonnull__ (1, 3)));
extern int pthread_join (pthread_t __th, void **__thread_return);

extern int   __VERIFIER_nondet_int(void);
extern _Bool __VERIFIER_nondet_bool(void);

extern void abort(void);
void assume_abort_if_not(int cond) {
  if(!cond) {abort();}
}

int* A;
int bag1, bag2, cap1, cap2, sum1, sum2, i, j, N;

int *create_fresh_int_array(int size);

void* thread1() {
  while (( i < N )) {
    if (( ( bag1 + A[i] ) < cap1 )) {
      bag1 = ( bag1 + A[i] );

    }
    else {
      sum1 = ( sum1 + bag1 );
      bag1 = A[i];

    }
    i++;
  }
  sum1 = ( sum1 + bag1 );
  return 0;
}

void* thread2() {
  while (( j < N )) {
    if (( ( bag2 + A[j] ) < cap2 )) {
      bag2 = ( bag2 + A[j] );

    }
    else {
      sum2 = ( sum2 + bag2 );
      bag2 = A[j];

    }
    j++;
  }
  sum2 = ( sum2 + bag2 );
  return 0;
}

void main() {
  pthread_t t1, t2;

  // initialize global variables
  bag1 = __VERIFIER_nondet_int();
  bag2 = __VERIFIER_nondet_int();
  cap1 = __VERIFIER_nondet_int();
  cap2 = __VERIFIER_nondet_int();
  sum1 = __VERIFIER_nondet_int();
  sum2 = __VERIFIER_nondet_int();
  i    = __VERIFIER_nondet_int();
  j    = __VERIFIER_nondet_int();
  N    = __VERIFIER_nondet_int();
  A    = create_fresh_int_array(N);

  // main method
  assume_abort_if_not( bag1 == bag2 && bag1 == sum1 && bag1 == sum2 && bag1 == i && bag1 == j && bag1 == 0 );

  pthread_create(&t1, 0, thread1, 0);
  pthread_create(&t2, 0, thread2, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);

  assume_abort_if_not( sum1 != sum2 );
  reach_error();
}

int *create_fresh_int_array(int size) {
  assume_abort_if_not(size >= 0);

  int* arr = (int*)malloc(sizeof(int) * size);
  for (int i = 0; i < size; i++) {
    arr[i] = __VERIFIER_nondet_int();
  }
  return arr;
}
/*
 * struct-array-bug.c -- an array of structs (accts[i].bal).
 *
 * Expected verdict: UNSAFE. the auditor reads the two balances in two
 *   statements without the mutex: after the debit and before the credit
 *   it reads 5 and 10, and the sum 15 fails the assert.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "struct-array-bug.c", 0, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>
#include <stdlib.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
struct acct { int bal; int ops; };
struct acct accts[2] = { { 10, 0 }, { 10, 0 } };
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *transfer(void *arg) {
  pthread_mutex_lock(&m);
  accts[0].bal = accts[0].bal - 5;
  accts[1].bal = accts[1].bal + 5;
  accts[0].ops = accts[0].ops + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

void *audit(void *arg) {
  int s = accts[0].bal;
  s = s + accts[1].bal;
  assert(s == 20);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, transfer, 0);
  pthread_create(&t2, 0, audit, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}

/** Programs that create threads into a pthread_t array by a loop whose bound is known only at run time. */

/**
 * Thread i sets d[i] (its argument is i); n in [1, cells] threads are created into
 * t[0..n-1]; `joins` and `check` follow; k is in [0, 2].
 */
export const flags = (cells: number, joins: string, check: string, extra = '') => `
extern _Bool __VERIFIER_nondet_bool(void);
int d[${cells + 1}];
void *w(void *a) { d[(int) a] = 1; return 0; }
int main() {
  pthread_t t[${cells}];
  int i;
  _Bool b1 = __VERIFIER_nondet_bool(), b2 = ${cells > 2 ? '__VERIFIER_nondet_bool()' : '0'};
  _Bool c1 = __VERIFIER_nondet_bool(), c2 = __VERIFIER_nondet_bool();
  int n = 1 + b1 + b2, k = c1 + c2;
  ${extra}
  for (i = 0; i < n; i++) pthread_create(&t[i], 0, w, (void *) i);
  ${joins}
  ${check}
  return 0;
}`;

/** Joins every thread created. */
export const JOIN_ALL = 'for (i = 0; i < n; i++) pthread_join(t[i], 0);';

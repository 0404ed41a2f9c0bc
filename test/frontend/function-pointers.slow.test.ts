/**
 * Function pointers, the constructs whose agreement takes longest: the thread function
 * through a typedef'd variable, and a function passed as an argument and returned, each
 * SAFE and UNSAFE, by the explorer and the engines. The others are in function-pointers.test.ts.
 */
import { describe } from 'vitest';
import { agreeOnMutations, verdictsAgree } from '../helpers.js';

const agree = verdictsAgree('rely-fp-slow-');

const CASES: [name: string, what: string, safe: string, swap: string][] = [
  [
    'thread-typedef',
    'the thread function through a typedef\'d variable (unsafe: g may be dec)',
    `typedef void *(*task_fn)(void *); int x; pthread_mutex_t m;
     void *inc(void *a) { pthread_mutex_lock(&m); x = x + 1; pthread_mutex_unlock(&m); return 0; }
     void *dec(void *a) { pthread_mutex_lock(&m); x = x - 1; pthread_mutex_unlock(&m); return 0; }
     extern int __VERIFIER_nondet_int(void);
     int main() { pthread_t t1, t2; task_fn f = inc; task_fn g = __VERIFIER_nondet_int() ? inc : inc;
       pthread_create(&t1, 0, f, 0); pthread_create(&t2, 0, g, 0); pthread_join(t1, 0); pthread_join(t2, 0);
       if (x != 2) reach_error(); return 0; }`,
    '? inc : inc|? inc : dec',
  ],
  [
    'parameter',
    'a function passed as an argument and returned as a result, a global initialized with one, `&inc` as the thread function',
    `int x; int add1(int v) { return v + 1; } int sub1(int v) { return v - 1; }
     int apply(int (*g)(int), int v) { return g(v); }
     int (*pick(int c))(int) { if (c) return add1; return sub1; }
     void *inc(void *a) { x = x + 1; return 0; } void *(*gf)(void *) = inc;
     extern int __VERIFIER_nondet_int(void);
     int main() { int r = apply(&sub1, apply(add1, 1)); int (*h)(int) = pick(__VERIFIER_nondet_int());
       pthread_t t, t2; pthread_create(&t, 0, gf, 0); pthread_create(&t2, 0, &inc, 0); pthread_join(t, 0); pthread_join(t2, 0);
       if (r != 1 || x != 2 || (h(r) != 2 && h(r) != 0)) reach_error(); return 0; }`,
    'h(r) != 2 && h(r) != 0|h(r) != 2',
  ],
];

describe('function pointers: verdicts agree with the explorer', () => {
  agreeOnMutations(CASES, agree);
});

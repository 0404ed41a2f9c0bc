/**
 * Pointers, the constructs whose agreement takes longest: a pointer walking an array, and
 * main's local passed to two threads by its address, each SAFE and UNSAFE, by the
 * explorer and the engines. The others are in pointers.test.ts.
 */
import { describe } from 'vitest';
import { agreeOnMutations, verdictsAgree } from '../helpers.js';

const agree = verdictsAgree('rely-ptr-slow-');

const CASES: [name: string, what: string, safe: string, unsafe: string][] = [
  [
    'walk',
    'a pointer walks an array by p++ (the unsafe one runs one past the end: an invalid dereference)',
    `int a[3];
     void *w(void *arg) { int *p = a; while (p < a + 3) { *p = *p + 1; p++; } return 0; }
     int main() { pthread_t t; pthread_create(&t, 0, w, 0); pthread_join(t, 0); if (a[0] + a[1] + a[2] != 3) reach_error(); return 0; }`,
    'p < a + 3|p <= a + 3',
  ],
  [
    'thread-arg',
    "&x of main's local passed to two threads as their argument (unsafe: the increments race without the mutex)",
    `pthread_mutex_t m;
     void *inc(void *arg) { int *q = (int *)arg; pthread_mutex_lock(&m); *q = *q + 1; pthread_mutex_unlock(&m); return 0; }
     int main() { int x = 0; pthread_t t1, t2; pthread_mutex_init(&m, 0);
       pthread_create(&t1, 0, inc, &x); pthread_create(&t2, 0, inc, &x);
       pthread_join(t1, 0); pthread_join(t2, 0); if (x != 2) reach_error(); return 0; }`,
    'pthread_mutex_lock(&m); *q = *q + 1; pthread_mutex_unlock(&m);|*q = *q + 1;',
  ],
];

describe('pointers: verdicts agree with the explorer', () => {
  agreeOnMutations(CASES, agree);
});

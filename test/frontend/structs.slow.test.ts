/**
 * C's data, the constructs whose agreement takes longest: a global struct with a mutex
 * member, and a local struct as the threads' argument, each SAFE and UNSAFE, by the
 * explorer and the engines. The others are in structs.test.ts.
 */
import { describe } from 'vitest';
import { agreeOnMutations, verdictsAgree } from '../helpers.js';

const agree = verdictsAgree('rely-struct-slow-');

const CASES: [name: string, what: string, safe: string, unsafe: string][] = [
  [
    'global',
    'a global struct with a mutex member (&c.m) and a counter, typedef of the struct and of the thread function type',
    `typedef void *(*start_t)(void *);
     typedef struct { int count; pthread_mutex_t m; } Counter;
     Counter c = { 0, PTHREAD_MUTEX_INITIALIZER };
     void *w(void *arg) { pthread_mutex_lock(&c.m); int v = c.count; c.count = v + 1; pthread_mutex_unlock(&c.m); return 0; }
     int main() { pthread_t t1, t2; pthread_create(&t1, 0, (start_t)w, 0); pthread_create(&t2, 0, w, 0);
       pthread_join(t1, 0); pthread_join(t2, 0); if (c.count != 2) reach_error(); return 0; }`,
    'pthread_mutex_lock(&c.m); int v = c.count; c.count = v + 1; pthread_mutex_unlock(&c.m);|int v = c.count; c.count = v + 1;',
  ],
  [
    'thread-arg',
    "a local struct passed to two threads as their argument, cast back to struct S *; p->x under p->m",
    `struct S { int x; pthread_mutex_t m; int y; };
     void *inc(void *arg) { struct S *p = (struct S *)arg; pthread_mutex_lock(&p->m); p->x = p->x + 1; pthread_mutex_unlock(&p->m); return 0; }
     int main() { struct S s = { 0, PTHREAD_MUTEX_INITIALIZER, 5 }; pthread_t t1, t2;
       pthread_create(&t1, 0, inc, &s); pthread_create(&t2, 0, inc, &s);
       pthread_join(t1, 0); pthread_join(t2, 0); if (s.x != 2 || s.y != 5) reach_error(); return 0; }`,
    'pthread_mutex_lock(&p->m); p->x = p->x + 1; pthread_mutex_unlock(&p->m);|p->x = p->x + 1;',
  ],
];

describe('structs: verdicts agree with the explorer', () => {
  agreeOnMutations(CASES, agree);
});

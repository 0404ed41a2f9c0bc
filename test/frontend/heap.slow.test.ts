/**
 * The heap's constructs whose agreement takes longest: a malloc'd struct as the threads'
 * argument, a malloc'd array and a calloc'd queue indexed at run time, each SAFE and its
 * mutation UNSAFE, by the explorer and the engines. The others are in heap.test.ts.
 */
import { describe } from 'vitest';
import { agreeOnMutations, verdictsAgree, type MutationCase } from '../helpers.js';

const agree = verdictsAgree('rely-heap-slow-');
const agreeNondet = verdictsAgree('rely-heap-slow-', { nondetCells: true });

/** malloc'd memory is any value until written: the explicit engines enumerate it only within a range (verdictsAgree's nondetCells). */
const MALLOC: MutationCase[] = [
  [
    'malloc-struct',
    'a malloc\'d struct given to two threads as their argument (a pointer computed at run time), counted under a mutex',
    `#include <stdlib.h>
     struct S { int n; pthread_mutex_t m; };
     void *w(void *a) { struct S *s = a; pthread_mutex_lock(&s->m); s->n = s->n + 1; pthread_mutex_unlock(&s->m); return 0; }
     int main() { struct S *s = malloc(sizeof(struct S)); s->n = 0; pthread_mutex_init(&s->m, 0);
       pthread_t t1, t2; pthread_create(&t1, 0, w, s); pthread_create(&t2, 0, w, s);
       pthread_join(t1, 0); pthread_join(t2, 0); if (s->n != 2) reach_error(); return 0; }`,
    'if (s->n != 2)|if (s->n != 1)',
  ],
  [
    'malloc-array',
    'an int array of sizeof(int) * 3 bytes in a global pointer, indexed at run time; its cells start as any value',
    `#include <stdlib.h>
     int *a; int i;
     void *w(void *x) { a[i] = 7; return 0; }
     int main() { a = (int *)malloc(3 * sizeof(int)); a[0] = 0; a[1] = 0; a[2] = 0; i = __VERIFIER_nondet_bool() + __VERIFIER_nondet_bool(); pthread_t t; pthread_create(&t, 0, w, 0); pthread_join(t, 0);
       if (a[0] + a[1] + a[2] != 7) reach_error(); return 0; }`,
    'a[2] = 0;|a[2] = 1;',
  ],
];

const CALLOC: MutationCase[] = [
  [
    'calloc-queue',
    'a calloc\'d struct (zero) with an array member indexed at run time through the pointer (q->items[q->head])',
    `#include <stdlib.h>
     struct Q { int items[2]; int head; int count; };
     struct Q *q;
     void *w(void *x) { q->items[q->head] = 5; q->count = q->count + 1; return 0; }
     int main() { q = calloc(1, sizeof(struct Q)); q->head = __VERIFIER_nondet_bool();
       pthread_t t; pthread_create(&t, 0, w, 0); pthread_join(t, 0);
       if (q->items[q->head] != 5 || q->items[1 - q->head] != 0) reach_error(); return 0; }`,
    'q->items[1 - q->head] != 0|q->items[1 - q->head] != 5',
  ],
];

describe('the heap: each construct, SAFE and UNSAFE, agreed by the explorer and the engines', () => {
  agreeOnMutations(MALLOC, agreeNondet, 120_000);
  agreeOnMutations(CALLOC, agree, 120_000);
});

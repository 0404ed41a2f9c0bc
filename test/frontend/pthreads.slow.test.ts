/**
 * The pthread library and atomics, the constructs whose agreement takes longest (read-write
 * locks, barriers, recursive mutexes, spinlocks with trylock, C11's atomics, a struct
 * holding a mutex pointer as the threads' argument): each SAFE, and its mutation UNSAFE,
 * by the explorer and the engines. The others are in pthreads.test.ts.
 */
import { describe } from 'vitest';
import { agreeOnMutations, verdictsAgree, type MutationCase } from '../helpers.js';

const agree = verdictsAgree('rely-pthreads-slow-');

const CASES: MutationCase[] = [
  [
    'rwlock',
    'readers share, a writer excludes them (UNSAFE: the writer takes a read lock)',
    `pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER; int x, y;
     void *writer(void *a) { pthread_rwlock_wrlock(&rw); x++; y++; pthread_rwlock_unlock(&rw); return 0; }
     void *reader(void *a) { pthread_rwlock_rdlock(&rw); if (x != y) reach_error(); pthread_rwlock_unlock(&rw); return 0; }
     int main() { pthread_t t1, t2, t3; pthread_create(&t1, 0, writer, 0); pthread_create(&t2, 0, reader, 0); pthread_create(&t3, 0, reader, 0); return 0; }`,
    'pthread_rwlock_wrlock(&rw)|pthread_rwlock_rdlock(&rw)',
  ],
  [
    'barrier',
    'a barrier of count 2 separates two phases, and exactly one waiter gets PTHREAD_BARRIER_SERIAL_THREAD (UNSAFE: count 1)',
    `pthread_barrier_t b; int a0, a1, serial;
     void *t(void *x) { a1 = 1; if (pthread_barrier_wait(&b) == PTHREAD_BARRIER_SERIAL_THREAD) serial++; if (!a0) reach_error(); return 0; }
     int main() { pthread_barrier_init(&b, 0, 2); pthread_t h; pthread_create(&h, 0, t, 0);
       a0 = 1; if (pthread_barrier_wait(&b) == PTHREAD_BARRIER_SERIAL_THREAD) serial++; if (!a1) reach_error();
       pthread_join(h, 0); if (serial != 1) reach_error(); return 0; }`,
    'pthread_barrier_init(&b, 0, 2)|pthread_barrier_init(&b, 0, 1)',
  ],
  [
    'mutex-recursive',
    "a recursive mutex's owner locks it twice and holds it until the second unlock (UNSAFE: unlocked once more, while inside)",
    `pthread_mutex_t m; pthread_mutexattr_t a; int inside;
     void *w(void *x) { pthread_mutex_lock(&m); pthread_mutex_lock(&m); pthread_mutex_unlock(&m); inside = 1; inside = 0; pthread_mutex_unlock(&m); return 0; }
     int main() { pthread_mutexattr_init(&a); pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE); pthread_mutex_init(&m, &a);
       pthread_t t; pthread_create(&t, 0, w, 0); pthread_mutex_lock(&m); if (inside) reach_error(); pthread_mutex_unlock(&m); return 0; }`,
    'pthread_mutex_unlock(&m); inside = 1;|pthread_mutex_unlock(&m); pthread_mutex_unlock(&m); inside = 1;',
  ],
  [
    'spin-trylock',
    'a spinlock and pthread_mutex_trylock guard their sections (UNSAFE: trylock result ignored)',
    `pthread_spinlock_t s; pthread_mutex_t m; int c, d;
     void *w(void *a) { pthread_spin_lock(&s); c++; if (c != 1) reach_error(); c--; pthread_spin_unlock(&s);
       if (pthread_mutex_trylock(&m) == 0) { d++; if (d != 1) reach_error(); d--; pthread_mutex_unlock(&m); } return 0; }
     int main() { pthread_spin_init(&s, 0); pthread_t t1, t2; pthread_create(&t1, 0, w, 0); pthread_create(&t2, 0, w, 0); return 0; }`,
    'if (pthread_mutex_trylock(&m) == 0)|pthread_mutex_trylock(&m); if (1)',
  ],
  [
    'c11-atomics',
    'atomic_fetch_add, and a compare-exchange loop that reloads the expected value on failure (UNSAFE: atomic_load then atomic_store)',
    `atomic_int n; _Atomic int m;
     void *w(void *a) { atomic_fetch_add(&n, 1); int e = atomic_load(&m); while (!atomic_compare_exchange_weak(&m, &e, e + 1)) ; return 0; }
     int main() { pthread_t t1, t2; pthread_create(&t1, 0, w, 0); pthread_create(&t2, 0, w, 0); pthread_join(t1, 0); pthread_join(t2, 0);
       if (n != 2 || m != 2) reach_error(); return 0; }`,
    'atomic_fetch_add(&n, 1);|atomic_store(&n, atomic_load(&n) + 1);',
  ],
];

/** Monolithic Spacer times out on these SAFE ones and the ARET is slow on their bugs (pointers stored in structs): the ARET and the explicit engine prove them, bmc and the explicit engine find the bugs. */
const WITHOUT_MONOLITHIC: MutationCase[] = [
  [
    'struct-argument',
    'a struct holding a pointer to a mutex is the threads\' argument (UNSAFE: one thread skips the lock)',
    `typedef struct { pthread_mutex_t *m; int *counter; int skip; } Arg;
     pthread_mutex_t lock; int count;
     void *w(void *p) { Arg *a = p; if (!a->skip) pthread_mutex_lock(a->m); int v = *a->counter; *a->counter = v + 1; if (!a->skip) pthread_mutex_unlock(a->m); return 0; }
     Arg a1, a2;
     int main() { a1.m = &lock; a1.counter = &count; a1.skip = 0; a2.m = &lock; a2.counter = &count; a2.skip = 0;
       pthread_t t1, t2; pthread_create(&t1, 0, w, &a1); pthread_create(&t2, 0, w, &a2); pthread_join(t1, 0); pthread_join(t2, 0);
       if (count != 2) reach_error(); return 0; }`,
    'a2.skip = 0;|a2.skip = 1;',
  ],
];

describe('the pthread library and atomics: SAFE and UNSAFE agree', () => {
  agreeOnMutations(CASES, agree, 300_000);
  agreeOnMutations(WITHOUT_MONOLITHIC, (name, src, safe) => agree(name, src, safe, safe ? ['aret', 'explicit-global'] : ['bmc', 'explicit-global']), 300_000);
});

/**
 * The pthread library and atomics: condition variables, read-write locks,
 * barriers, semaphores, spinlocks, trylock, pthread_once, thread-specific data, join
 * results, GCC's and C11's atomics, `_Atomic` and `__thread`. Each construct in a SAFE
 * program and the mutation that makes it UNSAFE, agreed by the explorer (exhaustive)
 * and the engines; then the refusals that remain, each located. The constructs whose
 * agreement takes longest are in pthreads.slow.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { agreeOnMutations, lower, refusedCases, verdictsAgree, type MutationCase } from '../helpers.js';

const agree = verdictsAgree('rely-pthreads-');

const CASES: MutationCase[] = [
  [
    'cond-while',
    'a waiter re-tests its condition in a while loop (UNSAFE with if: POSIX allows a spurious wakeup, which the trace shows)',
    `pthread_mutex_t m; pthread_cond_t c = PTHREAD_COND_INITIALIZER; int ready, data;
     void *producer(void *a) { pthread_mutex_lock(&m); data = 42; ready = 1; pthread_cond_signal(&c); pthread_mutex_unlock(&m); return 0; }
     void *consumer(void *a) { pthread_mutex_lock(&m); while (!ready) pthread_cond_wait(&c, &m);
       if (data != 42) reach_error(); pthread_mutex_unlock(&m); return 0; }
     int main() { pthread_t p, q; pthread_create(&p, 0, producer, 0); pthread_create(&q, 0, consumer, 0); return 0; }`,
    'while (!ready)|if (!ready)',
  ],
  [
    'cond-timedwait',
    'pthread_cond_timedwait returns 0 or ETIMEDOUT, with the mutex retaken either way (UNSAFE: a time-out taken as a signal)',
    `pthread_mutex_t m; pthread_cond_t c; int ready; struct timespec ts;
     void *setter(void *a) { pthread_mutex_lock(&m); ready = 1; pthread_cond_broadcast(&c); pthread_mutex_unlock(&m); return 0; }
     int main() { pthread_t t; pthread_cond_init(&c, 0); pthread_create(&t, 0, setter, 0);
       pthread_mutex_lock(&m); int r = 0; while (!ready && r != ETIMEDOUT) r = pthread_cond_timedwait(&c, &m, &ts);
       if (r == 0 && !ready) reach_error(); pthread_mutex_unlock(&m); return 0; }`,
    'if (r == 0 && !ready)|if (!ready)',
  ],
  [
    'rwlock-try',
    'pthread_rwlock_trywrlock fails with EBUSY while a reader holds the lock (UNSAFE: its result ignored)',
    `pthread_rwlock_t rw; int inside;
     void *reader(void *a) { pthread_rwlock_rdlock(&rw); inside = 1; inside = 0; pthread_rwlock_unlock(&rw); return 0; }
     int main() { pthread_rwlock_init(&rw, 0); pthread_t t; pthread_create(&t, 0, reader, 0);
       int r = pthread_rwlock_trywrlock(&rw);
       if (r == 0) { if (inside) reach_error(); pthread_rwlock_unlock(&rw); } else if (r != EBUSY) reach_error(); return 0; }`,
    'if (r == 0) {|if (1) {',
  ],
  [
    'mutex-errorcheck',
    "an error-checking mutex refuses an unlock by a thread that does not hold it (EPERM) (UNSAFE: a normal one, which rely frees whoever unlocks it)",
    `pthread_mutex_t m; pthread_mutexattr_t a; int inside;
     void *w(void *x) { pthread_mutex_lock(&m); inside = 1; inside = 0; pthread_mutex_unlock(&m); return 0; }
     int main() { pthread_mutexattr_init(&a); pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK); pthread_mutex_init(&m, &a);
       pthread_t t; pthread_create(&t, 0, w, 0);
       if (pthread_mutex_unlock(&m) != EPERM) { pthread_mutex_lock(&m); if (inside) reach_error(); pthread_mutex_unlock(&m); } return 0; }`,
    'PTHREAD_MUTEX_ERRORCHECK|PTHREAD_MUTEX_NORMAL',
  ],
  [
    'semaphore',
    'a semaphore of value 1 is a mutex (UNSAFE: value 2)',
    `sem_t s; int inside;
     void *w(void *a) { sem_wait(&s); inside++; if (inside > 1) reach_error(); inside--; sem_post(&s); return 0; }
     int main() { sem_init(&s, 0, 1); pthread_t t1, t2; pthread_create(&t1, 0, w, 0); pthread_create(&t2, 0, w, 0); return 0; }`,
    'sem_init(&s, 0, 1)|sem_init(&s, 0, 2)',
  ],
  [
    'sem-trywait',
    'sem_trywait takes a positive value or returns -1 at once (UNSAFE: its result ignored)',
    `sem_t s; int taken;
     void *w(void *a) { if (sem_trywait(&s) == 0) { taken++; if (taken > 1) reach_error(); } return 0; }
     int main() { sem_init(&s, 0, 1); pthread_t t1, t2; pthread_create(&t1, 0, w, 0); pthread_create(&t2, 0, w, 0); return 0; }`,
    'if (sem_trywait(&s) == 0)|sem_trywait(&s); if (1)',
  ],
  [
    'once',
    'pthread_once runs its function once, and a second caller waits until it has run (UNSAFE: a hand-made flag)',
    `pthread_once_t o = PTHREAD_ONCE_INIT; int runs, ready, flag;
     void init(void) { runs++; ready = 1; }
     void *w(void *a) { pthread_once(&o, init); if (!ready || runs != 1) reach_error(); return 0; }
     int main() { pthread_t t1, t2; pthread_create(&t1, 0, w, 0); pthread_create(&t2, 0, w, 0); return 0; }`,
    'pthread_once(&o, init);|if (!flag) { flag = 1; init(); }',
  ],
  [
    'sync-fetch-add',
    '__sync_fetch_and_add is one step (UNSAFE: a load and a store of the counter, two steps)',
    `int n;
     void *w(void *a) { __sync_fetch_and_add(&n, 1); return 0; }
     int main() { pthread_t t1, t2; pthread_create(&t1, 0, w, 0); pthread_create(&t2, 0, w, 0); pthread_join(t1, 0); pthread_join(t2, 0);
       if (n != 2) reach_error(); return 0; }`,
    '__sync_fetch_and_add(&n, 1);|int v = n; n = v + 1;',
  ],
  [
    'sync-cas-lock',
    'a spinlock built on __sync_bool_compare_and_swap (UNSAFE: the result of the swap ignored)',
    `int lock, inside;
     void *w(void *a) { while (!__sync_bool_compare_and_swap(&lock, 0, 1)) ; inside++; if (inside != 1) reach_error(); inside--; __sync_lock_release(&lock); return 0; }
     int main() { pthread_t t1, t2; pthread_create(&t1, 0, w, 0); pthread_create(&t2, 0, w, 0); return 0; }`,
    'while (!__sync_bool_compare_and_swap(&lock, 0, 1)) ;|__sync_bool_compare_and_swap(&lock, 0, 1);',
  ],
  [
    'atomic-increment',
    '++ of an _Atomic unsigned char is one step, its wrap included (UNSAFE: not _Atomic, where rely splits the wrapping store into a test and a write)',
    `_Atomic unsigned char c = 254; int done;
     void *w(void *a) { c++; return 0; }
     int main() { pthread_t t1, t2; pthread_create(&t1, 0, w, 0); pthread_create(&t2, 0, w, 0); pthread_join(t1, 0); pthread_join(t2, 0);
       if (c != 0) reach_error(); return 0; }`,
    '_Atomic unsigned char c|unsigned char c',
  ],
  [
    'thread-local',
    'each thread has its own __thread copy, initialised from the declaration (UNSAFE: a plain global)',
    `__thread int mine = 5;
     void bump(void) { mine++; }
     void *w(void *a) { bump(); mine++; if (mine != 7) reach_error(); return 0; }
     int main() { pthread_t t1, t2; pthread_create(&t1, 0, w, 0); pthread_create(&t2, 0, w, 0); pthread_join(t1, 0); pthread_join(t2, 0);
       if (mine != 5) reach_error(); return 0; }`,
    '__thread int mine|int mine',
  ],
  [
    'key',
    "pthread_getspecific gives the calling thread's value, NULL in a new thread (UNSAFE: the worker expects main's)",
    `pthread_key_t key; int base = 7;
     void *w(void *a) { int *before = pthread_getspecific(key); if (before != 0) reach_error(); return 0; }
     int main() { pthread_key_create(&key, 0); pthread_setspecific(key, &base); pthread_t t; pthread_create(&t, 0, w, 0);
       int *p = pthread_getspecific(key); if (*p != 7) reach_error(); return 0; }`,
    'if (before != 0)|if (before == 0)',
  ],
  [
    'key-destructor',
    "a thread's end runs the key's destructor on its non-NULL value (UNSAFE: the destructor's check expects another value)",
    `pthread_key_t key; int seen;
     void dtor(void *v) { seen = (int)(long)v; }
     void *w(void *a) { pthread_setspecific(key, (void *)42); return 0; }
     int main() { pthread_key_create(&key, dtor); pthread_setspecific(key, (void *)16); pthread_t t; pthread_create(&t, 0, w, 0); pthread_join(t, 0);
       if (seen != 42) reach_error(); return 0; }`,
    'if (seen != 42)|if (seen != 16)',
  ],
  [
    'join-result',
    'pthread_join passes the value the thread returned or gave pthread_exit (UNSAFE: the other thread\'s value expected)',
    `void finish(int v) { pthread_exit((void *)(long)v); }
     void *one(void *a) { return (void *)1; }
     void *two(void *a) { finish(2); return 0; }
     int main() { pthread_t t1, t2; void *r1, *r2; pthread_create(&t1, 0, one, 0); pthread_create(&t2, 0, two, 0);
       pthread_join(t1, &r1); pthread_join(t2, &r2); if ((long)r1 != 1 || (long)r2 != 2) reach_error(); return 0; }`,
    '(long)r2 != 2|(long)r2 != 1',
  ],
  [
    'self-equal',
    'pthread_self is the calling thread\'s id, stored into pthread_t variables and compared by pthread_equal (UNSAFE: compared with the other thread)',
    `pthread_t seen1, seen2;
     void *one(void *a) { seen1 = pthread_self(); return 0; }
     void *two(void *a) { pthread_t me = pthread_self(); seen2 = me; return 0; }
     int main() { pthread_t t1, t2; pthread_create(&t1, 0, one, 0); pthread_create(&t2, 0, two, 0); pthread_join(t1, 0); pthread_join(t2, 0);
       if (!pthread_equal(t1, seen1) || !pthread_equal(seen2, t2) || pthread_equal(seen1, seen2) || pthread_equal(pthread_self(), seen1)) reach_error(); return 0; }`,
    '!pthread_equal(t1, seen1)|!pthread_equal(t2, seen1)',
  ],
  [
    'self-handle-store',
    'a thread compares its id with the pthread_t its creator stores, once the creator says it has (UNSAFE without waiting: POSIX lets the thread run before the store)',
    `pthread_t w; int ready;
     void *f(void *a) { __VERIFIER_assume(ready); if (pthread_self() != w || pthread_equal(w, w) == 0) reach_error(); return 0; }
     int main() { pthread_create(&w, 0, f, 0); ready = 1; pthread_join(w, 0); return 0; }`,
    '__VERIFIER_assume(ready);|',
  ],
  [
    'detach',
    'a detached thread still runs to its end, whether detached by its handle or by itself (UNSAFE: both increments seen)',
    `int x; pthread_mutex_t m;
     void *w(void *a) { pthread_detach(pthread_self()); pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); return 0; }
     void *v(void *a) { pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); return 0; }
     int main() { pthread_t t1, t2; pthread_create(&t1, 0, w, 0); pthread_create(&t2, 0, v, 0);
       if (pthread_detach(t2) != 0) reach_error(); pthread_mutex_lock(&m); if (x > 2) reach_error(); pthread_mutex_unlock(&m); return 0; }`,
    'if (x > 2)|if (x == 2)',
  ],
];

/** Monolithic Spacer times out on these SAFE ones and the ARET is slow on their bugs (pointers stored in structs): the ARET and the explicit engine prove them, bmc and the explicit engine find the bugs. */
const WITHOUT_MONOLITHIC: MutationCase[] = [
  [
    'stored-pointers',
    'pointers stored in a struct member and in array cells, and a function pointer in a struct (UNSAFE: the other function stored)',
    `struct ops { int (*fn)(void); int *cell; } o; int *slots[2]; int a, b;
     int one(void) { return 1; } int two(void) { return 2; }
     void *w(void *x) { *o.cell = o.fn(); *slots[1] = 5; return 0; }
     int main() { o.fn = one; o.cell = &a; slots[0] = &a; slots[1] = &b; pthread_t t; pthread_create(&t, 0, w, 0); pthread_join(t, 0);
       if (a != 1 || b != 5) reach_error(); return 0; }`,
    'o.fn = one;|o.fn = two;',
  ],
];

describe('the pthread library and atomics: SAFE and UNSAFE agree', () => {
  agreeOnMutations(CASES, agree, 300_000);
  agreeOnMutations(WITHOUT_MONOLITHIC, (name, src, safe) => agree(name, src, safe, safe ? ['aret', 'explicit-global'] : ['bmc', 'explicit-global']), 300_000);
});

describe('the pthread library and atomics: what stays unsupported', () => {
  refusedCases('parse', 'rely-pthreads-refused-', [
    ['key-destructor-sets', 'pthread_key_t k; int x;\nvoid d(void *v) { pthread_setspecific(k, &x); }\nint main() { pthread_key_create(&k, d); return 0; }', 3, /key destructor 'd' sets a key's value/],
    ['atomic-pointer', 'int x;\nint * _Atomic p;\nint main() { p = &x; return 0; }', 2, /'_Atomic' on a pointer/],
    ['atomic-on-pointer', 'int *p;\nint main() { __sync_lock_test_and_set(&p, 0); return 0; }', 2, /atomic operations are modelled on integers only/],
    ['static-thread-local', 'void *f(void *a) {\n  static __thread int n; n++; return 0; }\nint main() { pthread_t t; pthread_create(&t, 0, f, 0); return 0; }', 2, /thread-local variable declared in a function/],
    ['rwlock-initializer', 'pthread_rwlock_t rw = { 1 };\nint main() { pthread_rwlock_rdlock(&rw); return 0; }', 1, /initialized other than by its static initializer/],
    ['weak-flag', 'int x, e;\nint main() { int w = __VERIFIER_nondet_int(); __atomic_compare_exchange_n(&x, &e, 1, w, 5, 5); return 0; }', 2, /weak flag .* not a constant/],
    ['bit-atomic', 'int x;\nint main() { __sync_fetch_and_or(&x, 1); return 0; }', 2, /unsupported: __sync_fetch_and_or/],
    ['cancel', 'void *f(void *a) { return 0; }\nint main() { pthread_t t; pthread_create(&t, 0, f, 0);\n  pthread_cancel(t); return 0; }', 3, /unsupported: pthread_cancel/],
    ['join-detached', 'void *f(void *a) { return 0; }\nint main() { pthread_t t; pthread_create(&t, 0, f, 0); pthread_detach(t);\n  pthread_join(t, 0); return 0; }', 3, /pthread_join of f, which pthread_detach at 2:\d+ detaches/],
    ['detach-joined', 'pthread_t t;\nvoid *f(void *a) { pthread_detach(pthread_self()); return 0; }\nint main() { pthread_create(&t, 0, f, 0); pthread_join(t, 0); return 0; }', 2, /pthread_detach of f, which a pthread_join also waits for/],
    ['detach-twice', 'void *f(void *a) { pthread_detach(pthread_self()); return 0; }\nint main() { pthread_t t; pthread_create(&t, 0, f, 0);\n  pthread_detach(t); return 0; }', 1, /pthread_detach of f, which pthread_detach at 3:\d+ detaches too/],
    ['detach-by-value', 'void *f(void *a) { pthread_t me = pthread_self();\n  pthread_detach(me); return 0; }\nint main() { pthread_t t; pthread_create(&t, 0, f, 0); pthread_join(t, 0); return 0; }', 2, /pthread_detach of a thread known only at run time in a file that joins threads/],
    ['self-as-number', 'int main() {\n  unsigned long id = pthread_self(); return 0; }', 2, /pthread_self\(\)'s value other than stored into a pthread_t/],
    ['id-compared-with-number', 'int main() { pthread_t me = pthread_self();\n  if (me == 0) reach_error(); return 0; }', 2, /a pthread_t value other than pthread_self\(\) or a pthread_t object/],
    ['created-and-assigned', 'pthread_t t;\nvoid *f(void *a) { return 0; }\nint main() { pthread_create(&t, 0, f, 0);\n  t = pthread_self(); return 0; }', 4, /assignment to a pthread_t that pthread_create also writes/],
    // POSIX answers a wait on an error-checking mutex the thread does not hold with EPERM; the wait's model would release and retake it (a wrong SAFE).
    ['cond-wait-kinds', 'pthread_mutex_t m; pthread_mutexattr_t a; pthread_cond_t c;\nint main() { pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK); pthread_mutex_init(&m, &a);\n  if (pthread_cond_wait(&c, &m) == EPERM) reach_error(); return 0; }', 3, /pthread_cond_wait in a file that sets mutex kinds/],
  ]);
});

describe('thread ids and templates', () => {
  it('a file that reads thread ids creates no template threads (their instances would share one id)', () => {
    const src = 'void *f(void *a) { return 0; }\nint main() { pthread_t t; int n = __VERIFIER_nondet_int(); pthread_t me = pthread_self();\n  for (int i = 0; i < n; i++) pthread_create(&t, 0, f, 0); return 0; }';
    expect(() => lower(src, { templates: true })).toThrow(/test.c:5:\d+: unsupported: thread creation in a loop without constant bounds in a file that calls pthread_self or pthread_equal/);
    // pthread_detach(pthread_self()) reads no id: templates that detach themselves are fine.
    expect(lower(src.replace('pthread_t me = pthread_self();', '').replace('return 0; }\nint', 'pthread_detach(pthread_self()); return 0; }\nint'), { templates: true }).threads.some((t) => t.replicated)).toBe(true);
  });
});

/**
 * `--check misuse`: misuse of the pthread library that the models can tell
 * reaches the error location, by a step that names it. Each misuse in a program that
 * is SAFE without the flag (an unlock frees the lock whoever holds it, a destroy has no
 * effect) and UNSAFE with it, agreed by the explorer and the engines, the trace's last
 * step naming the misuse; a correct program stays SAFE with the flag.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRELUDE, lower, rely, run } from '../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'rely-misuse-'));

function write(name: string, src: string): string {
  const file = join(dir, `${name}.c`);
  writeFileSync(file, PRELUDE + src);
  return file;
}

/** `rely verify --json` with these arguments: the verdict and the text of the trace's last step. */
async function verify(file: string, args: readonly string[]): Promise<{ verdict: string; last?: string }> {
  const r = await rely(['verify', ...args, '--json', '--timeout', '30', file]);
  const out = JSON.parse(r.out) as { verdict: string; counterexample: { steps: { text: string }[] }[] | null };
  return { verdict: out.verdict, last: out.counterexample?.at(-1)?.steps.at(-1)?.text };
}

/** [name, program, the last step's text with --check misuse]. */
const MISUSES: readonly (readonly [string, string, string])[] = [
  [
    'mutex-unlock-free',
    `pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER; int x;
     void *t(void *a) { pthread_mutex_lock(&m); x = 1; pthread_mutex_unlock(&m); return 0; }
     int main() { pthread_t h; pthread_create(&h, 0, t, 0); pthread_mutex_unlock(&m); pthread_join(h, 0); return 0; }`,
    "misuse: pthread_mutex_unlock of 'm' by a thread that does not hold it",
  ],
  [
    'mutex-unlock-other',
    `pthread_mutex_t m; int x;
     void *t(void *a) { pthread_mutex_unlock(&m); return 0; }
     int main() { pthread_mutex_lock(&m); pthread_t h; pthread_create(&h, 0, t, 0); pthread_join(h, 0); x = 1; return 0; }`,
    "misuse: pthread_mutex_unlock of 'm' by a thread that does not hold it",
  ],
  [
    'mutex-normal-kind',
    `pthread_mutex_t m; pthread_mutexattr_t a; int x;
     void *t(void *p) { pthread_mutex_unlock(&m); return 0; }
     int main() { pthread_mutexattr_init(&a); pthread_mutexattr_settype(&a, PTHREAD_MUTEX_NORMAL); pthread_mutex_init(&m, &a);
       pthread_mutex_lock(&m); pthread_t h; pthread_create(&h, 0, t, 0); pthread_join(h, 0); return 0; }`,
    "misuse: pthread_mutex_unlock of 'm' by a thread that does not hold it",
  ],
  [
    'spin-unlock',
    `pthread_spinlock_t s;
     void *t(void *a) { pthread_spin_lock(&s); return 0; }
     int main() { pthread_spin_init(&s, 0); pthread_t h; pthread_create(&h, 0, t, 0); pthread_join(h, 0); pthread_spin_unlock(&s); return 0; }`,
    "misuse: pthread_spin_unlock of 's' by a thread that does not hold it",
  ],
  [
    'cond-wait-unheld',
    `pthread_mutex_t m; pthread_cond_t c; int ready;
     void *t(void *a) { pthread_mutex_lock(&m); ready = 1; pthread_cond_signal(&c); pthread_mutex_unlock(&m); return 0; }
     int main() { pthread_t h; pthread_create(&h, 0, t, 0); while (!ready) pthread_cond_wait(&c, &m); pthread_join(h, 0); return 0; }`,
    "misuse: pthread_cond_wait with 'm' by a thread that does not hold it",
  ],
  [
    'mutex-destroy-held',
    `pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER; int x;
     void *t(void *a) { pthread_mutex_lock(&m); x = 1; pthread_mutex_unlock(&m); return 0; }
     int main() { pthread_t h; pthread_create(&h, 0, t, 0); pthread_mutex_destroy(&m); pthread_join(h, 0); return 0; }`,
    "misuse: pthread_mutex_destroy of 'm' while a thread holds it",
  ],
  [
    'spin-destroy-held',
    `pthread_spinlock_t s;
     int main() { pthread_spin_init(&s, 0); pthread_spin_lock(&s); pthread_spin_destroy(&s); return 0; }`,
    "misuse: pthread_spin_destroy of 's' while a thread holds it",
  ],
  [
    'rwlock-unlock-reader',
    `pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER; int x;
     void *r(void *a) { pthread_rwlock_rdlock(&rw); x = 1; return 0; }
     int main() { pthread_t h; pthread_create(&h, 0, r, 0); pthread_join(h, 0); pthread_rwlock_unlock(&rw); return 0; }`,
    "misuse: pthread_rwlock_unlock of 'rw' by a thread that does not hold it",
  ],
  [
    'rwlock-unlock-writer',
    `pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER; int x;
     void *w(void *a) { pthread_rwlock_wrlock(&rw); x = 1; return 0; }
     int main() { pthread_t h; pthread_create(&h, 0, w, 0); pthread_join(h, 0); pthread_rwlock_unlock(&rw); return 0; }`,
    "misuse: pthread_rwlock_unlock of 'rw' by a thread that does not hold it",
  ],
  [
    'rwlock-destroy-held',
    `pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER; int x;
     void *r(void *a) { pthread_rwlock_rdlock(&rw); x = 1; pthread_rwlock_unlock(&rw); return 0; }
     int main() { pthread_t h; pthread_create(&h, 0, r, 0); pthread_rwlock_destroy(&rw); pthread_join(h, 0); return 0; }`,
    "misuse: pthread_rwlock_destroy of 'rw' while a thread holds it",
  ],
  [
    'barrier-destroy-waited',
    `pthread_barrier_t b;
     void *t(void *a) { pthread_barrier_wait(&b); return 0; }
     int main() { pthread_barrier_init(&b, 0, 2); pthread_t h; pthread_create(&h, 0, t, 0);
       // One step, so that the thread's wait cannot fall between and meet a destroyed barrier (the other misuse).
       __VERIFIER_atomic_begin(); pthread_barrier_destroy(&b); pthread_barrier_init(&b, 0, 2); __VERIFIER_atomic_end(); return 0; }`,
    "misuse: pthread_barrier_destroy of 'b' while threads wait on it",
  ],
  [
    'barrier-wait-destroyed',
    `pthread_barrier_t b; int x;
     int main() { pthread_barrier_init(&b, 0, 1); pthread_barrier_wait(&b); pthread_barrier_destroy(&b); x = 1; pthread_barrier_wait(&b); return 0; }`,
    "misuse: pthread_barrier_wait of 'b', which pthread_barrier_init did not set up (or which is destroyed)",
  ],
];

describe('--check misuse: each misuse is SAFE without the flag, UNSAFE with it, the trace ending in the misuse', () => {
  for (const [name, src, text] of MISUSES)
    it(name, async () => {
      expect(run(src).errorReachable, 'explorer without the flag').toBe(false);
      expect(run(src, { checkMisuse: true }).errorReachable, 'explorer with the flag').toBe(true);
      const file = write(name, src);
      expect((await verify(file, [])).verdict, 'verify without the flag').toBe('safe');
      expect(await verify(file, ['--check', 'misuse']), 'verify --check misuse').toEqual({ verdict: 'unsafe', last: text });
      for (const engine of ['aret', 'bmc']) expect((await verify(file, ['--check', 'misuse', '--engine', engine])).verdict, engine).toBe('unsafe');
    }, 60_000);
});

describe('--check misuse: correct use stays SAFE', () => {
  const CORRECT: readonly (readonly [string, string])[] = [
    [
      'mutex-cond-spin',
      `pthread_mutex_t m; pthread_cond_t c; pthread_spinlock_t s; int ready, y;
       void *t(void *a) {
         pthread_mutex_lock(&m); ready = 1; pthread_cond_signal(&c); pthread_mutex_unlock(&m);
         pthread_spin_lock(&s); y++; pthread_spin_unlock(&s); return 0; }
       int main() { pthread_spin_init(&s, 0); pthread_t h; pthread_create(&h, 0, t, 0);
         pthread_mutex_lock(&m); while (!ready) pthread_cond_wait(&c, &m); pthread_mutex_unlock(&m);
         pthread_spin_lock(&s); y++; pthread_spin_unlock(&s);
         pthread_join(h, 0); pthread_mutex_destroy(&m); pthread_spin_destroy(&s); return 0; }`,
    ],
    [
      'rwlock-barrier',
      `pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER; pthread_barrier_t b; int x, y;
       void *t(void *a) {
         pthread_rwlock_rdlock(&rw); pthread_rwlock_rdlock(&rw); y = x; pthread_rwlock_unlock(&rw); pthread_rwlock_unlock(&rw);
         pthread_barrier_wait(&b); return 0; }
       int main() { pthread_barrier_init(&b, 0, 2); pthread_t h; pthread_create(&h, 0, t, 0);
         pthread_rwlock_wrlock(&rw); x = 1; pthread_rwlock_unlock(&rw);
         pthread_barrier_wait(&b); pthread_join(h, 0); pthread_rwlock_destroy(&rw); pthread_barrier_destroy(&b); return 0; }`,
    ],
    [
      // An error-checking mutex answers an unlock by another thread with EPERM: defined, no misuse.
      'errorcheck-eperm',
      `pthread_mutex_t m; pthread_mutexattr_t a; int x;
       void *t(void *p) { if (pthread_mutex_unlock(&m) != EPERM) reach_error(); return 0; }
       int main() { pthread_mutexattr_init(&a); pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK); pthread_mutex_init(&m, &a);
         pthread_mutex_lock(&m); pthread_t h; pthread_create(&h, 0, t, 0); pthread_join(h, 0); pthread_mutex_unlock(&m); pthread_mutex_destroy(&m); return 0; }`,
    ],
  ];
  for (const [name, src] of CORRECT)
    it(name, async () => {
      const r = run(src, { checkMisuse: true });
      expect(r.errorReachable).toBe(false);
      expect(r.complete && !r.usedNondetRange, 'explorer exhaustive').toBe(true);
      const file = write(name, src);
      for (const engine of ['auto', 'aret', 'monolithic']) expect((await verify(file, ['--check', 'misuse', '--engine', engine])).verdict, engine).toBe('safe');
    }, 120_000);
});

describe('--check misuse: where the model cannot tell, and the command line', () => {
  it('a template thread (created in a loop without constant bounds) cannot tell its instances apart: refused, located', () => {
    const src = `pthread_mutex_t m; int x;
      void *w(void *a) { pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); return 0; }
      int main() { pthread_t t; while (__VERIFIER_nondet_int()) pthread_create(&t, 0, w, 0); return 0; }`;
    expect(() => lower(src, { templates: true })).not.toThrow();
    expect(() => lower(src, { templates: true, checkMisuse: true })).toThrow(/:4:\d+: unsupported: pthread_mutex_unlock of 'm' checked by --check misuse in a thread created in a loop without constant bounds/);
  });

  it('the bounded search for bugs (distinct instances) still finds a misuse in such a thread', async () => {
    const file = write('instances', `pthread_mutex_t m; int x;
      void *w(void *a) { if (__VERIFIER_nondet_int()) pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); return 0; }
      int main() { pthread_t t; while (__VERIFIER_nondet_int()) pthread_create(&t, 0, w, 0); return 0; }`);
    expect(await verify(file, ['--check', 'misuse'])).toEqual({ verdict: 'unsafe', last: "misuse: pthread_mutex_unlock of 'm' by a thread that does not hold it" });
  }, 60_000);

  it('--check takes misuse only; --help says what it checks', async () => {
    const bad = await rely(['verify', '--check', 'free', write('bad', 'int main() { return 0; }')]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/argument 'free' is invalid\. Allowed choices are misuse/);
    const help = await rely(['verify', '--help']);
    expect(help.out.replace(/\s+/g, ' ')).toMatch(/--check <what> misuse: .*by a thread that does not hold it/);
  });

  it('svcomp: a trace that ends in a misuse is no violation of unreach-call (UNKNOWN); a correct program is TRUE', async () => {
    const [name, src] = MISUSES[0];
    const r = await rely(['svcomp', '--check', 'misuse', '--timeout', '30', write(`svcomp-${name}`, src)]);
    expect(r.out.trimEnd().split('\n').at(-1)).toBe('Result: UNKNOWN');
    expect(r.err).toMatch(/ends in a misuse of the pthread library/);
    const ok = await rely(['svcomp', '--check', 'misuse', '--timeout', '30', write('svcomp-ok', 'pthread_mutex_t m; int main() { pthread_mutex_lock(&m); pthread_mutex_unlock(&m); return 0; }')]);
    expect(ok.out.trimEnd().split('\n').at(-1)).toBe('Result: TRUE');
  }, 60_000);
});

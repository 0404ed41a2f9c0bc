/**
 * The differential generator's sync programs (benchmarks/generate-programs.ts, `sync`;
 * `rely bench --suite differential --sync`): reproducible per (seed, index), read by the
 * frontend, decided by the explorer both ways, every construct of the mode emitted over
 * a few hundred programs, the barrier's count that of the threads waiting on it, and the
 * programs of the other modes unaffected by the mode's random draws.
 */
import { describe, expect, it } from 'vitest';
import { generateProgram } from '../../benchmarks/generate-programs.js';
import { compileProgram } from '../../frontend/index.js';
import { explore } from '../../engines/state-space/explore.js';
import { PRELUDE } from '../helpers.js';

const SEED = 20261201;
const sync = (seed: number, i: number): string => generateProgram(seed, i, { extended: true, sync: true });

/** What the mode promises to emit, each as it appears in the C text. */
const CONSTRUCTS: [what: string, pattern: RegExp][] = [
  ['a wait in a while loop', /^\s*while \([^)]*\) pthread_cond_wait\(&cv, &m\);$/m],
  ['a wait in an if', /^\s*if \([^)]*\) pthread_cond_wait\(&cv, &m\);$/m],
  ['pthread_cond_signal', /pthread_cond_signal\(&cv\)/],
  ['pthread_cond_broadcast', /pthread_cond_broadcast\(&cv\)/],
  ['pthread_rwlock_rdlock', /pthread_rwlock_rdlock\(&rw\)/],
  ['pthread_rwlock_wrlock', /pthread_rwlock_wrlock\(&rw\)/],
  ['pthread_rwlock_tryrdlock', /pthread_rwlock_tryrdlock\(&rw\) == 0/],
  ['pthread_rwlock_unlock', /pthread_rwlock_unlock\(&rw\)/],
  ['a barrier of one thread', /pthread_barrier_init\(&bar, 0, 1\)/],
  ['a barrier of several threads', /pthread_barrier_init\(&bar, 0, [23]\)/],
  ['pthread_barrier_wait', /pthread_barrier_wait\(&bar\)/],
  ['sem_init', /sem_init\(&sem, 0, [01]\)/],
  ['sem_wait', /sem_wait\(&sem\)/],
  ['sem_post', /sem_post\(&sem\)/],
  ['sem_trywait', /sem_trywait\(&sem\) == 0/],
  ['pthread_mutex_trylock', /pthread_mutex_trylock\(&m\) == 0/],
  ['pthread_spin_lock', /pthread_spin_lock\(&sp\)/],
  ['__sync_fetch_and_add', /__sync_fetch_and_add\(&cnt, 1\)/],
  ['__sync_bool_compare_and_swap', /__sync_bool_compare_and_swap\(&cnt, \d, \d\)/],
  ['a racy increment', /(\w) = cnt; cnt = \1 \+ 1;/],
  ['atomic_fetch_add', /atomic_fetch_add\(&ac, 1\)/],
  ['atomic_compare_exchange_strong', /atomic_compare_exchange_strong\(&ac, &e, \d\)/],
  ['atomic_load', /= atomic_load\(&ac\)/],
  ['atomic_store', /atomic_store\(&ac, \d\)/],
  ['_Atomic int', /^_Atomic int ac = 0;$/m],
  ['atomic_int', /^atomic_int ac = 0;$/m],
  ['++ on the atomic counter', /^\s*ac\+\+;$/m],
  ['an assert over a counter', /assert\((cnt|ac) (==|<=|>=|<) \d+\);/],
];

describe('the generator\'s sync programs', () => {
  it('are a function of (seed, index): the same text again, another for another seed or index, another than without the mode', () => {
    for (let i = 0; i < 20; i++) {
      expect(sync(SEED, i)).toBe(sync(SEED, i));
      expect(sync(SEED, i)).not.toBe(sync(SEED + 1, i));
      expect(sync(SEED, i)).not.toBe(generateProgram(SEED, i, { extended: true }));
    }
    expect(new Set(Array.from({ length: 20 }, (_, i) => sync(SEED, i))).size).toBe(20);
  });

  it('emit every construct of the mode over 200 programs, and none without the mode', () => {
    const texts = Array.from({ length: 200 }, (_, i) => sync(SEED, i));
    const missing = CONSTRUCTS.filter(([, p]) => !texts.some((t) => p.test(t))).map(([what]) => what);
    expect(missing).toEqual([]);
    const plain = Array.from({ length: 200 }, (_, i) => generateProgram(SEED, i, { extended: true, data: true })).join('\n');
    expect(plain).not.toMatch(/pthread_cond|pthread_rwlock|pthread_barrier|sem_|pthread_spin|trylock|__sync_|\batomic_(fetch|load|store|compare|int)|_Atomic/);
  });

  it('give the barrier the count of the threads waiting on it, each once at its top level', () => {
    let barriers = 0;
    for (let i = 0; i < 200; i++) {
      const t = sync(SEED, i);
      const init = /pthread_barrier_init\(&bar, 0, (\d)\);/.exec(t);
      const waits = t.match(/^ {2}pthread_barrier_wait\(&bar\);$/gm) ?? [];
      expect(t.match(/pthread_barrier_wait/g)?.length ?? 0, t).toBe(waits.length);
      if (!init) {
        expect(waits, t).toEqual([]);
        continue;
      }
      barriers++;
      expect(waits.length, t).toBe(Number(init[1]));
      // Each waiting thread waits once.
      for (const body of t.split(/^void \*thr/m).slice(1)) expect((body.match(/pthread_barrier_wait/g) ?? []).length).toBeLessThanOrEqual(1);
    }
    expect(barriers).toBeGreaterThan(20);
  });

  it('are read by the frontend and decided by exhaustive exploration, SAFE and UNSAFE ones', () => {
    const decided = { safe: 0, unsafe: 0, undecided: 0 };
    for (let i = 0; i < 60; i++) {
      const x = explore(compileProgram(sync(SEED + 7, i), `gen-sync-${i}.c`));
      if (!x.complete || x.usedNondetRange) decided.undecided++;
      else decided[x.errorReachable ? 'unsafe' : 'safe']++;
    }
    // Both verdicts in good numbers: the asserts are neither all true nor all false.
    expect(decided.safe).toBeGreaterThan(15);
    expect(decided.unsafe).toBeGreaterThan(15);
    expect(decided.undecided).toBeLessThan(10);
  }, 120_000);

  it('a wait in an if passes on a spurious wakeup: the assert built on it fails, the same with while holds', () => {
    // The generator's wait shape, reduced: the explorer must tell the two apart.
    const shape = (loop: string): string => `${PRELUDE}int x = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
void *thr1(void *arg) {
  pthread_mutex_lock(&m);
  ${loop} (x != 2) pthread_cond_wait(&cv, &m);
  if (!(x == 2)) reach_error();
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t1;
  pthread_create(&t1, 0, thr1, 0);
  pthread_mutex_lock(&m);
  x = 2;
  pthread_cond_signal(&cv);
  pthread_mutex_unlock(&m);
  return 0;
}
`;
    expect(explore(compileProgram(shape('while'), 'while.c')).errorReachable).toBe(false);
    expect(explore(compileProgram(shape('if'), 'if.c')).errorReachable).toBe(true);
  });
});

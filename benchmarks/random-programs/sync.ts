/**
 * The sync programs' constructs: condition variables, rwlocks, trylock, a spinlock, a
 * semaphore, a barrier (set up by the driver) and atomic counters with the asserts over them.
 */
import type { Generator } from './generator.js';
import { SYNC_REGIONS, type Ctx, type Fact, type Scope } from './model.js';

/** The sync programs' statement kinds and weights in context `ctx` (none in other programs, whose random draws do not depend on sync's). */
export function syncKinds(g: Generator, s: Scope, ctx: Ctx): (readonly [number, string])[] {
  const y = g.sync;
  if (!y) return [];
  const top = ctx === 'top';
  const counters = y.gcc || y.c11;
  const weights: Record<(typeof SYNC_REGIONS)[number], number> = {
    wait: y.cond && s.mutex ? 2 : 0,
    signal: y.cond && s.mutex ? 2 : 0,
    rdlock: y.rwlock ? 1.2 : 0,
    wrlock: y.rwlock ? 1.2 : 0,
    tryrdlock: y.rwlock ? 0.8 : 0,
    trylock: y.trylock && s.mutex ? 1.2 : 0,
    spin: y.spin ? 1.2 : 0,
    semcs: y.sem ? 1 : 0,
    sempost: y.sem ? 0.8 : 0,
    semwait: y.sem ? 0.5 : 0,
    semtry: y.sem ? 0.6 : 0,
  };
  return [
    ...SYNC_REGIONS.map((k) => [top ? weights[k] : 0, k] as const),
    [counters ? 2 : 0, 'count'],
    [counters && g.asserts < 3 && g.inLoop === 0 ? 0.4 : 0, 'count-assert'],
  ];
}

/** A block that runs only if an attempt succeeded: facts it makes hold only in some runs, counters it adds to maybe. */
function conditionalBody(g: Generator, s: Scope, indent: number): void {
  const before = new Map(s.facts);
  g.maybe++;
  g.block(s, 'branch', indent, 1, 2);
  g.maybe--;
  g.keepAgreeing(s, before);
}

/** Under the mutex, a wait on `cv` until a global (mostly the flag) holds a value; `if` instead of `while` is the classic bug. */
function condWait(g: Generator, s: Scope, indent: number): void {
  const v = g.chance(0.8) ? g.sync!.flag : g.pick(s.globals);
  const c = g.int(0, 3);
  const loop = g.chance(0.8) ? 'while' : 'if';
  const [waitWhile, reached] = g.weighted<[string, Fact | undefined]>([
    [3, [`${v} != ${c}`, { kind: 'const', value: c }]],
    [1, [`${v} < ${c}`, undefined]],
    [1, [`${v} == ${c}`, undefined]],
  ]);
  g.emit(indent, 'pthread_mutex_lock(&m);');
  g.emit(indent, `${loop} (${waitWhile}) pthread_cond_wait(&cv, &m);`);
  g.forget(s, v);
  // What the code after a `while` may rely on (after an `if`, wrongly: asserts built on it are bugs to find).
  if (reached) s.facts.set(v, reached);
  if (g.chance(0.7)) g.block(s, 'locked', indent, 1, 2);
  g.emit(indent, 'pthread_mutex_unlock(&m);');
}

/** A write of the flag under the mutex, and a signal or broadcast on `cv` (inside or after the critical section). */
function condSignal(g: Generator, s: Scope, indent: number): void {
  const y = g.sync!;
  const c = g.int(0, 3);
  const call = `pthread_cond_${g.chance(0.6) ? 'signal' : 'broadcast'}(&cv);`;
  const after = g.chance(0.25); // POSIX lets a thread signal without the mutex
  g.emit(indent, 'pthread_mutex_lock(&m);');
  g.emit(indent, `${y.flag} = ${c};`);
  g.forget(s, y.flag);
  s.facts.set(y.flag, { kind: 'const', value: c });
  g.wrote(y.flag, c);
  if (!after) g.emit(indent, call);
  g.emit(indent, 'pthread_mutex_unlock(&m);');
  if (after) g.emit(indent, call);
}

/** `if (try… == 0) { … }`: a block that runs only when the trylock (of the mutex, the rwlock or the semaphore) succeeds. */
function tryBlock(g: Generator, s: Scope, kind: 'tryrdlock' | 'trylock' | 'semtry', indent: number): void {
  // Every entry is built, so the semaphore's draw happens for each kind.
  const [attempt, release] = {
    tryrdlock: ['pthread_rwlock_tryrdlock(&rw)', 'pthread_rwlock_unlock(&rw);'],
    trylock: ['pthread_mutex_trylock(&m)', 'pthread_mutex_unlock(&m);'],
    semtry: ['sem_trywait(&sem)', g.chance(0.6) ? 'sem_post(&sem);' : ''],
  }[kind];
  g.emit(indent, `if (${attempt} == 0) {`);
  conditionalBody(g, s, indent + 1);
  if (release) g.emit(indent + 1, release);
  g.emit(indent, '}');
}

/** What opens and closes each kind of critical section. */
const LOCKED: Partial<Record<string, readonly [open: string, close: string]>> = {
  rdlock: ['pthread_rwlock_rdlock(&rw);', 'pthread_rwlock_unlock(&rw);'],
  wrlock: ['pthread_rwlock_wrlock(&rw);', 'pthread_rwlock_unlock(&rw);'],
  spin: ['pthread_spin_lock(&sp);', 'pthread_spin_unlock(&sp);'],
  semcs: ['sem_wait(&sem);', 'sem_post(&sem);'],
};

/** One sync statement (syncKinds). */
export function syncStmt(g: Generator, s: Scope, kind: string, indent: number): void {
  const locked = LOCKED[kind];
  if (locked) return g.region(s, 'locked', locked[0], locked[1], indent);
  switch (kind) {
    case 'wait':
      return condWait(g, s, indent);
    case 'signal':
      return condSignal(g, s, indent);
    case 'sempost':
    case 'semwait':
      g.emit(indent, `sem_${kind.slice(3)}(&sem);`);
      return;
    case 'tryrdlock':
    case 'trylock':
    case 'semtry':
      return tryBlock(g, s, kind, indent);
    case 'count':
      return countOp(g, s, indent);
    case 'count-assert': {
      // Counters only grow unless a racy increment or a store intervenes: what this function certainly added is a lower bound then.
      const c = g.pick(counters(g));
      g.assertThat(s, `${c} >= ${g.own.get(c) ?? 0}`, indent);
      return;
    }
  }
}

/** The program's atomic counters. */
export function counters(g: Generator): string[] {
  return [...(g.sync!.gcc ? ['cnt'] : []), ...(g.sync!.c11 ? ['ac'] : [])];
}

/** One operation on a counter, tallied: `add` is 1 when it certainly adds one, 0.5 when it may. */
function countOp(g: Generator, s: Scope, indent: number): void {
  const c = g.pick(counters(g));
  const l = s.locals.length ? g.pick(s.locals) : undefined;
  const k = g.int(0, 2);
  type Op = [line: string, add: 0 | 0.5 | 1, effect?: 'racy' | 'store'];
  const op = g.weighted<() => Op>(
    c === 'cnt'
      ? [
          [3, () => ['__sync_fetch_and_add(&cnt, 1);', 1]],
          [l ? 2 : 0, () => [`${l} = __sync_fetch_and_add(&cnt, 1);`, 1]],
          [2, () => [`__sync_bool_compare_and_swap(&cnt, ${k}, ${k + 1});`, 0.5]],
          [l ? 1.5 : 0, () => [`${l} = cnt; cnt = ${l} + 1;`, 1, 'racy']],
        ]
      : [
          [2, () => ['atomic_fetch_add(&ac, 1);', 1]],
          [2, () => ['ac++;', 1]],
          [2, () => [`{ int e = ${k}; atomic_compare_exchange_strong(&ac, &e, ${k + 1}); }`, 0.5]],
          [l ? 1 : 0, () => [`${l} = atomic_load(&ac);`, 0]],
          [0.7, () => [`atomic_store(&ac, ${g.int(0, 3)});`, 0, 'store']],
        ],
  )();
  const [line, add, effect] = op;
  g.emit(indent, line);
  if (l && line.startsWith(`${l} =`)) g.forget(s, l);
  const t = g.tally.get(c) ?? { sure: 0, upto: 0, exact: true, stored: false };
  if (add > 0) t.upto += g.times;
  if (add === 1 && g.maybe === 0) {
    t.sure += g.times;
    g.own.set(c, (g.own.get(c) ?? 0) + g.times);
  }
  if (effect) t.exact = false;
  if (effect === 'store') t.stored = true;
  g.tally.set(c, t);
}

/** Main's assert over a counter at its end (after the joins when `joined`): some hold in every run, some only in some. */
export function counterAssert(g: Generator, s: Scope, joined: boolean): void {
  const c = g.pick(counters(g));
  const t = g.tally.get(c) ?? { sure: 0, upto: 0, exact: true, stored: false };
  const bound = t.upto + (t.stored ? 3 : 0);
  const cond = g.weighted([
    [t.exact && joined && t.sure === t.upto ? 3 : 0, `${c} == ${t.sure}`],
    [1, `${c} <= ${bound}`],
    [1.5, `${c} == ${t.upto}`],
    [1.5, `${c} >= ${t.sure}`],
    [t.upto > 0 ? 1 : 0, `${c} < ${t.upto}`],
  ]);
  g.assertThat(s, cond, 1);
}

/** The sync program's objects (main initialises the barrier, the spinlock and the semaphore). */
export function declareSync(g: Generator, barrier: boolean): void {
  const y = g.sync!;
  if (y.cond) g.emit(0, 'pthread_cond_t cv = PTHREAD_COND_INITIALIZER;');
  if (y.rwlock) g.emit(0, 'pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;');
  if (barrier) g.emit(0, 'pthread_barrier_t bar;');
  if (y.spin) g.emit(0, 'pthread_spinlock_t sp;');
  if (y.sem) g.emit(0, 'sem_t sem;');
  if (y.gcc) g.emit(0, 'int cnt = 0;');
  if (y.c11) g.emit(0, `${g.pick(['_Atomic int', 'atomic_int'])} ac = 0;`);
}

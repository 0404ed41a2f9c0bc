/**
 * POSIX synchronisation as rely models it. A mutex or spinlock is a variable, 0 when
 * free and its owner's thread index + 1 when taken; the other objects are structs of
 * integers (types.ts SYNC). Each operation is one atomic step where POSIX makes it
 * indivisible, and a wait is a blocking assume, so a waiting thread takes no steps.
 *
 * A condition variable has no state: POSIX lets `pthread_cond_wait` wake spuriously,
 * so a wait is exactly "release the mutex; later, retake it", and a signal or a
 * broadcast constrains nothing a safety property can observe. Undefined behaviour the
 * models can see (unlocking a read-write lock nobody holds, waiting on a barrier
 * `pthread_barrier_init` did not set up) reaches the error location, as an invalid
 * dereference does. With LowerOptions.checkMisuse, so does the misuse they can tell
 * apart from correct use (see "misuse" below); without it those steps are as they were.
 */
import type { Expr } from '../ast.js';
import { unsupported, type SourcePos } from '../../program/diagnostics.js';
import { add, eq, ge, gt, le, lt, mkVar, num, sub, type Term } from '../../solver/formula.js';
import { INT, SYNC, type SyncKind } from '../types.js';
import type { ThreadBuilder } from './builder.js';
import type { Binding } from './file-scope.js';
import { arity, arms, atObject, atomically, result, snapshot, unread, type BuiltinCall } from './library.js';
import { atPlace, place } from './places.js';
import { member } from './structs.js';

const EBUSY = 16n;
const EINVAL = 22n;
const ETIMEDOUT = 110n;
const BARRIER_SERIAL_THREAD = -1n;

export type Var = Binding & { k: 'var' };

/** Runs `fn` on the IR variable of each mutex (or spinlock) an argument may point to. */
export function atMutex(b: ThreadBuilder, arg: Expr, fn: (m: Var) => void): void {
  atObject(b, arg, 'a pthread_mutex_t', (x) => x.k === 'var' && x.type.k === 'mutex', (x) => fn(x as Var));
}

/** Runs `fn` with the members (types.ts SYNC) of each synchronisation object of that kind an argument may point to. */
export function atSync(b: ThreadBuilder, arg: Expr, kind: SyncKind, fn: (m: Record<string, Var>, x: Binding) => void): void {
  const is = (x: Binding): boolean => x.k === 'array' && x.type.k === 'struct' && x.type.sync === kind;
  atObject(b, arg, `a ${SYNC[kind].typedef}`, is, (x) => fn(Object.fromEntries(SYNC[kind].members.map((n) => [n.replace(/^__/, ''), member(x, n, arg.pos) as Var])), x));
}

const owner = (b: ThreadBuilder): Term => num(b.inst.index + 1);
const v = (x: Var): Term => mkVar(x.name);
const cname = (b: ThreadBuilder, x: Var): string => b.L.cname(x.name).replace(/\.__\w+$/, '');
/** A value other than `t`, as arms: below or above it. */
export const other = (x: Term, t: Term): Term[][] => [[lt(x, t)], [gt(x, t)]];

// ---- misuse (LowerOptions.checkMisuse)

/** How the step into the error location that a misuse takes begins (a trace that ends so ends in a misuse). */
export const MISUSE = 'misuse: ';

/** The error location, by a step that says which misuse it is. */
export function misuse(b: ThreadBuilder, pos: SourcePos, what: string): void {
  b.goto(b.err, pos, `${MISUSE}${what}`);
}

/** This thread's owner value, to tell it from every other thread: the instances of a thread created in a loop without constant bounds share one, so there the check is refused. */
function self(b: ThreadBuilder, pos: SourcePos, what: string): Term {
  if (b.inst.replicated) unsupported(pos, `${what} checked by --check misuse in a thread created in a loop without constant bounds (its instances share one owner)`);
  return owner(b);
}

/** An operation that may wait, on the object `arg` points to; `name` labels its step. */
type Take = (b: ThreadBuilder, name: string, arg: Expr, pos: SourcePos) => void;

/** `f(&x)`: the operation, then 0. */
const waiting =
  (take: Take) =>
  (b: ThreadBuilder, { e, name, wantValue }: BuiltinCall): Term | undefined => {
    arity(e, 1);
    take(b, name, e.args[0], e.pos);
    return wantValue ? num(0) : undefined;
  };

/** `f(&x, &time)`: the operation (0) or, at any time instead, ETIMEDOUT; the time is not read. */
const timed =
  (take: Take) =>
  (b: ThreadBuilder, call: BuiltinCall): Term | undefined => {
    arity(call.e, 2);
    unread(b, call.e.args[1]);
    return orTimeOut(b, call, () => take(b, call.name, call.e.args[0], call.e.pos));
  };

/** Either `attempt` (which may block) or, at any time instead, a time-out with ETIMEDOUT: the `timed` forms. */
function orTimeOut(b: ThreadBuilder, { e, name, wantValue }: BuiltinCall, attempt: () => void): Term | undefined {
  const r = result(b, wantValue, e.pos);
  arms(b, e.pos, [
    [[], () => (attempt(), r.set(num(0)))],
    [[], () => (b.emit({ kind: 'skip' }, e.pos, `${name}: times out`), r.set(num(ETIMEDOUT)))],
  ]);
  return r.value();
}

// ---- mutexes and spinlocks

/** One atomic step that waits until every atom of `until` holds, then does `then`; `text` labels it. */
function waitThen(b: ThreadBuilder, pos: SourcePos, text: string, until: readonly Term[], then: () => void): void {
  atomically(b, pos, () => {
    until.forEach((c, i) => b.emit({ kind: 'assume', cond: c, blocking: true }, pos, i === 0 ? text : ''));
    then();
  });
}

/** Waits until m is free, then takes it; `text` labels the step. */
function lock(b: ThreadBuilder, text: string, m: Var, pos: SourcePos): void {
  waitThen(b, pos, text, [eq(v(m), num(0))], () => b.emit({ kind: 'assign', target: m.name, value: owner(b) }, pos, ''));
}

/** Waits until the mutex is free, then owns it: one atomic test-and-set. */
export function mutexLock(b: ThreadBuilder, { e, name, wantValue }: BuiltinCall): Term | undefined {
  arity(e, 1);
  atMutex(b, e.args[0], (m) => lock(b, `${name}(${b.L.cname(m.name)})`, m, e.pos));
  return wantValue ? num(0) : undefined;
}

/** Frees the mutex whoever holds it: `pthread_mutex_init` and `pthread_spin_init`, whose second argument is not read, and an unlock without the misuse check. */
export function mutexRelease(b: ThreadBuilder, { e, name, wantValue }: BuiltinCall): Term | undefined {
  e.args.slice(1).forEach((a) => unread(b, a));
  atMutex(b, e.args[0], (m) => b.assign(m, num(0), e.pos, `${name}(${b.L.cname(m.name)})`));
  return wantValue ? num(0) : undefined;
}

/**
 * Frees m, which the thread must hold; `text` labels the step. With the misuse check,
 * one step that tests the owner first: a thread that does not hold m (free, or
 * another's) reaches the error location instead (`which` names the operation on m).
 */
function release(b: ThreadBuilder, m: Var, pos: SourcePos, text: string, which: string): void {
  if (!b.L.checkMisuse) return b.assign(m, num(0), pos, text);
  const me = self(b, pos, which);
  atomically(b, pos, () =>
    arms(b, pos, [
      [[eq(v(m), me)], () => b.assign(m, num(0), pos, text)],
      ...other(v(m), me).map((c) => [c, () => misuse(b, pos, `${which} by a thread that does not hold it`)] as const),
    ]),
  );
}

/** `pthread_mutex_unlock`, `pthread_spin_unlock`: frees the mutex; with the misuse check only the thread that holds it may. */
export function mutexUnlock(b: ThreadBuilder, call: BuiltinCall): Term | undefined {
  if (!b.L.checkMisuse) return mutexRelease(b, call);
  const { e, name, wantValue } = call;
  arity(e, 1);
  atMutex(b, e.args[0], (m) => release(b, m, e.pos, `${name}(${b.L.cname(m.name)})`, `${name} of '${b.L.cname(m.name)}'`));
  return wantValue ? num(0) : undefined;
}

/** `pthread_mutex_destroy`, `pthread_spin_destroy` with the misuse check (without it they have no effect: builtins.ts): destroying a held lock is the error. */
export function mutexDestroy(b: ThreadBuilder, { e, name, wantValue }: BuiltinCall): Term | undefined {
  arity(e, 1);
  atMutex(b, e.args[0], (m) =>
    atomically(b, e.pos, () =>
      arms(b, e.pos, [
        [[eq(v(m), num(0))], () => b.emit({ kind: 'skip' }, e.pos, `${name}(${b.L.cname(m.name)})`)],
        ...other(v(m), num(0)).map((c) => [c, () => misuse(b, e.pos, `${name} of '${b.L.cname(m.name)}' while a thread holds it`)] as const),
      ]),
    ),
  );
  return wantValue ? num(0) : undefined;
}

/** Takes the mutex if it is free (0), else returns EBUSY at once. */
export function mutexTryLock(b: ThreadBuilder, { e, name, wantValue }: BuiltinCall): Term | undefined {
  arity(e, 1);
  const r = result(b, wantValue, e.pos);
  atMutex(b, e.args[0], (m) =>
    atomically(b, e.pos, () =>
      arms(b, e.pos, [
        [[eq(v(m), num(0))], () => (b.emit({ kind: 'assign', target: m.name, value: owner(b) }, e.pos, `${name}(${b.L.cname(m.name)}): taken`), r.set(num(0)))],
        [[gt(v(m), num(0))], () => r.set(num(EBUSY))],
      ]),
    ),
  );
  return r.value();
}

export const mutexTimedLock = timed((b, name, arg, pos) => atMutex(b, arg, (m) => lock(b, `${name}(${b.L.cname(m.name)})`, m, pos)));

// ---- condition variables

/**
 * `pthread_cond_wait(c, m)`: releases m and, at any later point (a signal, a broadcast
 * or a spurious wakeup), retakes it; `pthread_cond_timedwait` also returns 0 or
 * ETIMEDOUT, either way with m retaken.
 */
export function condWait(b: ThreadBuilder, { e, name, wantValue }: BuiltinCall): Term | undefined {
  const timed = name === 'pthread_cond_timedwait';
  arity(e, timed ? 3 : 2);
  const r = result(b, wantValue, e.pos);
  atSync(b, e.args[0], 'cond', ({ unused }) =>
    atMutex(b, e.args[1], (m) => {
      const c = `${name}(${cname(b, unused)}, ${b.L.cname(m.name)})`;
      release(b, m, e.pos, `${c}: releases ${b.L.cname(m.name)} and waits`, `${name} with '${b.L.cname(m.name)}'`);
      lock(b, `${c}: wakes (signalled, or spuriously as POSIX allows) and retakes ${b.L.cname(m.name)}`, m, e.pos);
    }),
  );
  if (timed) {
    unread(b, e.args[2]);
    arms(b, e.pos, [
      [[], () => r.set(num(0))],
      [[], () => r.set(num(ETIMEDOUT))],
    ]);
  } else r.set(num(0));
  return r.value();
}

/** `pthread_cond_signal`, `_broadcast`, `_init`, `_destroy`: no state to change (see above); the argument must be a condition variable. */
export function condNoState(b: ThreadBuilder, { e, wantValue }: BuiltinCall): Term | undefined {
  e.args.slice(1).forEach((a) => unread(b, a));
  atSync(b, e.args[0], 'cond', () => undefined);
  return wantValue ? num(0) : undefined;
}

// ---- read-write locks: readers share, a writer excludes everyone

/**
 * With the misuse check, how many read holds this thread has on the lock: a ghost
 * global per lock and thread (the reader count does not say which threads read), so
 * that an unlock tells a reader from a thread that holds nothing.
 */
function myReads(b: ThreadBuilder, readers: Var, pos: SourcePos): Var | undefined {
  if (!b.L.checkMisuse) return undefined;
  self(b, pos, 'a read-write lock');
  return b.L.newGlobal(`${readers.name}@${b.inst.name}`, `${b.L.cname(readers.name)}@${b.inst.name}`, INT, pos) as Var;
}

/** One more read hold: the reader count's and, with the misuse check, this thread's. */
function addReader(b: ThreadBuilder, readers: Var, pos: SourcePos, text: string): void {
  b.assign(readers, add(v(readers), num(1)), pos, text);
  const mine = myReads(b, readers, pos);
  if (mine) b.assign(mine, add(v(mine), num(1)), pos, '');
}

function readLock(b: ThreadBuilder, name: string, arg: Expr, pos: SourcePos): void {
  atSync(b, arg, 'rwlock', ({ readers, writer }) => waitThen(b, pos, `${name}(${cname(b, writer)})`, [eq(v(writer), num(0))], () => addReader(b, readers, pos, '')));
}

function writeLock(b: ThreadBuilder, name: string, arg: Expr, pos: SourcePos): void {
  atSync(b, arg, 'rwlock', ({ readers, writer }) =>
    waitThen(b, pos, `${name}(${cname(b, writer)})`, [eq(v(writer), num(0)), eq(v(readers), num(0))], () => b.assign(writer, owner(b), pos, '')),
  );
}

export const rwlockRead = waiting(readLock);
export const rwlockWrite = waiting(writeLock);
export const rwlockTimedRead = timed(readLock);
export const rwlockTimedWrite = timed(writeLock);

/** `tryrdlock`/`trywrlock`: the lock if it is available now, else EBUSY. */
export function rwlockTry(b: ThreadBuilder, { e, name, wantValue }: BuiltinCall): Term | undefined {
  arity(e, 1);
  const r = result(b, wantValue, e.pos);
  const write = name.includes('wrlock');
  atSync(b, e.args[0], 'rwlock', ({ readers, writer }) =>
    atomically(b, e.pos, () => {
      const taken = `${name}(${cname(b, writer)}): taken`;
      const busy = (): void => r.set(num(EBUSY));
      if (write)
        arms(b, e.pos, [
          [[eq(v(writer), num(0)), eq(v(readers), num(0))], () => (b.assign(writer, owner(b), e.pos, taken), r.set(num(0)))],
          [[gt(v(writer), num(0))], busy],
          [[eq(v(writer), num(0)), gt(v(readers), num(0))], busy],
        ]);
      else
        arms(b, e.pos, [
          [[eq(v(writer), num(0))], () => (addReader(b, readers, e.pos, taken), r.set(num(0)))],
          [[gt(v(writer), num(0))], busy],
        ]);
    }),
  );
  return r.value();
}

/**
 * Releases the writer's hold if a writer holds the lock, else one reader's. With the
 * misuse check, the writer's only if this thread is the writer, and a reader's only if
 * this thread reads (myReads); any other unlock is the error.
 */
export function rwlockUnlock(b: ThreadBuilder, { e, name, wantValue }: BuiltinCall): Term | undefined {
  arity(e, 1);
  atSync(b, e.args[0], 'rwlock', ({ readers, writer }) => {
    const at = `${name}(${cname(b, writer)})`;
    const writerLeaves = (): void => b.assign(writer, num(0), e.pos, `${at}: the writer leaves`);
    const readerLeaves = (): void => b.assign(readers, sub(v(readers), num(1)), e.pos, `${at}: a reader leaves`);
    const mine = myReads(b, readers, e.pos);
    if (!mine)
      return atomically(b, e.pos, () =>
        arms(b, e.pos, [
          [[gt(v(writer), num(0))], writerLeaves],
          [[eq(v(writer), num(0)), gt(v(readers), num(0))], readerLeaves],
          [[eq(v(writer), num(0)), le(v(readers), num(0))], () => b.goto(b.err, e.pos, `${at} of a lock no thread holds (undefined behaviour)`)],
        ]),
      );
    const me = owner(b);
    const wrong = (): void => misuse(b, e.pos, `${name} of '${cname(b, writer)}' by a thread that does not hold it`);
    atomically(b, e.pos, () =>
      arms(b, e.pos, [
        [[eq(v(writer), me)], writerLeaves],
        [[eq(v(writer), num(0)), gt(v(mine), num(0))], () => (readerLeaves(), b.assign(mine, sub(v(mine), num(1)), e.pos, ''))],
        [[eq(v(writer), num(0)), le(v(mine), num(0))], wrong],
        // Another writer: below 0 (never), between 0 and this thread's value (none for thread 0), above it.
        ...[[lt(v(writer), num(0))], ...(b.inst.index > 0 ? [[gt(v(writer), num(0)), lt(v(writer), me)]] : []), [gt(v(writer), me)]].map((c) => [c, wrong] as const),
      ]),
    );
  });
  return wantValue ? num(0) : undefined;
}

/** `pthread_rwlock_destroy`: no effect; with the misuse check, destroying a lock some thread holds is the error. */
export function rwlockDestroy(b: ThreadBuilder, call: BuiltinCall): Term | undefined {
  if (!b.L.checkMisuse) return syncDestroy('rwlock')(b, call);
  const { e, name, wantValue } = call;
  arity(e, 1);
  atSync(b, e.args[0], 'rwlock', ({ readers, writer }) => {
    const held = (): void => misuse(b, e.pos, `${name} of '${cname(b, writer)}' while a thread holds it`);
    atomically(b, e.pos, () =>
      arms(b, e.pos, [
        [[eq(v(writer), num(0)), le(v(readers), num(0))], () => b.emit({ kind: 'skip' }, e.pos, `${name}(${cname(b, writer)})`)],
        [[eq(v(writer), num(0)), gt(v(readers), num(0))], held],
        ...other(v(writer), num(0)).map((c) => [c, held] as const),
      ]),
    );
  });
  return wantValue ? num(0) : undefined;
}

export function rwlockInit(b: ThreadBuilder, { e, name, wantValue }: BuiltinCall): Term | undefined {
  arity(e, 2);
  unread(b, e.args[1]);
  atSync(b, e.args[0], 'rwlock', ({ readers, writer }) => {
    b.assign(readers, num(0), e.pos, `${name}(${cname(b, writer)})`);
    b.assign(writer, num(0), e.pos, '');
  });
  return wantValue ? num(0) : undefined;
}

// ---- barriers

/** `pthread_barrier_init(b, attr, n)`: n arrivals release each phase; a count below 1 is EINVAL (the barrier is left as it was). */
export function barrierInit(b: ThreadBuilder, { e, name, wantValue }: BuiltinCall): Term | undefined {
  arity(e, 3);
  unread(b, e.args[1]);
  const n = snapshot(b, b.rvalue(e.args[2]), e.pos);
  const r = result(b, wantValue, e.pos);
  atSync(b, e.args[0], 'barrier', ({ count, arrived, phase }) =>
    arms(b, e.pos, [
      [[ge(n, num(1))], () => {
        b.assign(count, n, e.pos, `${name}(${cname(b, count)}, ${'…'})`);
        b.assign(arrived, num(0), e.pos, '');
        b.assign(phase, num(0), e.pos, '');
        r.set(num(0));
      }],
      [[lt(n, num(1))], () => r.set(num(EINVAL))],
    ]),
  );
  return r.value();
}

/**
 * `pthread_barrier_wait`: an arrival; the count-th arrival of a phase starts the next
 * phase (its call returns PTHREAD_BARRIER_SERIAL_THREAD, the others 0), and every
 * thread waits until the phase it arrived in has ended. The phase counts up, so a
 * waiter is released however many threads use the barrier.
 */
export function barrierWait(b: ThreadBuilder, { e, name, wantValue }: BuiltinCall): Term | undefined {
  arity(e, 1);
  const r = result(b, wantValue, e.pos);
  const mine = b.fresh('phase');
  atSync(b, e.args[0], 'barrier', ({ count, arrived, phase }) => {
    const at = `${name}(${cname(b, count)})`;
    atomically(b, e.pos, () =>
      arms(b, e.pos, [
        [[le(v(count), num(0))], () =>
          b.L.checkMisuse
            ? misuse(b, e.pos, `${name} of '${cname(b, count)}', which pthread_barrier_init did not set up (or which is destroyed)`)
            : b.goto(b.err, e.pos, `${at} on a barrier pthread_barrier_init did not set up (undefined behaviour)`)],
        [[gt(v(count), num(0))], () => {
          b.assign(mine, v(phase), e.pos, `${at}: arrives`);
          arms(b, e.pos, [
            [[ge(add(v(arrived), num(1)), v(count))], () => {
              b.assign(arrived, num(0), e.pos, `${at}: the last arrival releases the phase`);
              b.assign(phase, add(v(phase), num(1)), e.pos, '');
              r.set(num(BARRIER_SERIAL_THREAD));
            }],
            [[lt(add(v(arrived), num(1)), v(count))], () => (b.assign(arrived, add(v(arrived), num(1)), e.pos, ''), r.set(num(0)))],
          ]);
        }],
      ]),
    );
    b.emit({ kind: 'assume', cond: gt(v(phase), b.read(mine, e.pos)), blocking: true, stable: true }, e.pos, `${at}: leaves when the phase has ended`);
  });
  return r.value();
}

/**
 * `pthread_barrier_destroy`: no effect; with the misuse check, destroying a barrier
 * threads wait on (arrivals in the open phase) is the error, and a destroyed barrier
 * has count 0, so that a wait on it is one too, until `pthread_barrier_init` again.
 */
export function barrierDestroy(b: ThreadBuilder, call: BuiltinCall): Term | undefined {
  if (!b.L.checkMisuse) return syncDestroy('barrier')(b, call);
  const { e, name, wantValue } = call;
  arity(e, 1);
  atSync(b, e.args[0], 'barrier', ({ count, arrived }) =>
    atomically(b, e.pos, () =>
      arms(b, e.pos, [
        [[le(v(arrived), num(0))], () => b.assign(count, num(0), e.pos, `${name}(${cname(b, count)})`)],
        [[gt(v(arrived), num(0))], () => misuse(b, e.pos, `${name} of '${cname(b, count)}' while threads wait on it`)],
      ]),
    ),
  );
  return wantValue ? num(0) : undefined;
}

// ---- semaphores

export function semInit(b: ThreadBuilder, { e, name, wantValue }: BuiltinCall): Term | undefined {
  arity(e, 3);
  unread(b, e.args[1]);
  const n = snapshot(b, b.rvalue(e.args[2]), e.pos);
  atSync(b, e.args[0], 'sem', ({ value }) => b.assign(value, n, e.pos, `${name}(${cname(b, value)}, …)`));
  return wantValue ? num(0) : undefined;
}

function semTake(b: ThreadBuilder, name: string, arg: Expr, pos: SourcePos): void {
  atSync(b, arg, 'sem', ({ value }) => waitThen(b, pos, `${name}(${cname(b, value)})`, [gt(v(value), num(0))], () => b.assign(value, sub(v(value), num(1)), pos, '')));
}

/** `sem_wait`: waits until the value is positive, then decrements it, one atomic step. */
export const semWait = waiting(semTake);
export const semTimedWait = timed(semTake);

/** Decrements a positive value and returns 0, else returns -1 at once (errno, EAGAIN, is not modelled). */
export function semTryWait(b: ThreadBuilder, { e, name, wantValue }: BuiltinCall): Term | undefined {
  arity(e, 1);
  const r = result(b, wantValue, e.pos);
  atSync(b, e.args[0], 'sem', ({ value }) =>
    atomically(b, e.pos, () =>
      arms(b, e.pos, [
        [[gt(v(value), num(0))], () => (b.assign(value, sub(v(value), num(1)), e.pos, `${name}(${cname(b, value)}): taken`), r.set(num(0)))],
        [[le(v(value), num(0))], () => r.set(num(-1))],
      ]),
    ),
  );
  return r.value();
}

export function semPost(b: ThreadBuilder, { e, name, wantValue }: BuiltinCall): Term | undefined {
  arity(e, 1);
  atSync(b, e.args[0], 'sem', ({ value }) => b.assign(value, add(v(value), num(1)), e.pos, `${name}(${cname(b, value)})`));
  return wantValue ? num(0) : undefined;
}

/** `sem_getvalue(s, &v)`: stores the value through the pointer. */
export function semGetValue(b: ThreadBuilder, { e, name, wantValue }: BuiltinCall): Term | undefined {
  arity(e, 2);
  const tmp = b.fresh('value');
  atSync(b, e.args[0], 'sem', ({ value }) => b.assign(tmp, v(value), e.pos, `${name}(${cname(b, value)})`));
  atPlace(b, place(b, { k: 'unary', op: '*', arg: e.args[1], pos: e.args[1].pos }), (out) => b.assign(out, b.read(tmp, e.pos), e.pos));
  return wantValue ? num(0) : undefined;
}

/** `sem_destroy`, and `pthread_rwlock_destroy`, `pthread_barrier_destroy` without the misuse check: no effect (a destroyed object must not be used again; that is not checked). */
export function syncDestroy(kind: SyncKind) {
  return (b: ThreadBuilder, { e, wantValue }: BuiltinCall): Term | undefined => {
    arity(e, 1);
    atSync(b, e.args[0], kind, () => undefined);
    return wantValue ? num(0) : undefined;
  };
}

// ---- pthread_once

/**
 * `pthread_once(&o, f)`: the first caller (state 0 → 1) runs f, then marks it run
 * (2); every other caller waits until then, as POSIX says.
 */
export function once(b: ThreadBuilder, { e, name, wantValue }: BuiltinCall): Term | undefined {
  arity(e, 2);
  const first = b.fresh('first');
  atSync(b, e.args[0], 'once', ({ state }) => {
    const at = `${name}(${cname(b, state)})`;
    atomically(b, e.pos, () =>
      arms(b, e.pos, [
        [[eq(v(state), num(0))], () => (b.assign(state, num(1), e.pos, `${at}: runs the function`), b.assign(first, num(1), e.pos, ''))],
        [[gt(v(state), num(0))], () => b.assign(first, num(0), e.pos, '')],
      ]),
    );
    arms(b, e.pos, [
      [[eq(b.read(first, e.pos), num(1))], () => {
        b.call({ k: 'call', callee: e.args[1], args: [], pos: e.pos }, false);
        b.assign(state, num(2), e.pos, `${at}: done`);
      }],
      [[eq(b.read(first, e.pos), num(0))], () => b.emit({ kind: 'assume', cond: eq(v(state), num(2)), blocking: true, stable: true }, e.pos, `${at}: waits until it has run`)],
    ]);
  });
  return wantValue ? num(0) : undefined;
}

/**
 * Recursive and error-checking mutexes. A file that sets a mutex kind
 * (`pthread_mutexattr_settype`, FileScope.mutexKinds) gives every mutex two ghost
 * globals beside its owner: its kind (0 normal, 1 PTHREAD_MUTEX_RECURSIVE, 2
 * PTHREAD_MUTEX_ERRORCHECK, as glibc numbers them; any other value behaves as normal),
 * set by `pthread_mutex_init` from its attribute object, and a recursive mutex's lock
 * count. Lock, unlock and trylock then branch on the kind as POSIX says: a recursive
 * mutex's owner locks it again and must unlock it as often; an error-checking one
 * answers a relock by its owner with EDEADLK and an unlock by another thread with
 * EPERM (so does a recursive one). A file that sets no kind keeps sync.ts's mutexes.
 *
 * The owner is the thread's index: the instances of a thread created in a loop
 * without constant bounds share one, so there these mutexes are refused.
 */
import type { SourcePos } from '../../program/diagnostics.js';
import { unsupported } from '../../program/diagnostics.js';
import { add, eq, gt, le, lt, mkVar, num, sub, type Term } from '../../solver/formula.js';
import { INT } from '../types.js';
import type { ThreadBuilder } from './builder.js';
import { arity, arms, atomically, result, snapshot, type BuiltinCall } from './library.js';
import { atMutex, atSync, condWait, mutexLock, mutexRelease, mutexTimedLock, mutexTryLock, misuse, mutexUnlock, other, type Var } from './sync.js';
import { isNullish } from './ast-queries.js';

const EBUSY = 16n;
const EDEADLK = 35n;
const EPERM = 1n;
const RECURSIVE = 1n;
const ERRORCHECK = 2n;

/** glibc's kind enumerators, known by name where the file does not declare them (a `.c` file read without its headers). */
const KIND_NAMES: Record<string, bigint> = {
  PTHREAD_MUTEX_NORMAL: 0n, PTHREAD_MUTEX_DEFAULT: 0n, PTHREAD_MUTEX_TIMED_NP: 0n, PTHREAD_MUTEX_ADAPTIVE_NP: 3n,
  PTHREAD_MUTEX_RECURSIVE: RECURSIVE, PTHREAD_MUTEX_RECURSIVE_NP: RECURSIVE, PTHREAD_MUTEX_ERRORCHECK: ERRORCHECK, PTHREAD_MUTEX_ERRORCHECK_NP: ERRORCHECK,
};

/** A mutex's kind and lock count. */
function ghosts(b: ThreadBuilder, m: Var, pos: SourcePos): { kind: Var; count: Var } {
  if (b.inst.replicated) unsupported(pos, 'a mutex of a file that sets mutex kinds, used by a thread created in a loop without constant bounds (its instances share one owner)');
  const ghost = (what: string): Var => b.L.newGlobal(`${m.name}.__${what}`, `${b.L.cname(m.name)}'s ${what}`, INT, pos) as Var;
  return { kind: ghost('kind'), count: ghost('count') };
}

const v = (x: Var): Term => mkVar(x.name);
/** The arms of a kind: recursive, error-checking, normal (below 1 or above 2). */
const RECURSIVE_K = (k: Term): Term[][] => [[eq(k, num(RECURSIVE))]];
const ERRORCHECK_K = (k: Term): Term[][] => [[eq(k, num(ERRORCHECK))]];
const NORMAL_K = (k: Term): Term[][] => [[lt(k, num(RECURSIVE))], [gt(k, num(ERRORCHECK))]];

/** What a kinded operation's arms see: the mutex, its count, its kind, whether this thread holds it, this thread's owner value, the call's result. */
interface Kinded {
  m: Var;
  count: Var;
  k: Term;
  mine: Term;
  me: Term;
  r: ReturnType<typeof result>;
}

/** One atomic step on each mutex the argument may point to, branching into `cases`' arms. */
function kinded(b: ThreadBuilder, call: BuiltinCall, cases: (x: Kinded) => Parameters<typeof arms>[2]): Term | undefined {
  const { e } = call;
  arity(e, 1);
  const me = num(b.inst.index + 1);
  const r = result(b, call.wantValue, e.pos);
  atMutex(b, e.args[0], (m) => {
    const { kind, count } = ghosts(b, m, e.pos);
    atomically(b, e.pos, () => arms(b, e.pos, cases({ m, count, k: v(kind), mine: eq(v(m), me), me, r })));
  });
  return r.value();
}

/** Takes a free mutex (count 1), or a recursive one its owner holds (count + 1); `then` are the other arms. */
function take(b: ThreadBuilder, { e, name }: BuiltinCall, x: Kinded, then: Parameters<typeof arms>[2]): Parameters<typeof arms>[2] {
  const { m, count, k, mine, me, r } = x;
  return [
    [[eq(v(m), num(0))], () => {
      b.assign(m, me, e.pos, `${name}(${b.L.cname(m.name)})`);
      b.assign(count, num(1), e.pos, '');
      r.set(num(0));
    }],
    ...RECURSIVE_K(k).map((c) => [[mine, ...c], () => (b.assign(count, add(v(count), num(1)), e.pos, `${name}(${b.L.cname(m.name)}): again, by its owner`), r.set(num(0)))] as const),
    ...then,
  ];
}

export function kindedLock(b: ThreadBuilder, call: BuiltinCall): Term | undefined {
  if (!b.L.mutexKinds) return mutexLock(b, call);
  // A normal mutex its owner locks again, and any mutex another thread holds: no arm, the thread waits.
  return kinded(b, call, (x) => take(b, call, x, ERRORCHECK_K(x.k).map((c) => [[x.mine, ...c], () => x.r.set(num(EDEADLK))] as const)));
}

export function kindedTryLock(b: ThreadBuilder, call: BuiltinCall): Term | undefined {
  if (!b.L.mutexKinds) return mutexTryLock(b, call);
  return kinded(b, call, (x) => {
    const busy = (): void => x.r.set(num(EBUSY));
    return take(b, call, x, [
      ...[...ERRORCHECK_K(x.k), ...NORMAL_K(x.k)].map((c) => [[x.mine, ...c], busy] as const),
      [[lt(v(x.m), x.me), gt(v(x.m), num(0))], busy],
      [[gt(v(x.m), x.me)], busy],
    ]);
  });
}

export function kindedUnlock(b: ThreadBuilder, call: BuiltinCall): Term | undefined {
  if (!b.L.mutexKinds) return mutexUnlock(b, call);
  const { e, name } = call;
  return kinded(b, call, ({ m, count, k, mine, me, r }) => {
    const free = (): void => {
      b.assign(m, num(0), e.pos, `${name}(${b.L.cname(m.name)})`);
      b.assign(count, num(0), e.pos, '');
      r.set(num(0));
    };
    const refuse = (): void => r.set(num(EPERM));
    // A normal mutex unlocked by a thread that does not hold it: undefined behaviour, the error with the misuse check.
    const unheld = b.L.checkMisuse ? (): void => misuse(b, e.pos, `${name} of '${b.L.cname(m.name)}' by a thread that does not hold it`) : free;
    return [
      [[mine, eq(k, num(RECURSIVE)), gt(v(count), num(1))], () => (b.assign(count, sub(v(count), num(1)), e.pos, `${name}(${b.L.cname(m.name)}): one of its owner's locks`), r.set(num(0)))],
      [[mine, eq(k, num(RECURSIVE)), le(v(count), num(1))], free],
      ...[...ERRORCHECK_K(k), ...NORMAL_K(k)].map((c) => [[mine, ...c], free] as const),
      // Not the owner: EPERM for the checking kinds; a normal mutex is freed (rely's mutexes do not check the owner without the misuse check).
      ...other(v(m), me).flatMap((o) => [
        ...[...RECURSIVE_K(k), ...ERRORCHECK_K(k)].map((c) => [[...o, ...c], refuse] as const),
        ...NORMAL_K(k).map((c) => [[...o, ...c], unheld] as const),
      ]),
    ];
  });
}

/** `pthread_mutex_timedlock` in a file that sets mutex kinds is refused: its wait is modelled for normal mutexes only. */
export function kindedTimedLock(b: ThreadBuilder, call: BuiltinCall): Term | undefined {
  if (b.L.mutexKinds) unsupported(call.e.pos, 'pthread_mutex_timedlock in a file that sets mutex kinds (only normal mutexes are modelled for it)');
  return mutexTimedLock(b, call);
}

/**
 * `pthread_cond_wait` and `_timedwait` in a file that sets mutex kinds are refused: the
 * wait's model releases and retakes a normal mutex, while POSIX answers the wait on an
 * error-checking mutex the thread does not hold with EPERM (a recursive one's owner
 * may hold it several times).
 */
export function kindedCondWait(b: ThreadBuilder, call: BuiltinCall): Term | undefined {
  if (b.L.mutexKinds) unsupported(call.e.pos, `${call.name} in a file that sets mutex kinds (only normal mutexes are modelled for it)`);
  return condWait(b, call);
}

/** `pthread_mutex_init(&m, attr)`: free, of the attribute object's kind (normal for NULL). */
export function kindedInit(b: ThreadBuilder, call: BuiltinCall): Term | undefined {
  if (!b.L.mutexKinds) return mutexRelease(b, call);
  const { e, name } = call;
  arity(e, 2);
  const attr = e.args[1];
  atMutex(b, e.args[0], (m) => {
    const { kind, count } = ghosts(b, m, e.pos);
    b.assign(m, num(0), e.pos, `${name}(${b.L.cname(m.name)})`);
    b.assign(count, num(0), e.pos, '');
    if (isNullish(attr)) b.assign(kind, num(0), e.pos, '');
    else atSync(b, attr, 'mutexattr', ({ kind: k }) => b.assign(kind, v(k), e.pos, ''));
  });
  return call.wantValue ? num(0) : undefined;
}

/** `pthread_mutexattr_init(&a)`: the normal kind; `pthread_mutexattr_settype(&a, k)`: kind k. */
export function attrKind(b: ThreadBuilder, { e, name, wantValue }: BuiltinCall): Term | undefined {
  arity(e, name === 'pthread_mutexattr_init' ? 1 : 2);
  const k = e.args[1];
  const value = !k ? num(0) : k.k === 'id' && KIND_NAMES[k.name] !== undefined && b.L.enumConstant(k.name) === undefined ? num(KIND_NAMES[k.name]) : snapshot(b, b.rvalue(k), e.pos);
  atSync(b, e.args[0], 'mutexattr', ({ kind }) => b.assign(kind, value, e.pos, `${name}(…)`));
  return wantValue ? num(0) : undefined;
}


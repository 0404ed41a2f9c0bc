/**
 * The library the verifier models instead of calling: pthreads (threads are static
 * instances whose start and end are ghost flags; synchronisation in sync.ts), the SV-COMP
 * `__VERIFIER_*` functions, and the C error and exit functions. One table entry per
 * function (or family of names) maps it to what its call lowers to, so supporting
 * another library call is adding an entry.
 */
import type { Expr } from '../ast.js';
import { fail, unboundedThreads, unsupported, type SourcePos } from '../../program/diagnostics.js';
import { eq, FALSE, mkVar, num, type Term } from '../../solver/formula.js';
import { calleeName, isNullish, stripCasts, type CallExpr } from './ast-queries.js';
import type { ThreadBuilder } from './builder.js';
import { branch } from './conditions.js';
import type { Binding, FileScope, Instance } from './file-scope.js';
import { dispatch } from './function-pointers.js';
import { atPlace, lvalue, place, type Place } from './places.js';
import { namesVariable } from './functions.js';
import { exprCType, pointee, pointerValue, shareWithThread, storePointer } from './pointers.js';
import { freeObject } from './free.js';
import { variableSource } from '../points-to.js';
import { nondetType } from './integers.js';
import type { IntType } from '../types.js';
import { arity, type Builtin, type BuiltinCall } from './library.js';
import { ATOMIC_BUILTINS } from './atomics.js';
import { isSelf, storeCreatedId, threadEqual, threadSelf } from './thread-ids.js';
import { attrKind, kindedCondWait, kindedInit, kindedLock, kindedTimedLock, kindedTryLock, kindedUnlock } from './mutex-kinds.js';
import { keyCreate, keyGet, keySet } from './keys.js';
import {
  barrierDestroy, barrierInit, barrierWait, condNoState, mutexDestroy, mutexLock, mutexRelease, mutexTryLock, mutexUnlock, once, rwlockDestroy,
  rwlockInit, rwlockRead, rwlockTimedRead, rwlockTimedWrite, rwlockTry, rwlockUnlock, rwlockWrite, semGetValue, semInit, semPost, semTimedWait, semTryWait,
  semWait, syncDestroy,
} from './sync.js';

/** The SV-COMP nondeterministic value functions: `__VERIFIER_nondet_int`, `_uint`, `_bool`, … */
const NONDET = /^__VERIFIER_nondet_/;

const BUILTINS: Builtin[] = [
  // Reaching the property violation.
  { name: 'reach_error', doc: 'SV-COMP: the error to prove unreachable', lower: reachError },
  { name: '__VERIFIER_error', doc: 'older SV-COMP name of reach_error', lower: reachError },
  { name: '__assert_fail', doc: "glibc's assert failure", lower: reachError },
  { name: '__assert_perror_fail', doc: "glibc's assert_perror failure", lower: reachError },
  { name: '__assert', doc: "BSD libc's assert failure", lower: reachError },
  { name: '__assert_rtn', doc: "macOS libc's assert failure", lower: reachError },
  { name: 'assert', doc: 'the error unless the condition holds', lower: assertion },
  { name: '__VERIFIER_assert', doc: 'SV-COMP: as assert', unlessDefined: true, lower: assertion },
  // Stopping.
  { name: 'abort', doc: 'halts the whole program (not an error)', lower: haltCall },
  { name: 'exit', doc: 'halts the whole program', lower: haltCall },
  { name: '_exit', doc: 'halts the whole program', lower: haltCall },
  { name: '_Exit', doc: 'halts the whole program', lower: haltCall },
  { name: '__VERIFIER_assume', doc: 'SV-COMP: blocks unless the condition holds', lower: assume },
  { name: 'assume_abort_if_not', doc: 'SV-COMP prelude: halts unless the condition holds', unlessDefined: true, lower: assumeOrHalt },
  // SV-COMP nondeterminism and atomicity.
  { name: NONDET, doc: 'SV-COMP: any value of the type in the name (integers only)', unlessDefined: true, lower: nondet },
  { name: '__VERIFIER_atomic_begin', doc: 'SV-COMP: opens an atomic section', lower: atomicMarker },
  { name: '__VERIFIER_atomic_end', doc: 'SV-COMP: closes an atomic section', lower: atomicMarker },
  // pthreads.
  { name: 'pthread_create', doc: 'starts a new static thread instance (returns 0)', lower: threadCreate },
  { name: 'pthread_join', doc: 'waits for the thread to finish (returns 0)', lower: threadJoin },
  { name: 'pthread_exit', doc: 'returns from the thread function', lower: threadExit },
  { name: 'pthread_self', doc: "the calling thread's id, where a pthread_t is expected", lower: threadSelf },
  { name: 'pthread_equal', doc: 'whether two pthread_t name the same thread (1, else 0)', lower: threadEqual },
  { name: 'pthread_detach', doc: 'no effect: the thread runs to its end; a join of it is refused (returns 0)', lower: threadDetach },
  { name: 'pthread_mutex_lock', doc: 'waits until the mutex is free, then owns it (returns 0); recursive and error-checking kinds as POSIX says', lower: kindedLock },
  { name: 'pthread_mutex_unlock', doc: 'frees the mutex (returns 0; with --check misuse, an unlock by a thread that does not hold it is an error); recursive and error-checking kinds as POSIX says', lower: kindedUnlock },
  { name: 'pthread_mutex_init', doc: 'frees the mutex, of the attribute object kind (returns 0)', lower: kindedInit },
  { name: 'pthread_mutex_trylock', doc: 'takes the mutex if it is free (returns 0), else returns EBUSY', lower: kindedTryLock },
  { name: /^pthread_mutexattr_(init|settype)$/, doc: "the attribute object's kind: normal, or the one set", unlessDefined: true, lower: attrKind },
  { name: 'pthread_mutex_timedlock', doc: 'as pthread_mutex_lock, or times out (ETIMEDOUT) at any time', lower: kindedTimedLock },
  { name: 'pthread_spin_lock', doc: 'as pthread_mutex_lock', lower: mutexLock },
  { name: 'pthread_spin_unlock', doc: 'as pthread_mutex_unlock', lower: mutexUnlock },
  { name: 'pthread_spin_init', doc: 'frees the spinlock (returns 0)', lower: mutexRelease },
  { name: 'pthread_spin_trylock', doc: 'as pthread_mutex_trylock', lower: mutexTryLock },
  { name: 'pthread_cond_wait', doc: 'releases the mutex, then (signalled, or spuriously) retakes it (returns 0); refused in a file that sets mutex kinds', lower: kindedCondWait },
  { name: 'pthread_cond_timedwait', doc: 'as pthread_cond_wait, returning 0 or ETIMEDOUT', lower: kindedCondWait },
  { name: /^pthread_cond_(signal|broadcast|init|destroy)$/, doc: 'no effect: a wait may wake at any time anyway (returns 0)', lower: condNoState },
  { name: 'pthread_rwlock_rdlock', doc: 'waits until no writer holds the lock, then reads (returns 0)', lower: rwlockRead },
  { name: 'pthread_rwlock_wrlock', doc: 'waits until nobody holds the lock, then writes (returns 0)', lower: rwlockWrite },
  { name: /^pthread_rwlock_try(rd|wr)lock$/, doc: 'the lock if available now (returns 0), else EBUSY', lower: rwlockTry },
  { name: 'pthread_rwlock_timedrdlock', doc: 'the read lock, or a time-out (ETIMEDOUT) at any time', lower: rwlockTimedRead },
  { name: 'pthread_rwlock_timedwrlock', doc: 'the write lock, or a time-out (ETIMEDOUT) at any time', lower: rwlockTimedWrite },
  { name: 'pthread_rwlock_unlock', doc: "ends the writer's hold, or one reader's; with neither, the error location (undefined behaviour); with --check misuse, an unlock by a thread that does not hold it is an error", lower: rwlockUnlock },
  { name: 'pthread_rwlock_init', doc: 'an unheld lock (returns 0)', lower: rwlockInit },
  { name: 'pthread_rwlock_destroy', doc: 'no effect (returns 0); with --check misuse, destroying a held lock is an error', lower: rwlockDestroy },
  { name: 'pthread_barrier_init', doc: 'count n (returns 0; EINVAL for n < 1)', lower: barrierInit },
  { name: 'pthread_barrier_wait', doc: 'waits until count threads have arrived; the last returns PTHREAD_BARRIER_SERIAL_THREAD, the others 0', lower: barrierWait },
  { name: 'pthread_barrier_destroy', doc: 'no effect (returns 0); with --check misuse, destroying a barrier threads wait on is an error, and so is a later wait', lower: barrierDestroy },
  { name: 'sem_init', doc: 'the value (returns 0)', lower: semInit },
  { name: 'sem_wait', doc: 'waits until the value is positive, then decrements it (returns 0)', lower: semWait },
  { name: 'sem_timedwait', doc: 'as sem_wait, or a time-out (ETIMEDOUT) at any time', lower: semTimedWait },
  { name: 'sem_trywait', doc: 'decrements a positive value (returns 0), else returns -1', lower: semTryWait },
  { name: 'sem_post', doc: 'increments the value (returns 0)', lower: semPost },
  { name: 'sem_getvalue', doc: 'stores the value through the pointer (returns 0)', lower: semGetValue },
  { name: 'sem_destroy', doc: 'no effect (returns 0)', lower: syncDestroy('sem') },
  { name: 'pthread_key_create', doc: 'a key of its own for this call (returns 0); a destructor is refused', lower: keyCreate },
  { name: 'pthread_setspecific', doc: "this thread's value for the key (returns 0)", lower: keySet },
  { name: 'pthread_getspecific', doc: "this thread's value for the key (NULL until set)", lower: keyGet },
  { name: 'pthread_key_delete', doc: 'no effect (returns 0)', unlessDefined: true, lower: noEffect },
  { name: 'pthread_once', doc: 'the first caller runs the function; the others wait until it has run (returns 0)', lower: once },
  // The heap.
  { name: /^(malloc|calloc|alloca|__builtin_alloca)$/, doc: "a new object, as the value of a typed pointer (its type is the pointer's)", unlessDefined: true, lower: allocationElsewhere },
  { name: 'free', doc: 'no effect; with --check-free, ends the object (a later use or free is an error)', unlessDefined: true, lower: freeCall },
  { name: 'realloc', doc: 'not modelled (unsupported)', unlessDefined: true, lower: heap },
  // No effect on what is verified (returning 0 when used).
  { name: 'printf', doc: 'output', unlessDefined: true, lower: noEffect },
  { name: 'puts', doc: 'output', unlessDefined: true, lower: noEffect },
  { name: 'putchar', doc: 'output', unlessDefined: true, lower: noEffect },
  { name: 'fprintf', doc: 'output', unlessDefined: true, lower: noEffect },
  { name: 'fflush', doc: 'output', unlessDefined: true, lower: noEffect },
  { name: 'sched_yield', doc: 'scheduling hint: every interleaving is explored anyway', unlessDefined: true, lower: noEffect },
  { name: 'pthread_yield', doc: 'scheduling hint', unlessDefined: true, lower: noEffect },
  { name: 'pthread_mutex_destroy', doc: 'not modelled (a destroyed mutex must not be used again); with --check misuse, destroying a held mutex is an error', unlessDefined: true, lower: lockDestroy },
  { name: 'pthread_spin_destroy', doc: 'not modelled (a destroyed spinlock must not be used again); with --check misuse, destroying a held one is an error', unlessDefined: true, lower: lockDestroy },
  { name: 'pthread_mutexattr_destroy', doc: 'no effect', unlessDefined: true, lower: noEffect },
  { name: 'pthread_attr_init', doc: 'thread attributes are not modelled', unlessDefined: true, lower: noEffect },
  { name: 'pthread_attr_destroy', doc: 'thread attributes are not modelled', unlessDefined: true, lower: noEffect },
  { name: 'pthread_attr_setdetachstate', doc: 'thread attributes are not modelled', unlessDefined: true, lower: noEffect },
  { name: '__VERIFIER_atomic_end_dummy', doc: 'SV-COMP helper without effect', unlessDefined: true, lower: noEffect },
  ...ATOMIC_BUILTINS,
];

const BY_NAME = new Map(BUILTINS.flatMap((x) => (typeof x.name === 'string' ? [[x.name, x] as const] : [])));
const FAMILIES = BUILTINS.filter((x) => x.name instanceof RegExp);

/** The builtin a call of `name` lowers to; `defined` when the program has a body for it. */
export function builtin(name: string, defined: boolean): Builtin | undefined {
  const hit = BY_NAME.get(name) ?? FAMILIES.find((x) => (x.name as RegExp).test(name));
  return hit && !(hit.unlessDefined && defined) ? hit : undefined;
}

/** Sets the halt flag and stops at the halt location. */
function halt(b: ThreadBuilder, pos: SourcePos, text: string): void {
  b.emit({ kind: 'assign', target: b.L.haltFlag(), value: num(1) }, pos, text);
  b.goto(b.halt, pos, '');
}

// ---- errors, assertions, stopping

function reachError(b: ThreadBuilder, { e, name }: BuiltinCall): undefined {
  b.goto(b.err, e.pos, `${name}()`);
  return undefined;
}

function assertion(b: ThreadBuilder, { e, name }: BuiltinCall): undefined {
  arity(e, 1);
  const ok = b.cfg.newLoc(e.pos);
  const bad = b.cfg.newLoc(e.pos);
  branch(b, e.args[0], ok, bad);
  b.cur = bad;
  b.goto(b.err, e.pos, `${name} failed`);
  b.cur = ok;
  return undefined;
}

function haltCall(b: ThreadBuilder, { e, name }: BuiltinCall): undefined {
  halt(b, e.pos, `${name}()`);
  return undefined;
}

/** Paths where the condition fails are not executions at all: a blocking assume. */
function assume(b: ThreadBuilder, { e }: BuiltinCall): undefined {
  arity(e, 1);
  const ok = b.cfg.newLoc(e.pos);
  branch(b, e.args[0], ok, -1, true);
  b.cur = ok;
  return undefined;
}

function assumeOrHalt(b: ThreadBuilder, { e }: BuiltinCall): undefined {
  arity(e, 1);
  const ok = b.cfg.newLoc(e.pos);
  const stop = b.cfg.newLoc(e.pos);
  branch(b, e.args[0], ok, stop);
  b.cur = stop;
  halt(b, e.pos, 'abort()');
  b.cur = ok;
  return undefined;
}

function heap(_b: ThreadBuilder, { e, name }: BuiltinCall): never {
  return unsupported(e.pos, `${name} (only malloc, calloc, alloca and free are modelled)`);
}

/** An allocation whose value is not a pointer's (pointers.ts allocation takes the others). */
function allocationElsewhere(_b: ThreadBuilder, { e, name }: BuiltinCall): never {
  return unsupported(e.pos, `${name} whose result is not stored in, nor cast to, a pointer to a type (the object's type comes from that pointer)`);
}

function freeCall(b: ThreadBuilder, { e }: BuiltinCall): undefined {
  arity(e, 1);
  freeObject(b, e.args[0], e.pos);
  return undefined;
}

/** The arguments are evaluated for their side effects (`printf("%d", x++)`); the call itself does nothing. */
function noEffect(b: ThreadBuilder, { e, wantValue }: BuiltinCall): Term | undefined {
  for (const a of e.args) if (a.k !== 'str') b.effect(a);
  return wantValue ? num(0) : undefined;
}

/** `pthread_mutex_destroy`, `pthread_spin_destroy`: no effect, unless --check misuse asks whether the lock is held (sync.ts). */
function lockDestroy(b: ThreadBuilder, call: BuiltinCall): Term | undefined {
  return b.L.checkMisuse ? mutexDestroy(b, call) : noEffect(b, call);
}

// ---- SV-COMP nondeterminism and atomic sections

/** The range of a builtin `__VERIFIER_nondet_*()` call, or undefined if `e` is no such call. */
export function nondetRange(b: ThreadBuilder, e: Expr): [bigint | undefined, bigint | undefined] | undefined {
  const t = nondetCallType(b, e);
  return t && [t.lo, t.hi];
}

/** The type of a builtin `__VERIFIER_nondet_*()` call, or undefined if `e` is no such call. */
function nondetCallType(b: ThreadBuilder, e: Expr): IntType | undefined {
  const name = calleeName(e);
  if (!name || !NONDET.test(name) || b.L.hasBody(name)) return undefined;
  const kind = name.slice('__VERIFIER_nondet_'.length);
  if (/float|double|pointer/.test(kind)) unsupported(e.pos, `${name} (only integer nondeterminism is modelled)`);
  return nondetType(kind, b.L.typeEnv.longBits);
}

function nondet(b: ThreadBuilder, { e, name, wantValue }: BuiltinCall): Term | undefined {
  // A nondet pointer nobody reads has no effect: wmm tasks end a thread with
  // `return __VERIFIER_nondet_pointer();`, a result no join asks for. Read, it stays
  // unsupported (nondetCallType): its targets are unknown.
  if (!wantValue && /pointer/.test(name)) return undefined;
  const t = nondetCallType(b, e)!;
  const tmp = b.fresh('nondet', t);
  if (tmp.k === 'var') b.emit({ kind: 'havoc', target: tmp.name, lo: t.lo, hi: t.hi }, e.pos, `${name}()`);
  return b.read(tmp, e.pos);
}

function atomicMarker(b: ThreadBuilder, { e, name }: BuiltinCall): undefined {
  const begin = name.endsWith('begin');
  b.atomicDepth += begin ? 1 : -1;
  b.emit({ kind: begin ? 'atomicBegin' : 'atomicEnd' }, e.pos, `${name}()`);
  return undefined;
}

// ---- pthreads

/**
 * A new thread instance running the named function. Created before main's first
 * visible step, it runs from the initial state; otherwise it waits for its start flag,
 * which this call sets.
 */
function threadCreate(b: ThreadBuilder, { e }: BuiltinCall): Term {
  arity(e, 4);
  const [h, , fnExpr, argExpr] = e.args;
  const named = stripCasts(fnExpr);
  const fnName = named.k === 'id' ? named.name : undefined;
  if (fnName ? namesVariable(b, fnName, named.pos) : pointee(b, fnExpr)?.k === 'func') return threadThroughPointer(b, e);
  if (!fnName) return unsupported(fnExpr.pos, 'thread function must be named directly or be a function-pointer variable');
  const replicated = b.realLoops > 0;
  if (replicated && !b.L.templates) unboundedThreads(e.pos, 'thread creation inside a loop without constant bounds (unbounded thread creation)');
  if (replicated && b.L.threadIds) unsupported(e.pos, 'thread creation in a loop without constant bounds in a file that calls pthread_self or pthread_equal (the instances would share one id)');
  if (b.inst.replicated) unsupported(e.pos, 'thread creation in a thread that is itself created in a loop without constant bounds');
  // A template's handle (often t[i], i chosen at run time) names no one instance.
  const cell = replicated ? undefined : handlePlace(b, h);
  if (cell && cell.k !== 'static') {
    // Past the end of a pthread_t array (the last copy of a loop counting through its
    // cells, statements.ts): undefined behaviour, before the thread exists.
    const i = cell.k === 'dynamic' && cell.index.kind === 'int' ? cell.index.value : undefined;
    if (cell.k === 'dynamic' && i !== undefined && !cell.cases.some(([lo, hi]) => lo <= i && i <= hi)) {
      b.goto(b.err, e.pos, `pthread_create: ${cell.miss}`);
      return num(0);
    }
    // A loop cut for the bug search (LowerOptions.maxInstances) that creates into t[i]:
    // the thread runs untracked, and a join of such a cell waits for ever (threadJoin),
    // which keeps only some of the program's runs, as the cut itself does.
    if (b.L.maxInstances === undefined)
      return unsupported(h.pos, 'pthread_create into a pthread_t chosen at run time (only a loop counting through the cells of an array, each iteration creating into t[i], is modelled)');
    const inst = startThread(b, fnName, threadArg(b, argExpr, false), e, false);
    if (b.L.threadIds) atPlace(b, cell, (c) => storeCreatedId(b, c, inst, e.pos));
    return num(0);
  }
  const arg = threadArg(b, argExpr, replicated);
  const inst = startThread(b, fnName, arg, e, replicated);
  if (cell) {
    storeCreatedId(b, cell.b, inst, e.pos);
    Object.assign(asHandle(cell.b, h.pos).slot, { inst, alternatives: undefined });
  }
  return num(0);
}

/**
 * `pthread_create(&t, 0, f, arg)` for a function-pointer variable f: one instance per
 * function f may hold, each started in its case of a split on f's value (NULL and
 * anything else reach the error); the handle then names them all, and a join waits
 * for the one that was started.
 */
function threadThroughPointer(b: ThreadBuilder, e: CallExpr): Term {
  const [h, , fnExpr, argExpr] = e.args;
  if (b.realLoops > 0 || b.inst.replicated) unsupported(e.pos, 'thread creation through a function pointer in a loop without constant bounds (a template needs its function statically)');
  const cell = handlePlace(b, h);
  if (cell.k !== 'static') return unsupported(h.pos, 'pthread_create through a function pointer into a pthread_t chosen at run time');
  const arg = threadArg(b, argExpr, false);
  const slot = asHandle(cell.b, h.pos).slot;
  const started: Instance[] = [];
  dispatch(b, fnExpr, e.pos, 'pthread_create', (fn) => {
    const inst = startThread(b, fn, arg, e, false);
    storeCreatedId(b, cell.b, inst, e.pos);
    started.push(inst);
  });
  Object.assign(slot, started.length === 1 ? { inst: started[0], alternatives: undefined } : { inst: undefined, alternatives: started });
  return num(0);
}

/** A new instance of the named thread function, started by this call. */
function startThread(b: ThreadBuilder, fnName: string, arg: Binding, e: CallExpr, replicated: boolean): Instance {
  const fn = b.L.functionDef(fnName) ?? fail(e.args[2].pos, `unknown thread function '${fnName}'`);
  if (b.inst.chain.includes(fnName) || b.inst.fn.decl.name === fnName)
    unsupported(e.pos, `unbounded thread creation: '${fnName}' (transitively) creates itself`);
  if (!replicated) b.once(e.pos, 'thread creation');
  const atInit = b.atPrefix();
  const inst = b.L.newInstance(fn, arg, atInit, [...b.inst.chain, b.inst.fn.decl.name!], e.pos, replicated);
  b.startedThreads = true;
  if (!atInit) {
    const flag = b.L.ghost(`__started.${inst.name}`);
    b.emit({ kind: 'assign', target: flag, value: num(1) }, e.pos, `pthread_create(${inst.name})`);
  }
  return inst;
}

/**
 * What the thread function's parameter denotes: a constant, NULL, or a variable or
 * array through its address (an alias, fixed when the thread is created: the
 * instances of a thread created in a loop without constant bounds share it). A local
 * passed so becomes a global, since the new thread reads and writes it.
 */
function threadArg(b: ThreadBuilder, e: Expr, replicated: boolean): Binding {
  const a = stripCasts(e);
  const c = b.L.constant(a) ?? constantBinding(b, a);
  if (c !== undefined) return c === 0n && isNullish(e) ? { k: 'null' } : { k: 'const', value: c };
  const x = a.k === 'id' ? b.lookup(a.name, a.pos) : undefined;
  const target = a.k === 'unary' && a.op === '&' ? lvalue(b, a.arg) : x?.k === 'alias' ? x.target : x?.k === 'array' ? x : undefined;
  if (!target && pointee(b, a)) return pointerArg(b, a, replicated);
  if (!target) return unsupported(e.pos, 'thread argument must be a constant, NULL, &variable, an array or a pointer');
  shareWithThread(b, target);
  return { k: 'alias', target };
}

/**
 * A pointer computed at run time given to a new thread: a global pointer variable of
 * the instance's own, stored before the thread starts; the thread's parameter denotes
 * it. Instances of a thread created in a loop without constant bounds would share it.
 */
function pointerArg(b: ThreadBuilder, a: Expr, replicated: boolean): Binding {
  if (replicated) return unsupported(a.pos, 'a pointer computed at run time as the argument of a thread created in a loop without constant bounds (its instances would share it)');
  const type = exprCType(b, a)!;
  const x = b.L.newGlobal(`arg:${b.inst.name}:${b.objectCount++}`, 'a thread argument', type.k === 'array' ? { k: 'ptr', to: type.of } : type, a.pos);
  storePointer(b, x, pointerValue(b, a), a.pos);
  return x;
}

/** The value of an identifier bound to a constant (an unrolled loop's variable). */
function constantBinding(b: ThreadBuilder, e: Expr): bigint | undefined {
  if (e.k !== 'id') return undefined;
  const x = b.lookup(e.name, e.pos);
  return x.k === 'const' ? x.value : undefined;
}

/** Where a handle argument (`t`, `&t`, `t[i]`, `&t[i]`) is: a pthread_t, or one chosen at run time (a case split). */
function handlePlace(b: ThreadBuilder, arg: Expr): Place {
  const a = stripCasts(arg);
  return place(b, a.k === 'unary' && a.op === '&' ? a.arg : a);
}

function asHandle(x: Binding, pos: SourcePos): Extract<Binding, { k: 'handle' }> {
  const h = x.k === 'alias' ? x.target : x;
  return h.k === 'handle' ? h : fail(pos, 'argument is not a pthread_t');
}

/** The array cells a handle argument indexes (`t[i][j]`: j, then i). */
function indices(arg: Expr): Expr[] {
  const out: Expr[] = [];
  let a = stripCasts(arg);
  if (a.k === 'unary' && a.op === '&') a = a.arg;
  for (; a.k === 'index'; a = a.base) out.push(a.index);
  return out;
}

/** Whether every array index in a handle argument is known statically. */
function staticIndices(b: ThreadBuilder, arg: Expr): boolean {
  return indices(arg).every((i) => b.L.constant(i) !== undefined || constantBinding(b, i) !== undefined);
}

/**
 * Blocks until the thread's termination flag is set. A handle chosen at run time (t[i])
 * is a case split over the cells, each awaiting its cell's instance; an index out of
 * bounds is undefined behaviour and reaches the error location.
 */
function threadJoin(b: ThreadBuilder, { e, wantValue }: BuiltinCall): Term | undefined {
  arity(e, 2); // `pthread_join()` without its arguments: a located error, not a missing argument read below
  const arg = e.args[0];
  const result = isNullish(e.args[1]) ? undefined : e.args[1];
  // With templates, a join of a handle no single instance owns (one that a loop of
  // templates filled) is not awaited: the joining thread may go on at once, which
  // over-approximates its runs. A cell chosen at run time may be such a handle.
  const notAwaited = (): void => {
    if (result) unsupported(result.pos, "pthread_join's result of a thread created in a loop without constant bounds");
    if (b.L.calls('pthread_detach')) unsupported(e.pos, 'pthread_join of a thread created in a loop without constant bounds in a file that detaches threads (joining a detached thread is undefined behaviour)');
    b.emit({ kind: 'skip' }, e.pos, 'pthread_join(template instance: not awaited)');
  };
  if (b.L.templates && !staticIndices(b, arg)) notAwaited();
  else {
    const p = handlePlace(b, arg);
    atPlace(b, p, (cell) => {
      const { inst, alternatives, stored } = asHandle(cell, arg.pos).slot;
      if (stored) unsupported(arg.pos, 'pthread_join of a pthread_t an assignment writes (only a handle pthread_create writes is joined)');
      for (const x of alternatives ?? (inst ? [inst] : [])) if (x.detached) detachedJoin(x, e.pos);
      if (alternatives) joinOneOf(b, alternatives, e.pos, result);
      else if (inst) {
        inst.joined = true;
        const done = b.L.ghost(`__done.${inst.name}`);
        b.emit({ kind: 'assume', cond: eq(mkVar(done), num(1)), blocking: true, stable: true }, e.pos, `pthread_join(${inst.name})`);
        if (result) storeResult(b, inst, result, e.pos);
      } else if (b.L.templates) notAwaited();
      else if (p.k === 'static' && !indices(arg).length) fail(arg.pos, 'pthread_join of a thread that was not created');
      else if (b.L.maxInstances !== undefined)
        b.emit({ kind: 'assume', cond: FALSE, blocking: true }, e.pos, 'pthread_join(a thread the bounded bug search does not track): waits for ever');
      // A cell's thread may be created by a thread lowered later; or the join never runs.
      else unsupported(arg.pos, 'pthread_join of a pthread_t array cell that no pthread_create before it in this thread writes');
    });
  }
  return wantValue ? num(0) : undefined;
}

/** A join of a detached thread (undefined behaviour) is refused where the join and the detach are both in the file. */
function detachedJoin(inst: Instance, pos: SourcePos): never {
  const d = inst.detached!;
  return unsupported(pos, `pthread_join of ${inst.name}, which pthread_detach at ${d.line}:${d.col} detaches (joining a detached thread is undefined behaviour)`);
}

/**
 * `pthread_detach(t)`: the thread runs to its end as without the call, so the call changes
 * nothing a safety property reads; only a later join of the thread is undefined
 * behaviour, as is detaching it again. A detached thread known statically (a handle
 * pthread_create writes, `pthread_self()`) is marked, and a join or a second detach
 * of it refused (on whatever paths they lie); a thread known only at run time (a
 * pthread_t an assignment writes, a cell chosen at run time) is detached only in a
 * file without `pthread_join`.
 */
function threadDetach(b: ThreadBuilder, { e, wantValue }: BuiltinCall): Term | undefined {
  arity(e, 1);
  const arg = e.args[0];
  const mark = (inst: Instance): void => {
    if (inst.joined) unsupported(e.pos, `pthread_detach of ${inst.name}, which a pthread_join also waits for (joining a detached thread is undefined behaviour)`);
    const d = inst.detached;
    if (d) unsupported(e.pos, `pthread_detach of ${inst.name}, which pthread_detach at ${d.line}:${d.col} detaches too (detaching a detached thread is undefined behaviour)`);
    inst.detached = e.pos;
  };
  const unknown = (): void => {
    if (b.L.calls('pthread_join')) unsupported(arg.pos, 'pthread_detach of a thread known only at run time in a file that joins threads (a join of it would be undefined behaviour)');
  };
  if (isSelf(arg)) mark(b.inst);
  else if (b.L.templates && !staticIndices(b, arg)) unknown();
  else {
    const p = handlePlace(b, arg);
    const slot = p.k === 'static' ? asHandle(p.b, arg.pos).slot : undefined;
    const started = slot?.alternatives ?? (slot?.inst ? [slot.inst] : []);
    if (started.length) started.forEach(mark);
    else unknown();
  }
  return wantValue ? num(0) : undefined;
}

/** A join of a handle started through a function pointer: exactly one of its instances runs, and the join waits for it. */
function joinOneOf(b: ThreadBuilder, alternatives: readonly Instance[], pos: SourcePos, result: Expr | undefined): void {
  const from = b.cur;
  const next = b.cfg.newLoc(pos);
  for (const inst of alternatives) {
    inst.joined = true;
    const done = mkVar(b.L.ghost(`__done.${inst.name}`));
    b.cur = from;
    b.emit({ kind: 'assume', cond: eq(done, num(1)), blocking: true, stable: true }, pos, `pthread_join(${inst.name})`);
    if (result) storeResult(b, inst, result, pos);
    b.goto(next, pos, '');
  }
  b.cur = next;
}

/** `pthread_exit(v)`: returns v from the thread function (kept where a join reads it: threadResult). */
function threadExit(b: ThreadBuilder, { e }: BuiltinCall): undefined {
  arity(e, 1);
  // main's pthread_exit would run the key destructors on main's values: not modelled (main's end runs none).
  if (b.inst.index === 0 && b.L.keyDestructors().length) unsupported(e.pos, 'pthread_exit in main of a file whose keys have destructors');
  const result = b.frames[0].retVar;
  if (result) storePointer(b, b.lookupVar(result), pointerValue(b, e.args[0]), e.pos);
  b.goto(b.frames[0].retLoc, e.pos, 'pthread_exit');
  return undefined;
}

/**
 * The global that keeps what a thread instance returns, where some join reads it
 * (FileScope.joinResults): a `void *`, as pthreads passes it. Instances of a template
 * would share it; their results are refused where joined.
 */
export function threadResult(L: FileScope, inst: Instance): string | undefined {
  if (!L.joinResults || inst.replicated) return undefined;
  const name = `__result.${inst.name}`;
  L.newGlobal(name, `${inst.name}'s result`, { k: 'ptr', to: { k: 'void' } }, inst.pos);
  return name;
}

/** `pthread_join(t, &r)` of an instance that has ended: `r = its result`. */
function storeResult(b: ThreadBuilder, inst: Instance, target: Expr, pos: SourcePos): void {
  const result = threadResult(b.L, inst) ?? unsupported(target.pos, "pthread_join's result of a thread created in a loop without constant bounds");
  const v = { term: mkVar(result), from: variableSource(result) };
  const t = stripCasts(target);
  b.atLvalue(t.k === 'unary' && t.op === '&' ? t.arg : { k: 'unary', op: '*', arg: t, pos: t.pos }, (cell) => storePointer(b, cell, v, pos));
}

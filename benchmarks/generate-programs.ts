/**
 * Random small concurrent C programs for the differential check of the engines against
 * the concrete explorer (differential-check.ts, run by test/benchmarks/differential.slow.test.ts and
 * differential-suite.ts) and for the explicit engines' tests.
 *
 * A program is fixed by (seed, index): main starts 2–3 threads (and may join them and
 * assert afterwards) over 1–3 global ints and 0–2 locals per thread; statements are
 * assignments of constants 0..3, variables and `y + c`, `if`/`else`, `__VERIFIER_assume`
 * as a blocking wait, `__VERIFIER_atomic_begin/end` regions, `pthread_mutex_lock/unlock`
 * around a few statements, asserts, rarely `abort()` in a branch, and sometimes a step of
 * main between two `pthread_create`s. No loops and no nondet values, so exploration is
 * exhaustive and exact: "no error in any run" or "error reachable".
 *
 * With `extended` (the differential suite's programs) a program may also have a global
 * array `arr[2]` (constant and computed indices), helper functions (a value function
 * `add` and a global writer `put`, inlined), nondet locals bounded by an assume
 * (0..2, so exploration stays exact), bounded `for` loops (sums wrap modulo 4 inside
 * them, so values stay finite) and `%` and `/` by constants.
 *
 * With `data` (on top of `extended`: `rely bench --suite differential --data`) a program
 * also has C data the frontend models: a global `struct S s`, a `struct T t` nesting
 * one, an array of structs `sa[2]`, a union `u` of two ints, an int array `da[3]`
 * whose cells are indexed by locals known only at run time (nondet ones in 0..3 —
 * sums of nondet bools, or bounded by an assume — and computed ones: some indices run
 * out of bounds, undefined behaviour that reaches the error location in rely's model,
 * the explorer's as every engine's), pointers to its cells (`int *q`:
 * `&da[i]`, `q + 1`, `*q`), pointers to struct globals (`struct S *p`: thread 1's
 * argument, or assigned; `p->f`), struct locals and struct copies (`ls = s`, `t.in = s`);
 * in half of them `da` is a heap object (`int *da`, calloc'd by main, freed at its end).
 *
 * With `sync` (on top of `extended`: `rely bench --suite differential --sync`) a program
 * also uses the POSIX synchronisation library and atomics as the frontend models them
 * (frontend/lower/sync.ts, atomics.ts): `pthread_cond_wait` under the mutex in a `while`
 * loop over a flag, sometimes in an `if` (a spurious wakeup passes it: a real bug
 * source), with `pthread_cond_signal`/`broadcast` after a write of the flag under the
 * mutex; `pthread_rwlock_rdlock/wrlock/tryrdlock/unlock`; a barrier that main sets up
 * for the number of threads that wait on it, once each (sometimes one thread, count 1);
 * a semaphore (`sem_wait/post/trywait`); `pthread_mutex_trylock`; a spinlock; counters
 * incremented with `__sync_fetch_and_add`, `__sync_bool_compare_and_swap`,
 * `atomic_fetch_add`, `atomic_compare_exchange_strong`, `++` on an `_Atomic int`,
 * `atomic_load/atomic_store`, and racy read-then-write increments; asserts over the
 * counters from what the threads certainly and possibly add, in threads and in main.
 *
 * The SV-COMP `assert` macro puts an `ERROR:` label into the function, and a label may
 * appear once per function, so a function's first assert uses the macro and further
 * ones call `__VERIFIER_assert` (inlined, its label local to each inlining).
 *
 * This module draws a program's shape and writes its globals, threads and main; the
 * generator (random-programs/generator.ts: the draws, the lines, the facts), the
 * statements (statements.ts) and the constructs of extended, data and sync programs
 * (extended.ts, data.ts, sync.ts) sit in random-programs/.
 */
import { mulberry32 } from './prng.js';
import { Generator } from './random-programs/generator.js';
import type { Scope } from './random-programs/model.js';
import { assign, statement } from './random-programs/statements.js';
import { dataMemory, declareData, declarePointers, heapArray, structS } from './random-programs/data.js';
import { counterAssert, counters, declareSync } from './random-programs/sync.js';

/** The PRNG of program `index` of a run with `seed`: each program reproduces on its own. */
function programRng(seed: number, index: number): () => number {
  const r = mulberry32((seed ^ Math.imul(index + 1, 0x9e3779b9)) | 0);
  r(); // decorrelate neighbouring indices
  return r;
}

const PRELUDE = `extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "gen.c", 3, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: {reach_error();abort();} } return; }
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
`;

const GLOBALS = ['x', 'y', 'z'];
const LOCALS = ['a', 'b'];
/** generateProgram's options (see there). */
export interface ProgramOptions {
  readonly looping?: boolean;
  readonly instances?: boolean;
  readonly extended?: boolean;
  readonly data?: boolean;
  readonly sync?: boolean;
}

/** What is drawn first: the scalar globals, the threads, whether there is a mutex `m` and main joins, the barrier's count. */
interface Shape {
  readonly scalars: string[];
  readonly mutex: boolean;
  readonly threads: number;
  readonly join: boolean;
  /** How many threads wait on the barrier (0: there is none). */
  readonly barrier: number;
}

/** The program's shape, and the constructs its options allow (on `g`). */
function drawShape(g: Generator, opts: ProgramOptions): Shape {
  g.looping = opts.looping === true;
  const scalars = GLOBALS.slice(0, g.weighted([[2, 1], [3, 2], [2, 3]]));
  let mutex = g.chance(0.35);
  const threads = g.chance(0.75) ? 2 : 3;
  const join = g.chance(0.6);
  if (opts.extended) g.extras = { array: g.chance(0.3), calls: g.chance(0.3), putTarget: g.pick(scalars), nondet: g.chance(0.35), loops: g.chance(0.35), arith: g.chance(0.3) };
  if (opts.data) {
    const d = { struct: g.chance(0.5), nested: g.chance(0.35), structArray: g.chance(0.45), union: g.chance(0.35), cells: g.chance(0.55), ptrArg: g.chance(0.5) };
    g.data = d.struct || d.nested || d.structArray || d.union || d.cells ? d : { ...d, cells: true };
    // Nondet locals are the run-time indices.
    if (g.extras) g.extras = { ...g.extras, nondet: g.extras.nondet || g.chance(0.5) };
  }
  let barrier = 0;
  if (opts.sync) {
    const y = { cond: g.chance(0.5), flag: g.pick(scalars), rwlock: g.chance(0.35), sem: g.chance(0.35), trylock: g.chance(0.3), spin: g.chance(0.25), gcc: g.chance(0.5), c11: g.chance(0.45) };
    g.sync = y.cond || y.rwlock || y.sem || y.trylock || y.spin || y.gcc || y.c11 ? y : { ...y, c11: true };
    mutex ||= y.cond || y.trylock;
    if (g.chance(0.35)) barrier = g.chance(0.25) ? 1 : g.int(2, threads);
  }
  return { scalars, mutex, threads, join, barrier };
}

/** The first line, the preamble and the globals; returns the names the threads share. */
function declareGlobals(g: Generator, seed: number, index: number, opts: ProgramOptions, shape: Shape): string[] {
  const modes = [opts.extended ? 'extended' : '', opts.data ? 'data' : '', opts.sync ? 'sync' : ''].filter((m) => m);
  g.emit(0, `/* generated: seed ${seed}, program ${index}${modes.length ? ` (${modes.join(', ')})` : ''} */`);
  g.lines.push(...PRELUDE.trimEnd().split('\n'));
  if (g.sync?.sem) g.emit(0, '#include <semaphore.h>');
  if (g.sync?.c11) g.emit(0, '#include <stdatomic.h>');
  g.emit(0, '');
  for (const v of shape.scalars) {
    g.initial.set(v, g.chance(0.6) ? 0 : g.int(1, 3));
    g.emit(0, `int ${v} = ${g.initial.get(v)};`);
  }
  // The array's elements are shared variables like the scalars (constant indices); computed indices only read.
  const arrayGlobals = g.extras?.array ? [...shape.scalars, 'arr[0]', 'arr[1]'] : shape.scalars;
  if (g.extras?.array) {
    const init = [g.int(0, 3), g.int(0, 3)];
    init.forEach((c, k) => g.initial.set(`arr[${k}]`, c));
    g.emit(0, `int arr[2] = {${init.join(', ')}};`);
  }
  const globals = g.data ? [...arrayGlobals, ...declareData(g)] : arrayGlobals;
  if (shape.mutex) g.emit(0, 'pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;');
  if (g.sync) declareSync(g, shape.barrier > 0);
  if (g.extras?.calls) {
    g.emit(0, '');
    g.emit(0, 'int add(int v, int c) { return v + c; }');
    g.emit(0, `void put(int v) { ${g.extras.putTarget} = v; }`);
  }
  return globals;
}

/** Thread function `thr${k}`; returns its scope (its facts at the end, its asserts). */
function writeThread(g: Generator, k: number, shape: Shape, globals: string[]): Scope {
  const locals = LOCALS.slice(0, g.weighted(g.data ? [[1, 0], [3, 1], [2, 2]] : [[2, 0], [3, 1], [1, 2]]));
  const d = g.data;
  const structs = d !== null && (d.struct || d.structArray || d.nested);
  // Thread 1's p is its argument (main passes a struct global's address).
  const ptrs = d ? { q: d.cells && g.chance(0.6), p: structs && ((k === 1 && d.ptrArg) || g.chance(0.5)), ls: structs && g.chance(0.35) } : {};
  const memory = d ? dataMemory(g, locals, ptrs) : [];
  const s: Scope = { vars: [...globals, ...locals, ...memory], locals, globals, facts: new Map(), asserts: 0, mutex: shape.mutex, ...ptrs };
  g.emit(0, '');
  g.emit(0, `void *thr${k}(void *arg) {`);
  for (const l of locals) {
    const c = g.int(0, 3);
    g.emit(1, `int ${l} = ${c};`);
    s.facts.set(l, { kind: 'const', value: c });
  }
  if (d) declarePointers(g, s, k === 1 && d.ptrArg);
  const bodyAt = g.lines.length;
  if (g.looping) g.emit(1, 'while (1) {');
  g.own = new Map();
  // The first `barrier` threads wait on the barrier once, between two top-level statements.
  if (k <= shape.barrier) {
    const n = g.int(1, 3);
    const at = g.int(0, n);
    for (let i = 0; i <= n; i++) {
      if (i === at) g.emit(1, 'pthread_barrier_wait(&bar);');
      if (i < n) statement(g, s, 'top', 1);
    }
  } else g.block(s, 'top', g.looping ? 2 : 1, 1, 3);
  if (g.looping) g.emit(1, '}');
  if (s.counter) g.lines.splice(bodyAt, 0, '  int k = 0;');
  // A thread without an assert sometimes gets one at its end (main asserts when no thread does).
  if (s.asserts === 0 && g.chance(0.35)) g.assert(s, 1);
  g.emit(1, 'return 0;');
  g.emit(0, '}');
  return s;
}

/** main: it starts the threads (with a step of its own between two, sometimes), may join them and asserts at its end; returns the line its body starts at. */
function writeMain(g: Generator, opts: ProgramOptions, shape: Shape, globals: string[], scopes: readonly Scope[]): number {
  const ids = [...Array(shape.threads).keys()].map((i) => i + 1);
  g.emit(0, '');
  g.emit(0, 'int main(void) {');
  g.emit(1, `pthread_t ${ids.map((i) => `t${i}`).join(', ')};`);
  const mainAt = g.lines.length;
  const ms: Scope = { vars: globals, locals: [], globals, facts: new Map(), asserts: 0, mutex: shape.mutex };
  g.own = new Map();
  if (shape.barrier) g.emit(1, `pthread_barrier_init(&bar, 0, ${shape.barrier});`);
  if (g.sync?.spin) g.emit(1, 'pthread_spin_init(&sp, 0);');
  if (g.sync?.sem) g.emit(1, `sem_init(&sem, 0, ${g.int(0, 1)});`);
  const argTarget = scopes[0].p && g.data?.ptrArg ? `&${g.pick(structS(g, ms))}` : '0';
  for (const i of ids) {
    g.emit(1, `pthread_create(&t${i}, 0, thr${opts.instances ? 1 : i}, ${i === 1 || opts.instances ? argTarget : '0'});`);
    // A step of main between two creations: the later threads start only after it.
    if (i < shape.threads && g.chance(0.2)) assign(g, ms, 1);
  }
  if (g.chance(0.3)) g.block(ms, 'top', 1, 1, 2);
  if (shape.join) for (const i of ids) g.emit(1, `pthread_join(t${i}, 0);`);
  const asserted = scopes.some((s) => s.asserts > 0) || ms.asserts > 0;
  if (!asserted || g.chance(shape.join ? 0.5 : 0.1)) finalAssert(g, ms, shape.join, scopes);
  if (g.sync && counters(g).length && g.chance(0.75)) counterAssert(g, ms, shape.join);
  if (ms.counter) g.lines.splice(mainAt, 0, '  int k = 0;');
  return mainAt;
}

/**
 * Main's assert over a global at its end. After the joins, the global holds what some
 * thread wrote last (if a constant), mostly; without them, its initial value or some
 * constant written to it, mostly.
 */
function finalAssert(g: Generator, ms: Scope, joined: boolean, scopes: readonly Scope[]): void {
  const v = g.pick(ms.globals);
  const values = joined
    ? scopes.flatMap((s) => { const f = s.facts.get(v); return f?.kind === 'const' ? [f.value] : []; })
    : [g.initial.get(v)!, ...(g.written.get(v) ?? [])];
  const unique = [...new Set(values)].sort();
  if (unique.length > 0 && g.chance(0.75)) g.assertThat(ms, unique.map((c) => `${v} == ${c}`).join(' || '), 1);
  else {
    ms.facts.clear();
    g.assert(ms, 1);
  }
}

/**
 * The C source of program `index` of a run with `seed`. `looping` (for liveness): each
 * thread repeats its body forever, and `y + c` wraps modulo 4 so the program stays
 * finite-state. `instances`: the threads are instances of one function (identical up
 * to their id, for symmetry). `data`: structs, unions, run-time indices and pointers
 * to cells and structs. `sync`: condition variables, rwlocks, a barrier, a semaphore,
 * trylock, a spinlock and atomic counters (see the top of this file).
 */
export function generateProgram(seed: number, index: number, opts: ProgramOptions = {}): string {
  const g = new Generator(programRng(seed, index), statement);
  const shape = drawShape(g, opts);
  const globals = declareGlobals(g, seed, index, opts, shape);
  const scopes: Scope[] = [];
  for (let k = 1; k <= (opts.instances ? 1 : shape.threads); k++) scopes.push(writeThread(g, k, shape, globals));
  const mainAt = writeMain(g, opts, shape, globals, scopes);
  // Half of the data programs with `da` allocate it on the heap, decided by a stream of its own: the draws of the rest stay independent of it.
  const heap = g.data?.cells ? programRng(seed ^ 0x68656170, index) : undefined;
  if (heap && heap() < 0.5) heapArray(g, mainAt, heap);
  g.emit(1, 'return 0;');
  g.emit(0, '}');
  return g.text();
}

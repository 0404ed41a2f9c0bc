/**
 * Random small concurrent C programs for the differential check of the engines against
 * the concrete explorer (differential-check.ts, run by test/benchmarks/differential.test.ts and
 * benchmarks/differential.ts) and for the explicit engines' tests.
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
 */
import { mulberry32 } from './prng.js';

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
const CMP = ['==', '!=', '<', '<='] as const;

/** What a function knows (in its own sequential run) of a variable's value: a constant or another variable. */
type Fact = { kind: 'const'; value: number } | { kind: 'var'; name: string };

interface Scope {
  readonly vars: string[];
  readonly locals: string[];
  readonly globals: string[];
  /** Facts from the straight-line code so far (interference may break them: that is the point). */
  readonly facts: Map<string, Fact>;
  asserts: number;
  /** The program has a mutex `m`. */
  readonly mutex: boolean;
  /** The function declares the loop counter `k` (extended programs). */
  counter?: boolean;
  /** Data programs: the function's `int *q` into `da`, `struct S *p`, `struct S ls`. */
  readonly q?: boolean;
  readonly p?: boolean;
  readonly ls?: boolean;
}

type Ctx = 'top' | 'branch' | 'atomic' | 'locked' | 'loop';

/** What an extended program has beside the classic constructs (generateProgram's `extended`). */
interface Extras {
  readonly array: boolean;
  /** The helper functions `add(v, c)` and `put(v)` (which writes `putTarget`). */
  readonly calls: boolean;
  readonly putTarget: string;
  readonly nondet: boolean;
  readonly loops: boolean;
  readonly arith: boolean;
}

/** What a data program has (generateProgram's `data`). */
interface DataExtras {
  readonly struct: boolean;
  readonly nested: boolean;
  readonly structArray: boolean;
  readonly union: boolean;
  /** `int da[3]` with run-time indices and pointers to its cells. */
  readonly cells: boolean;
  /** Thread 1 gets a pointer to a struct global as its argument. */
  readonly ptrArg: boolean;
}

/** What a sync program has (generateProgram's `sync`). */
interface SyncExtras {
  /** `pthread_cond_t cv` over the mutex `m`, and the global whose value the waits wait for. */
  readonly cond: boolean;
  readonly flag: string;
  readonly rwlock: boolean;
  readonly sem: boolean;
  readonly trylock: boolean;
  readonly spin: boolean;
  /** `int cnt` under GCC's `__sync_*` builtins (and racy plain increments). */
  readonly gcc: boolean;
  /** `ac`, an `_Atomic int` or `atomic_int`, under C11's functions and `++`. */
  readonly c11: boolean;
}

/** What the code so far adds to an atomic counter (starting at 0), for the asserts over it. */
interface Tally {
  /** Added in every run that reaches the asserting point after the joins. */
  sure: number;
  /** Added at most. */
  upto: number;
  /** A racy increment (may lose others') or an `atomic_store` (of at most 3) makes `sure` no lower bound. */
  exact: boolean;
  stored: boolean;
}

/** The sync statements that are no counter operation: each at a function's top level only, so no lock nests in another. */
const SYNC_REGIONS = ['wait', 'signal', 'rdlock', 'wrlock', 'tryrdlock', 'trylock', 'spin', 'semcs', 'sempost', 'semwait', 'semtry'] as const;

/** A name that reaches memory through a pointer or an index known only at run time (may alias another name). */
const indirect = (v: string): boolean => /->|\*|\[[^\]]*[a-z]/.test(v);

class Generator {
  readonly lines: string[] = [];
  /** Globals' initial values and the constants assigned to them anywhere. */
  readonly initial = new Map<string, number>();
  readonly written = new Map<string, number[]>();
  /** Asserts so far in the whole program. */
  asserts = 0;
  /** Thread bodies repeat forever (generateProgram's `looping`). */
  looping = false;
  /** Inside a bounded loop: sums wrap so values stay finite. */
  inLoop = 0;
  extras: Extras | null = null;
  data: DataExtras | null = null;
  sync: SyncExtras | null = null;
  /** Sync programs: what every function adds to each counter, and the current function alone (certainly). */
  readonly tally = new Map<string, Tally>();
  own = new Map<string, number>();
  /** How many times the current statement runs (bounded loops), and inside how many conditional bodies it is. */
  times = 1;
  maybe = 0;
  /** The other names of one object (a union's members). */
  readonly aliases = new Map<string, string[]>();
  constructor(private readonly r: () => number) {}

  int(lo: number, hi: number): number {
    return lo + Math.floor(this.r() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.r() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.r() * xs.length)];
  }
  weighted<T>(options: readonly (readonly [number, T])[]): T {
    const total = options.reduce((s, [w]) => s + w, 0);
    let x = this.r() * total;
    for (const [w, v] of options) if ((x -= w) < 0) return v;
    return options[options.length - 1][1];
  }

  /** Two variables, distinct when there are two. */
  two(vs: readonly string[]): [string, string] {
    const v = this.pick(vs);
    const rest = vs.filter((u) => u !== v);
    return [v, rest.length ? this.pick(rest) : v];
  }

  emit(indent: number, line: string): void {
    this.lines.push('  '.repeat(indent) + line);
  }
  text(): string {
    return this.lines.join('\n') + '\n';
  }

  atom(s: Scope): string {
    const v = this.pick(s.vars);
    const op = this.pick(CMP);
    if (s.vars.length > 1 && this.chance(0.3)) {
      const w = this.pick(s.vars.filter((u) => u !== v));
      return `${v} ${op} ${w}`;
    }
    return this.chance(0.85) ? `${v} ${op} ${this.int(0, 3)}` : `${this.int(0, 3)} ${op} ${v}`;
  }

  cond(s: Scope): string {
    const k = this.r();
    if (k < 0.18) return `${this.atom(s)} && ${this.atom(s)}`;
    if (k < 0.32) return `${this.atom(s)} || ${this.atom(s)}`;
    return this.atom(s);
  }

  /** An assert condition: mostly one the function's own run makes true, which interleavings may break. */
  assertion(s: Scope): string {
    const known = [...s.facts.entries()];
    if (known.length > 0 && this.chance(0.85)) {
      const [v, f] = this.pick(known);
      const rhs = f.kind === 'const' ? String(f.value) : f.name;
      const form = this.weighted([
        [5, `${v} == ${rhs}`],
        [1, `${v} <= ${rhs}`],
        [1, f.kind === 'const' ? `${v} != ${(f.value + 1) % 4}` : `${rhs} <= ${v}`],
        [1, `${v} == ${rhs} || ${this.atom(s)}`],
      ]);
      return form;
    }
    return this.cond(s);
  }

  assign(s: Scope, indent: number): void {
    const form = this.weighted<() => [string, string, Fact | undefined]>([
      [4, () => { const v = this.pick(s.globals); const c = this.int(0, 3); return [v, String(c), { kind: 'const', value: c }]; }],
      [s.locals.length ? 2 : 0, () => { const l = this.pick(s.locals); const g = this.pick(s.globals); return [l, g, { kind: 'var', name: g }]; }],
      [s.locals.length ? 2 : 0, () => { const g = this.pick(s.globals); const l = this.pick(s.locals); return [g, l, { kind: 'var', name: l }]; }],
      [s.locals.length ? 1 : 0, () => { const l = this.pick(s.locals); const c = this.int(0, 3); return [l, String(c), { kind: 'const', value: c }]; }],
      [1, () => { const [v, w] = this.two(s.vars); return [v, w, w === v ? undefined : { kind: 'var', name: w }]; }],
      [1, () => { const v = this.pick(s.vars); const w = this.pick(s.vars); const sum = `${w} + ${this.int(1, 2)}`; return [v, this.looping || this.inLoop > 0 ? `(${sum}) % 4` : sum, undefined]; }],
      ...this.extendedAssignments(s),
      ...this.dataAssignments(s),
    ])();
    const [lhs, rhs, fact] = form;
    this.emit(indent, `${lhs} = ${rhs};`);
    this.forget(s, lhs);
    if (fact) s.facts.set(lhs, fact);
    if (fact?.kind === 'const' && s.globals.includes(lhs)) this.wrote(lhs, fact.value);
  }

  /** The data programs' assignment forms: a constant or a variable into memory reached through a pointer or a run-time index. */
  dataAssignments(s: Scope): (readonly [number, () => [string, string, Fact | undefined]])[] {
    const memory = s.vars.filter(indirect);
    if (!this.data || memory.length === 0) return [];
    return [
      [2, () => { const v = this.pick(memory); const c = this.int(0, 3); return [v, String(c), { kind: 'const', value: c }]; }],
      [1, () => { const v = this.pick(memory); const w = this.pick(s.vars.filter((u) => u !== v)); return [v, w, { kind: 'var', name: w }]; }],
    ];
  }

  /** The extended programs' assignment forms: remainder and quotient, a call of `add`, a computed array index, a nondet value. */
  extendedAssignments(s: Scope): (readonly [number, () => [string, string, Fact | undefined]])[] {
    const x = this.extras;
    if (!x) return [];
    const bounded = (e: string): string => (this.looping || this.inLoop > 0 ? `(${e}) % 4` : e);
    return [
      [x.arith ? 1 : 0, () => [this.pick(s.vars), `${this.pick(s.vars)} ${this.pick(['%', '/'])} ${this.int(2, 3)}`, undefined]],
      [x.calls ? 1 : 0, () => [this.pick(s.vars), bounded(`add(${this.pick(s.vars)}, ${this.int(0, 2)})`), undefined]],
      [x.array && s.locals.length ? 0.7 : 0, () => [this.pick(s.vars), `arr[${this.pick(s.locals)} % 2]`, undefined]],
    ];
  }

  /** The extended statements: `put(c)`, a nondet local bounded by an assume, a bounded loop. */
  extendedStmt(s: Scope, kind: string, indent: number): void {
    switch (kind) {
      case 'put': {
        const c = this.int(0, 3);
        const g = this.extras!.putTarget;
        this.emit(indent, `put(${c});`);
        this.forget(s, g);
        s.facts.set(g, { kind: 'const', value: c });
        this.wrote(g, c);
        return;
      }
      case 'nondet': {
        const l = this.pick(s.locals);
        // Data programs' indices may reach 3, one past `da`'s end. Mostly sums of nondet
        // bools there: finite by their type, so exploration stays exact even when the
        // frontend puts the assume in a step of its own (after a global access).
        if (this.data && this.chance(0.85)) this.emit(indent, `${l} = __VERIFIER_nondet_bool() + ${this.pick(['', '2 * '])}__VERIFIER_nondet_bool();`);
        else {
          this.emit(indent, `${l} = __VERIFIER_nondet_int();`);
          this.emit(indent, `__VERIFIER_assume(0 <= ${l} && ${l} <= ${this.data ? this.int(2, 3) : 2});`);
        }
        this.forget(s, l);
        return;
      }
      case 'copy': {
        const [lhs, rhs] = this.pick(this.copies(s));
        this.emit(indent, `${lhs} = ${rhs};`);
        for (const f of ['f', 'g']) this.forget(s, `${lhs}.${f}`);
        return;
      }
      case 'repoint': {
        const [lhs, rhs] = this.pick(this.repoints(s));
        this.emit(indent, `${lhs} = ${rhs};`);
        // What the pointer reached before: its facts are stale.
        const through = lhs === 'q' ? '*q' : 'p->';
        for (const [u, f] of [...s.facts]) if (u.includes(through) || (f.kind === 'var' && f.name.includes(through))) s.facts.delete(u);
        return;
      }
      case 'loop': {
        s.counter = true;
        const n = this.int(1, 3);
        this.emit(indent, `for (k = 0; k < ${n}; k++) {`);
        const before = new Map(s.facts);
        this.inLoop++;
        this.times *= n;
        this.block(s, 'loop', indent + 1, 1, 2);
        this.times /= n;
        this.inLoop--;
        this.emit(indent, '}');
        // A fact the body changed may hold after one iteration and not after another.
        for (const [k, v] of [...s.facts]) if (JSON.stringify(before.get(k)) !== JSON.stringify(v)) s.facts.delete(k);
        return;
      }
    }
  }

  /** Drops the facts `v`'s new value makes stale: those mentioning it, and in data programs those of names that may share its memory. */
  forget(s: Scope, v: string): void {
    const names = [v, ...(this.aliases.get(v) ?? [])];
    // A write through a pointer or a run-time index may hit any memory name; a direct one any indirect name.
    const hit = (u: string): boolean => names.includes(u) || (this.data !== null && (indirect(v) ? /[.[*>]/.test(u) : indirect(u)));
    for (const [u, f] of [...s.facts]) if (hit(u) || (f.kind === 'var' && hit(f.name))) s.facts.delete(u);
  }

  /** `v` now holds constant `c` (and its aliases with it). */
  wrote(v: string, c: number): void {
    for (const u of [v, ...(this.aliases.get(v) ?? [])]) if (this.initial.has(u)) this.written.set(u, [...(this.written.get(u) ?? []), c]);
  }

  /** An index into an array of `n` cells from a local: mostly in bounds, sometimes not (undefined behaviour: an error in rely's model). */
  index(locals: readonly string[], n: number): string {
    const l = this.pick(locals);
    return this.weighted([[3, `${l} % ${n}`], [1, `(${l} + 1) % ${n}`], [1, l], [0.5, `${l} + 1`]]);
  }

  /** A struct S object: the global, a cell of the array of structs, the nested one. */
  structS(s: Scope): string[] {
    const d = this.data!;
    return [
      ...(d.struct ? ['s'] : []),
      ...(d.structArray ? ['sa[0]', 'sa[1]', ...(s.locals.length ? [`sa[${this.index(s.locals, 2)}]`] : [])] : []),
      ...(d.nested ? ['t.in'] : []),
    ];
  }

  /** Struct copies (member by member) the function can do. */
  copies(s: Scope): [string, string][] {
    const objects = this.structS(s);
    // The frontend copies into a struct whose place is known before the run only.
    const targets = objects.filter((o) => !indirect(o));
    const out: [string, string][] = [];
    if (s.ls) for (const o of objects) out.push(['ls', o]);
    for (const a of targets) for (const b of objects) if (a !== b) out.push([a, b]);
    if (s.ls) for (const o of targets) out.push([o, 'ls']);
    return out;
  }

  /** New targets of the function's pointers. */
  repoints(s: Scope): [string, string][] {
    const out: [string, string][] = [];
    if (s.q) {
      out.push(['q', 'q + 1'], ['q', `da + ${this.int(0, 2)}`]);
      if (s.locals.length) out.push(['q', `&da[${this.index(s.locals, 3)}]`]);
    }
    if (s.p) for (const o of this.structS(s)) out.push(['p', `&${o}`]);
    return out;
  }

  /** `assert(c)` for the function's first assert, `__VERIFIER_assert(c)` after it. */
  assertThat(s: Scope, c: string, indent: number): void {
    this.asserts++;
    this.emit(indent, s.asserts++ === 0 ? `assert(${c});` : `__VERIFIER_assert(${c});`);
  }

  assert(s: Scope, indent: number): void {
    this.assertThat(s, this.assertion(s), indent);
  }

  block(s: Scope, ctx: Ctx, indent: number, min: number, max: number): void {
    const n = this.int(min, max);
    for (let i = 0; i < n; i++) this.stmt(s, ctx, indent);
  }

  stmt(s: Scope, ctx: Ctx, indent: number): void {
    const kind = this.weighted<string>([
      [4, 'assign'],
      [ctx === 'branch' ? 0 : 1.2, 'if'],
      [ctx === 'top' || ctx === 'locked' ? 0.7 : 0, 'assume'],
      [ctx === 'top' ? 0.9 : 0, 'atomic'],
      [ctx === 'top' && s.mutex ? 1.2 : 0, 'lock'],
      [this.asserts < 2 ? 0.6 : 0, 'assert'],
      [ctx === 'branch' ? 0.15 : 0, 'abort'],
      [this.extras?.calls ? 0.5 : 0, 'put'],
      [this.extras?.nondet && s.locals.length && ctx !== 'atomic' ? 0.5 : 0, 'nondet'],
      [this.extras?.loops && (ctx === 'top' || ctx === 'locked') && !this.inLoop ? 0.6 : 0, 'loop'],
      [this.data && (s.ls || this.data.structArray || (this.data.struct && this.data.nested)) ? 0.4 : 0, 'copy'],
      [this.data && (s.q || s.p) ? 0.5 : 0, 'repoint'],
      ...this.syncKinds(s, ctx),
    ]);
    switch (kind) {
      case 'assign':
        return this.assign(s, indent);
      case 'assert':
        return this.assert(s, indent);
      case 'abort': // stops every thread
        this.emit(indent, 'abort();');
        return;
      case 'assume': {
        const c = this.cond(s);
        this.emit(indent, `__VERIFIER_assume(${c});`);
        return;
      }
      case 'if': {
        this.emit(indent, `if (${this.cond(s)}) {`);
        const before = new Map(s.facts);
        this.maybe++;
        this.block(s, 'branch', indent + 1, 1, 2);
        const afterThen = new Map(s.facts);
        s.facts.clear();
        for (const [k, v] of before) s.facts.set(k, v);
        if (this.chance(0.6)) {
          this.emit(indent, '} else {');
          this.block(s, 'branch', indent + 1, 1, 2);
        }
        this.maybe--;
        this.emit(indent, '}');
        // Keep only the facts both branches agree on.
        for (const [k, v] of [...s.facts]) {
          const w = afterThen.get(k);
          if (!w || JSON.stringify(w) !== JSON.stringify(v)) s.facts.delete(k);
        }
        return;
      }
      case 'atomic':
        this.emit(indent, '__VERIFIER_atomic_begin();');
        this.block(s, 'atomic', indent, 1, 2);
        this.emit(indent, '__VERIFIER_atomic_end();');
        return;
      case 'lock':
        this.emit(indent, 'pthread_mutex_lock(&m);');
        this.block(s, 'locked', indent, 1, 2);
        this.emit(indent, 'pthread_mutex_unlock(&m);');
        return;
      default:
        return (SYNC_REGIONS as readonly string[]).includes(kind) || kind === 'count' || kind === 'count-assert' ? this.syncStmt(s, kind, indent) : this.extendedStmt(s, kind, indent);
    }
  }

  /** The sync programs' statement kinds and weights in context `ctx` (none in other programs, so their random draws stay as they were). */
  syncKinds(s: Scope, ctx: Ctx): (readonly [number, string])[] {
    const y = this.sync;
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
      [counters && this.asserts < 3 && this.inLoop === 0 ? 0.4 : 0, 'count-assert'],
    ];
  }

  /** A block that runs only if an attempt succeeded: facts it makes hold only in some runs, counters it adds to maybe. */
  conditionalBody(s: Scope, indent: number): void {
    const before = new Map(s.facts);
    this.maybe++;
    this.block(s, 'branch', indent, 1, 2);
    this.maybe--;
    for (const [k, v] of [...s.facts]) if (JSON.stringify(before.get(k)) !== JSON.stringify(v)) s.facts.delete(k);
  }

  /** `open`, a locked block, `close`. */
  region(s: Scope, open: string, close: string, indent: number): void {
    this.emit(indent, open);
    this.block(s, 'locked', indent, 1, 2);
    this.emit(indent, close);
  }

  /** One sync statement (syncKinds). */
  syncStmt(s: Scope, kind: string, indent: number): void {
    const y = this.sync!;
    switch (kind) {
      case 'wait': {
        // Wait until the flag (mostly) holds a value; `if` instead of `while` is the classic bug.
        const v = this.chance(0.8) ? y.flag : this.pick(s.globals);
        const c = this.int(0, 3);
        const loop = this.chance(0.8) ? 'while' : 'if';
        const [waitWhile, reached] = this.weighted<[string, Fact | undefined]>([
          [3, [`${v} != ${c}`, { kind: 'const', value: c }]],
          [1, [`${v} < ${c}`, undefined]],
          [1, [`${v} == ${c}`, undefined]],
        ]);
        this.emit(indent, 'pthread_mutex_lock(&m);');
        this.emit(indent, `${loop} (${waitWhile}) pthread_cond_wait(&cv, &m);`);
        this.forget(s, v);
        // What the code after a `while` may rely on (after an `if`, wrongly: asserts built on it are bugs to find).
        if (reached) s.facts.set(v, reached);
        if (this.chance(0.7)) this.block(s, 'locked', indent, 1, 2);
        this.emit(indent, 'pthread_mutex_unlock(&m);');
        return;
      }
      case 'signal': {
        const c = this.int(0, 3);
        const call = `pthread_cond_${this.chance(0.6) ? 'signal' : 'broadcast'}(&cv);`;
        const after = this.chance(0.25); // POSIX lets a thread signal without the mutex
        this.emit(indent, 'pthread_mutex_lock(&m);');
        this.emit(indent, `${y.flag} = ${c};`);
        this.forget(s, y.flag);
        s.facts.set(y.flag, { kind: 'const', value: c });
        this.wrote(y.flag, c);
        if (!after) this.emit(indent, call);
        this.emit(indent, 'pthread_mutex_unlock(&m);');
        if (after) this.emit(indent, call);
        return;
      }
      case 'rdlock':
        return this.region(s, 'pthread_rwlock_rdlock(&rw);', 'pthread_rwlock_unlock(&rw);', indent);
      case 'wrlock':
        return this.region(s, 'pthread_rwlock_wrlock(&rw);', 'pthread_rwlock_unlock(&rw);', indent);
      case 'spin':
        return this.region(s, 'pthread_spin_lock(&sp);', 'pthread_spin_unlock(&sp);', indent);
      case 'semcs':
        return this.region(s, 'sem_wait(&sem);', 'sem_post(&sem);', indent);
      case 'sempost':
      case 'semwait':
        this.emit(indent, `sem_${kind.slice(3)}(&sem);`);
        return;
      case 'tryrdlock':
      case 'trylock':
      case 'semtry': {
        const [attempt, release] = {
          tryrdlock: ['pthread_rwlock_tryrdlock(&rw)', 'pthread_rwlock_unlock(&rw);'],
          trylock: ['pthread_mutex_trylock(&m)', 'pthread_mutex_unlock(&m);'],
          semtry: ['sem_trywait(&sem)', this.chance(0.6) ? 'sem_post(&sem);' : ''],
        }[kind];
        this.emit(indent, `if (${attempt} == 0) {`);
        this.conditionalBody(s, indent + 1);
        if (release) this.emit(indent + 1, release);
        this.emit(indent, '}');
        return;
      }
      case 'count':
        return this.countOp(s, indent);
      case 'count-assert': {
        // Counters only grow unless a racy increment or a store intervenes: what this function certainly added is a lower bound then.
        const c = this.pick(this.counters());
        this.assertThat(s, `${c} >= ${this.own.get(c) ?? 0}`, indent);
        return;
      }
    }
  }

  /** The program's atomic counters. */
  counters(): string[] {
    return [...(this.sync!.gcc ? ['cnt'] : []), ...(this.sync!.c11 ? ['ac'] : [])];
  }

  /** One operation on a counter, tallied: `add` is 1 when it certainly adds one, 0.5 when it may. */
  countOp(s: Scope, indent: number): void {
    const c = this.pick(this.counters());
    const l = s.locals.length ? this.pick(s.locals) : undefined;
    const k = this.int(0, 2);
    type Op = [line: string, add: 0 | 0.5 | 1, effect?: 'racy' | 'store'];
    const op = this.weighted<() => Op>(
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
            [0.7, () => [`atomic_store(&ac, ${this.int(0, 3)});`, 0, 'store']],
          ],
    )();
    const [line, add, effect] = op;
    this.emit(indent, line);
    if (l && line.startsWith(`${l} =`)) this.forget(s, l);
    const t = this.tally.get(c) ?? { sure: 0, upto: 0, exact: true, stored: false };
    if (add > 0) t.upto += this.times;
    if (add === 1 && this.maybe === 0) {
      t.sure += this.times;
      this.own.set(c, (this.own.get(c) ?? 0) + this.times);
    }
    if (effect) t.exact = false;
    if (effect === 'store') t.stored = true;
    this.tally.set(c, t);
  }

  /** Main's assert over a counter at its end (after the joins when `joined`): some hold in every run, some only in some. */
  counterAssert(s: Scope, joined: boolean): void {
    const c = this.pick(this.counters());
    const t = this.tally.get(c) ?? { sure: 0, upto: 0, exact: true, stored: false };
    const bound = t.upto + (t.stored ? 3 : 0);
    const cond = this.weighted([
      [t.exact && joined && t.sure === t.upto ? 3 : 0, `${c} == ${t.sure}`],
      [1, `${c} <= ${bound}`],
      [1.5, `${c} == ${t.upto}`],
      [1.5, `${c} >= ${t.sure}`],
      [t.upto > 0 ? 1 : 0, `${c} < ${t.upto}`],
    ]);
    this.assertThat(s, cond, 1);
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
export function generateProgram(seed: number, index: number, opts: { looping?: boolean; instances?: boolean; extended?: boolean; data?: boolean; sync?: boolean } = {}): string {
  const g = new Generator(programRng(seed, index));
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
  // Which waiting threads the barrier has (count: how many; none without a barrier).
  let barrier = 0;
  if (opts.sync) {
    const y = { cond: g.chance(0.5), flag: g.pick(scalars), rwlock: g.chance(0.35), sem: g.chance(0.35), trylock: g.chance(0.3), spin: g.chance(0.25), gcc: g.chance(0.5), c11: g.chance(0.45) };
    g.sync = y.cond || y.rwlock || y.sem || y.trylock || y.spin || y.gcc || y.c11 ? y : { ...y, c11: true };
    mutex ||= y.cond || y.trylock;
    if (g.chance(0.35)) barrier = g.chance(0.25) ? 1 : g.int(2, threads);
  }
  const modes = [opts.extended ? 'extended' : '', opts.data ? 'data' : '', opts.sync ? 'sync' : ''].filter((m) => m);
  g.emit(0, `/* generated: seed ${seed}, program ${index}${modes.length ? ` (${modes.join(', ')})` : ''} */`);
  g.lines.push(...PRELUDE.trimEnd().split('\n'));
  if (g.sync?.sem) g.emit(0, '#include <semaphore.h>');
  if (g.sync?.c11) g.emit(0, '#include <stdatomic.h>');
  g.emit(0, '');
  for (const v of scalars) {
    g.initial.set(v, g.chance(0.6) ? 0 : g.int(1, 3));
    g.emit(0, `int ${v} = ${g.initial.get(v)};`);
  }
  // The array's elements are shared variables like the scalars (constant indices); computed indices only read.
  const arrayGlobals = g.extras?.array ? [...scalars, 'arr[0]', 'arr[1]'] : scalars;
  if (g.extras?.array) {
    const init = [g.int(0, 3), g.int(0, 3)];
    init.forEach((c, k) => g.initial.set(`arr[${k}]`, c));
    g.emit(0, `int arr[2] = {${init.join(', ')}};`);
  }
  const globals = g.data ? [...arrayGlobals, ...declareData(g)] : arrayGlobals;
  if (mutex) g.emit(0, 'pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;');
  if (g.sync) declareSync(g, barrier > 0);
  if (g.extras?.calls) {
    g.emit(0, '');
    g.emit(0, 'int add(int v, int c) { return v + c; }');
    g.emit(0, `void put(int v) { ${g.extras.putTarget} = v; }`);
  }

  const scopes: Scope[] = [];
  for (let k = 1; k <= (opts.instances ? 1 : threads); k++) {
    const locals = LOCALS.slice(0, g.weighted(g.data ? [[1, 0], [3, 1], [2, 2]] : [[2, 0], [3, 1], [1, 2]]));
    const d = g.data;
    const structs = d !== null && (d.struct || d.structArray || d.nested);
    // Thread 1's p is its argument (main passes a struct global's address).
    const ptrs = d ? { q: d.cells && g.chance(0.6), p: structs && ((k === 1 && d.ptrArg) || g.chance(0.5)), ls: structs && g.chance(0.35) } : {};
    const memory = d ? dataMemory(g, locals, ptrs) : [];
    const s: Scope = { vars: [...globals, ...locals, ...memory], locals, globals, facts: new Map(), asserts: 0, mutex, ...ptrs };
    scopes.push(s);
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
    if (k <= barrier) {
      const n = g.int(1, 3);
      const at = g.int(0, n);
      for (let i = 0; i <= n; i++) {
        if (i === at) g.emit(1, 'pthread_barrier_wait(&bar);');
        if (i < n) g.stmt(s, 'top', 1);
      }
    } else g.block(s, 'top', g.looping ? 2 : 1, 1, 3);
    if (g.looping) g.emit(1, '}');
    if (s.counter) g.lines.splice(bodyAt, 0, '  int k = 0;');
    // A thread without an assert sometimes gets one at its end (main asserts when no thread does).
    if (s.asserts === 0 && g.chance(0.35)) g.assert(s, 1);
    g.emit(1, 'return 0;');
    g.emit(0, '}');
  }

  const ids = [...Array(threads).keys()].map((i) => i + 1);
  g.emit(0, '');
  g.emit(0, 'int main(void) {');
  g.emit(1, `pthread_t ${ids.map((i) => `t${i}`).join(', ')};`);
  const mainAt = g.lines.length;
  const ms: Scope = { vars: globals, locals: [], globals, facts: new Map(), asserts: 0, mutex };
  g.own = new Map();
  if (barrier) g.emit(1, `pthread_barrier_init(&bar, 0, ${barrier});`);
  if (g.sync?.spin) g.emit(1, 'pthread_spin_init(&sp, 0);');
  if (g.sync?.sem) g.emit(1, `sem_init(&sem, 0, ${g.int(0, 1)});`);
  const argTarget = scopes[0].p && g.data?.ptrArg ? `&${g.pick(g.structS(ms))}` : '0';
  for (const i of ids) {
    g.emit(1, `pthread_create(&t${i}, 0, thr${opts.instances ? 1 : i}, ${i === 1 || opts.instances ? argTarget : '0'});`);
    // A step of main between two creations: the later threads start only after it.
    if (i < threads && g.chance(0.2)) g.assign(ms, 1);
  }
  if (g.chance(0.3)) g.block(ms, 'top', 1, 1, 2);
  if (join) for (const i of ids) g.emit(1, `pthread_join(t${i}, 0);`);
  const asserted = scopes.some((s) => s.asserts > 0) || ms.asserts > 0;
  if (!asserted || g.chance(join ? 0.5 : 0.1)) {
    // After the joins, a global holds what some thread wrote last (if a constant), mostly.
    // Without them, it holds its initial value or some constant written to it, mostly.
    const v = g.pick(globals);
    const values = join
      ? scopes.flatMap((s) => { const f = s.facts.get(v); return f?.kind === 'const' ? [f.value] : []; })
      : [g.initial.get(v)!, ...(g.written.get(v) ?? [])];
    const unique = [...new Set(values)].sort();
    if (unique.length > 0 && g.chance(0.75)) g.assertThat(ms, unique.map((c) => `${v} == ${c}`).join(' || '), 1);
    else {
      ms.facts.clear();
      g.assert(ms, 1);
    }
  }
  if (g.sync && g.counters().length && g.chance(0.75)) g.counterAssert(ms, join);
  if (ms.counter) g.lines.splice(mainAt, 0, '  int k = 0;');
  // Half of the data programs with `da` allocate it on the heap, decided by a stream of its own so that the others stay as they were.
  const heap = g.data?.cells ? programRng(seed ^ 0x68656170, index) : undefined;
  if (heap && heap() < 0.5) heapArray(g, mainAt, heap);
  g.emit(1, 'return 0;');
  g.emit(0, '}');
  return g.text();
}

/**
 * `int da[3] = {…}` becomes `int *da`, which main allocates first (zeroed by calloc:
 * malloc's cells would be any value, which the explorer only samples, and stores the
 * nonzero ones) and frees last: the threads' accesses, pointers and out-of-bounds
 * indices then reach a heap object.
 */
function heapArray(g: Generator, mainAt: number, r: () => number): void {
  const at = g.lines.findIndex((l) => l.startsWith('int da[3] = {'));
  const init = g.lines[at].slice('int da[3] = {'.length, -'};'.length).split(', ');
  g.lines[at] = 'int *da;';
  g.lines[0] = g.lines[0].replace(/\)? \*\/$/, (end) => (end.startsWith(')') ? ', heap) */' : ' (heap) */'));
  g.lines.splice(1, 0, '#include <stdlib.h>');
  const stores = init.flatMap((c, k) => (c === '0' ? [] : [`da[${k}] = ${c};`]));
  const alloc = r() < 0.5 ? 'calloc(3, sizeof(int))' : '(int *)calloc(1, 3 * sizeof(*da))';
  g.lines.splice(mainAt + 1, 0, `  da = ${alloc};${stores.length ? ` ${stores.join(' ')}` : ''}`);
  g.emit(1, 'free(da);');
}

/** The sync program's objects (main initialises the barrier, the spinlock and the semaphore). */
function declareSync(g: Generator, barrier: boolean): void {
  const y = g.sync!;
  if (y.cond) g.emit(0, 'pthread_cond_t cv = PTHREAD_COND_INITIALIZER;');
  if (y.rwlock) g.emit(0, 'pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;');
  if (barrier) g.emit(0, 'pthread_barrier_t bar;');
  if (y.spin) g.emit(0, 'pthread_spinlock_t sp;');
  if (y.sem) g.emit(0, 'sem_t sem;');
  if (y.gcc) g.emit(0, 'int cnt = 0;');
  if (y.c11) g.emit(0, `${g.pick(['_Atomic int', 'atomic_int'])} ac = 0;`);
}

/** The data program's types and globals; returns the names threads share like the scalars (some members of each object). */
function declareData(g: Generator): string[] {
  const d = g.data!;
  const init = (names: readonly string[]): number[] =>
    names.map((v) => {
      const c = g.int(0, 3);
      g.initial.set(v, c);
      return c;
    });
  const shared: string[] = [];
  if (d.struct || d.structArray || d.nested) g.emit(0, 'struct S { int f; int g; };');
  if (d.nested) g.emit(0, 'struct T { struct S in; int h; };');
  if (d.union) g.emit(0, 'union U { int i; int j; };');
  if (d.struct) {
    g.emit(0, `struct S s = {${init(['s.f', 's.g']).join(', ')}};`);
    shared.push('s.f', 's.g');
  }
  if (d.nested) {
    const [f, h, c] = init(['t.in.f', 't.in.g', 't.h']);
    g.emit(0, `struct T t = {{${f}, ${h}}, ${c}};`);
    shared.push(g.pick(['t.in.f', 't.in.g']), 't.h');
  }
  if (d.structArray) {
    const members = ['sa[0].f', 'sa[0].g', 'sa[1].f', 'sa[1].g'];
    const c = init(members);
    g.emit(0, `struct S sa[2] = {{${c[0]}, ${c[1]}}, {${c[2]}, ${c[3]}}};`);
    shared.push(...g.two(members));
  }
  if (d.union) {
    // One int object under two names.
    const c = g.int(0, 3);
    g.initial.set('u.i', c).set('u.j', c);
    g.aliases.set('u.i', ['u.j']).set('u.j', ['u.i']);
    g.emit(0, `union U u = {${c}};`);
    shared.push('u.i', 'u.j');
  }
  if (d.cells) {
    const cells = ['da[0]', 'da[1]', 'da[2]'];
    g.emit(0, `int da[3] = {${init(cells).join(', ')}};`);
    shared.push(g.pick(cells));
  }
  return shared;
}

/** A thread's names of memory reached through its pointers, its struct local and run-time indices. */
function dataMemory(g: Generator, locals: readonly string[], ptrs: { q?: boolean; p?: boolean; ls?: boolean }): string[] {
  const d = g.data!;
  return [
    ...(ptrs.q ? ['*q'] : []),
    ...(ptrs.p ? ['p->f', 'p->g'] : []),
    ...(ptrs.ls ? ['ls.f', 'ls.g'] : []),
    ...(d.cells && locals.length ? [`da[${g.index(locals, 3)}]`] : []),
    ...(d.structArray && locals.length ? [`sa[${g.index(locals, 2)}].${g.pick(['f', 'g'])}`] : []),
  ];
}

/** The thread's `int *q`, `struct S *p` (thread 1's from its argument when `fromArg`) and `struct S ls`. */
function declarePointers(g: Generator, s: Scope, fromArg: boolean): void {
  if (s.q) {
    const c = g.int(0, 2);
    g.emit(1, `int *q = ${g.chance(0.5) ? `&da[${c}]` : `da + ${c}`};`);
  }
  if (s.p) g.emit(1, fromArg ? 'struct S *p = (struct S *)arg;' : `struct S *p = &${g.pick(g.structS(s))};`);
  if (s.ls) {
    const [f, h] = [g.int(0, 3), g.int(0, 3)];
    g.emit(1, `struct S ls = {${f}, ${h}};`);
    s.facts.set('ls.f', { kind: 'const', value: f }).set('ls.g', { kind: 'const', value: h });
  }
}

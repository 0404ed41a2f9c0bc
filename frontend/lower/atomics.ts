/**
 * Atomic operations on integers: GCC's `__sync_*` and `__atomic_*` builtins and C11's
 * `<stdatomic.h>` functions (`atomic_fetch_add`, `atomic_compare_exchange_strong`, …,
 * with their `_explicit` forms). Each is one atomic step of the thread; every memory
 * order is read as sequentially consistent (rely's threads interleave, there is no
 * weaker memory), so the order arguments are not read. The operands are evaluated
 * before the step, as C evaluates a call's arguments before the call.
 */
import type { Expr } from '../ast.js';
import { fail, unsupported } from '../../program/diagnostics.js';
import { add, eq, gt, lt, num, sub, type Term } from '../../solver/formula.js';
import { showType } from '../types.js';
import type { ThreadBuilder } from './builder.js';
import type { Binding } from './file-scope.js';
import { arity, arms, atObject, atomically, result, snapshot, unread, type Builtin, type BuiltinCall } from './library.js';

/** Runs `fn` on each integer object the pointer argument may point to. */
function atCell(b: ThreadBuilder, arg: Expr, fn: (cell: Binding) => void): void {
  atObject(b, arg, 'a pointer to an integer', (x) => x.k === 'var' || x.k === 'elem', (x) => {
    if (x.k === 'var' && x.type.k !== 'int') unsupported(arg.pos, `an atomic operation on ${showType(x.type)} (atomic operations are modelled on integers only)`);
    fn(x);
  });
}

/** The operands before the memory orders: n of them, the rest (orders, and a weak flag read by the caller) not read. */
function operands(b: ThreadBuilder, { e }: BuiltinCall, n: number, orders: number): Term[] {
  arity(e, n + orders);
  const vals = e.args.slice(1, n).map((a) => snapshot(b, b.rvalue(a), a.pos));
  e.args.slice(n).forEach((a) => unread(b, a));
  return vals;
}

/** How many memory-order arguments a C11 function takes: its `_explicit` form one (a compare-exchange two) more. */
const orderArgs = (name: string, plain: number, explicit: number): number => (name.endsWith('_explicit') ? explicit : plain);

/** `*p = f(*p, v)` in one step; the call's value is the old or the new value. */
function readModifyWrite(f: (old: Term, v: Term) => Term, returns: 'old' | 'new', orders: (name: string) => number, operandCount = 2) {
  return (b: ThreadBuilder, call: BuiltinCall): Term | undefined => {
    const [v] = operands(b, call, operandCount, orders(call.name));
    const r = result(b, call.wantValue, call.e.pos);
    atCell(b, call.e.args[0], (cell) =>
      atomically(b, call.e.pos, () => {
        const old = b.read(cell, call.e.pos);
        if (returns === 'old') r.set(old);
        b.assign(cell, f(old, v ?? num(0)), call.e.pos, `${call.name}(${cellName(b, cell)})`);
        // The new value as stored: converted into the cell's type (a wrap included).
        if (returns === 'new') r.set(b.read(cell, call.e.pos));
      }),
    );
    return r.value();
  };
}

const cellName = (b: ThreadBuilder, x: Binding): string => (x.k === 'var' ? b.L.cname(x.name) : x.k === 'elem' ? `${b.L.cname(x.array)}[…]` : '…');

const plus = (o: Term, v: Term): Term => add(o, v);
const minus = (o: Term, v: Term): Term => sub(o, v);
const replace = (_o: Term, v: Term): Term => v;
const NO_ORDER = (): number => 0;
const ONE_ORDER = (): number => 1;
const c11 = (name: string): number => orderArgs(name, 0, 1);

/** A load: the value in one step. */
function load(orders: (name: string) => number) {
  return (b: ThreadBuilder, call: BuiltinCall): Term | undefined => {
    operands(b, call, 1, orders(call.name));
    const r = result(b, call.wantValue, call.e.pos);
    atCell(b, call.e.args[0], (cell) => r.set(b.read(cell, call.e.pos)));
    return r.value();
  };
}

/** A store of v (`__sync_lock_release` stores 0), in one step. */
function storeOf(orders: (name: string) => number, operandCount = 2) {
  return (b: ThreadBuilder, call: BuiltinCall): Term | undefined => {
    const [v] = operands(b, call, operandCount, orders(call.name));
    atCell(b, call.e.args[0], (cell) => b.assign(cell, v ?? num(0), call.e.pos, `${call.name}(${cellName(b, cell)})`));
    return call.wantValue ? fail(call.e.pos, `void value of '${call.name}' used`) : undefined;
  };
}

/**
 * Compare and swap: if `*p == expected`, `*p = desired` and the call succeeds. `gcc`'s
 * `__sync_bool_…` returns 1 or 0 and `__sync_val_…` the old value; C11's and
 * `__atomic_compare_exchange_n` take `expected` by pointer, store the old value there
 * on failure and return 1 or 0. A weak one may also fail when the values are equal.
 */
function compareExchange(form: 'bool' | 'val' | 'pointer', weak: (b: ThreadBuilder, call: BuiltinCall) => boolean, orders: (name: string) => number) {
  return (b: ThreadBuilder, call: BuiltinCall): Term | undefined => {
    const { e, name } = call;
    const byPointer = form === 'pointer';
    arity(e, 3 + orders(name));
    // `expected` by pointer is an object the step reads and writes, not a value.
    const expectedValue = byPointer ? undefined : snapshot(b, b.rvalue(e.args[1]), e.pos);
    const desired = snapshot(b, b.rvalue(e.args[2]), e.pos);
    e.args.slice(3).forEach((a) => unread(b, a));
    const isWeak = weak(b, call);
    const r = result(b, call.wantValue, e.pos);
    const exchange = (cell: Binding, expected: Term, onFailure?: (old: Term) => void): void => {
      const old = b.read(cell, e.pos);
      const fail = (): void => {
        onFailure?.(old);
        r.set(form === 'val' ? old : num(0));
      };
      arms(b, e.pos, [
        [[eq(old, expected)], () => {
          if (form === 'val') r.set(old);
          b.assign(cell, desired, e.pos, `${name}: ${cellName(b, cell)} swapped`);
          if (form !== 'val') r.set(num(1));
        }],
        [[lt(old, expected)], fail],
        [[gt(old, expected)], fail],
        ...(isWeak ? [[[eq(old, expected)], fail] as const] : []),
      ]);
    };
    atCell(b, e.args[0], (cell) =>
      atomically(b, e.pos, () => {
        if (!byPointer) return exchange(cell, expectedValue!);
        atCell(b, e.args[1], (exp) => exchange(cell, b.read(exp, e.pos), (old) => b.assign(exp, old, e.pos, `${name}: failed, ${cellName(b, exp)} = the value seen`)));
      }),
    );
    return r.value();
  };
}

const never = (): boolean => false;
const always = (): boolean => true;
/** `__atomic_compare_exchange_n`'s fourth argument says whether it is weak; refused unless a constant. */
function weakArgument(b: ThreadBuilder, { e }: BuiltinCall): boolean {
  const w = e.args[3] && b.L.constant(e.args[3]);
  return w === undefined ? unsupported(e.args[3]?.pos ?? e.pos, 'a weak flag of __atomic_compare_exchange_n that is not a constant') : w !== 0n;
}

/** `atomic_flag_test_and_set`, `__atomic_test_and_set`: sets the flag, returns whether it was set. */
function testAndSet(orders: (name: string) => number) {
  return (b: ThreadBuilder, call: BuiltinCall): Term | undefined => {
    operands(b, call, 1, orders(call.name));
    const r = result(b, call.wantValue, call.e.pos);
    atCell(b, call.e.args[0], (cell) =>
      atomically(b, call.e.pos, () => {
        const old = b.read(cell, call.e.pos);
        arms(b, call.e.pos, [
          [[eq(old, num(0))], () => r.set(num(0))],
          [[lt(old, num(0))], () => r.set(num(1))],
          [[gt(old, num(0))], () => r.set(num(1))],
        ]);
        b.assign(cell, num(1), call.e.pos, `${call.name}(${cellName(b, cell)})`);
      }),
    );
    return r.value();
  };
}

/** Fences order memory accesses; under sequential consistency they change nothing. */
function fence(b: ThreadBuilder, { e, wantValue }: BuiltinCall): Term | undefined {
  e.args.forEach((a) => unread(b, a));
  return wantValue ? fail(e.pos, 'void value of a fence used') : undefined;
}

/** The table builtins.ts merges into its own; a file that defines one of these names (a C11 function of its own) calls its definition. */
export const ATOMIC_BUILTINS: Builtin[] = ([
  { name: '__sync_fetch_and_add', doc: '*p += v in one step; the old value', lower: readModifyWrite(plus, 'old', NO_ORDER) },
  { name: '__sync_fetch_and_sub', doc: '*p -= v in one step; the old value', lower: readModifyWrite(minus, 'old', NO_ORDER) },
  { name: '__sync_add_and_fetch', doc: '*p += v in one step; the new value', lower: readModifyWrite(plus, 'new', NO_ORDER) },
  { name: '__sync_sub_and_fetch', doc: '*p -= v in one step; the new value', lower: readModifyWrite(minus, 'new', NO_ORDER) },
  { name: '__sync_lock_test_and_set', doc: '*p = v in one step; the old value', lower: readModifyWrite(replace, 'old', NO_ORDER) },
  { name: '__sync_lock_release', doc: '*p = 0', lower: storeOf(NO_ORDER, 1) },
  { name: '__sync_bool_compare_and_swap', doc: 'if *p == o, *p = n: 1, else 0 (one step)', lower: compareExchange('bool', never, NO_ORDER) },
  { name: '__sync_val_compare_and_swap', doc: 'if *p == o, *p = n; the old value (one step)', lower: compareExchange('val', never, NO_ORDER) },
  { name: '__sync_synchronize', doc: 'a fence: no effect under sequential consistency', lower: fence },
  { name: '__atomic_load_n', doc: '*p', lower: load(ONE_ORDER) },
  { name: '__atomic_store_n', doc: '*p = v', lower: storeOf(ONE_ORDER) },
  { name: '__atomic_exchange_n', doc: '*p = v in one step; the old value', lower: readModifyWrite(replace, 'old', ONE_ORDER) },
  { name: '__atomic_fetch_add', doc: '*p += v in one step; the old value', lower: readModifyWrite(plus, 'old', ONE_ORDER) },
  { name: '__atomic_fetch_sub', doc: '*p -= v in one step; the old value', lower: readModifyWrite(minus, 'old', ONE_ORDER) },
  { name: '__atomic_add_fetch', doc: '*p += v in one step; the new value', lower: readModifyWrite(plus, 'new', ONE_ORDER) },
  { name: '__atomic_sub_fetch', doc: '*p -= v in one step; the new value', lower: readModifyWrite(minus, 'new', ONE_ORDER) },
  { name: '__atomic_compare_exchange_n', doc: 'C11 compare-exchange (weak if the fourth argument says so)', lower: compareExchange('pointer', weakArgument, () => 3) },
  { name: '__atomic_test_and_set', doc: '*p = 1 in one step; whether it was set', lower: testAndSet(ONE_ORDER) },
  { name: '__atomic_clear', doc: '*p = 0', lower: storeOf(ONE_ORDER, 1) },
  { name: /^__atomic_(thread|signal)_fence$/, doc: 'no effect under sequential consistency', lower: fence },
  { name: /^atomic_load(_explicit)?$/, doc: '*p', lower: load(c11) },
  { name: /^atomic_store(_explicit)?$/, doc: '*p = v', lower: storeOf(c11) },
  { name: 'atomic_init', doc: '*p = v', lower: storeOf(NO_ORDER) },
  { name: /^atomic_exchange(_explicit)?$/, doc: '*p = v in one step; the old value', lower: readModifyWrite(replace, 'old', c11) },
  { name: /^atomic_fetch_add(_explicit)?$/, doc: '*p += v in one step; the old value', lower: readModifyWrite(plus, 'old', c11) },
  { name: /^atomic_fetch_sub(_explicit)?$/, doc: '*p -= v in one step; the old value', lower: readModifyWrite(minus, 'old', c11) },
  { name: /^atomic_compare_exchange_strong(_explicit)?$/, doc: 'if *p == *e, *p = d: 1; else *e = *p: 0 (one step)', lower: compareExchange('pointer', never, (n) => orderArgs(n, 0, 2)) },
  { name: /^atomic_compare_exchange_weak(_explicit)?$/, doc: 'as the strong form, and may fail spuriously', lower: compareExchange('pointer', always, (n) => orderArgs(n, 0, 2)) },
  { name: /^atomic_flag_test_and_set(_explicit)?$/, doc: '*p = 1 in one step; whether it was set', lower: testAndSet(c11) },
  { name: /^atomic_flag_clear(_explicit)?$/, doc: '*p = 0', lower: storeOf(c11, 1) },
  { name: /^atomic_(thread|signal)_fence$/, doc: 'no effect under sequential consistency', lower: fence },
] as Builtin[]).map((x) => ({ ...x, unlessDefined: true }));

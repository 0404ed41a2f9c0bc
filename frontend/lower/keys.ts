/**
 * Thread-specific data. `pthread_key_create` makes a key: a number of its own for
 * each call of it in the file (which one thread may run once). Each thread instance
 * has its own `void *` value per key, a global `__key<k>@<instance>`, NULL until the
 * thread sets it; `pthread_getspecific` and `pthread_setspecific` choose the value by
 * the key's number at run time. When a thread other than main ends, each key's destructor
 * runs on the thread's value for it if that is not NULL, the value first set to NULL,
 * as POSIX says; a destructor that sets a value again (POSIX would run the destructors
 * again) is refused.
 */
import type { Expr } from '../ast.js';
import { unsupported, type SourcePos } from '../../program/diagnostics.js';
import { eq, gt, lt, mkVar, num, type Term } from '../../solver/formula.js';
import { NULL_SOURCES, variableSource } from '../points-to.js';
import { calleeName, isNullish, someNode, stripCasts } from './ast-queries.js';
import type { ThreadBuilder } from './builder.js';
import { caseSplit } from './case-split.js';
import type { Binding } from './file-scope.js';
import { arity, arms, snapshot, type BuiltinCall } from './library.js';
import { pointerValue, storePointer } from './pointers.js';

const UNKNOWN_KEY = 'a key pthread_key_create did not make (undefined behaviour)';

/** This thread's value for key k. */
function slot(b: ThreadBuilder, k: number, pos: SourcePos): Binding & { k: 'var' } {
  return b.L.newGlobal(`__key${k}@${b.inst.name}`, `${b.inst.name}'s value for key ${k}`, { k: 'ptr', to: { k: 'void' } }, pos) as Binding & { k: 'var' };
}

/** Runs `fn` with the number of the key `key` holds (a case split over the file's keys; any other value is undefined behaviour). */
function atKey(b: ThreadBuilder, { e, name }: BuiltinCall, fn: (k: number) => void): void {
  const key = snapshot(b, b.rvalue(e.args[0]), e.pos);
  const keys = Array.from({ length: b.L.keyCount }, (_, i) => [BigInt(i + 1), BigInt(i + 1)] as const);
  caseSplit(b, key, keys, (i) => fn(i + 1), e.pos, `${name} with ${UNKNOWN_KEY}`);
}

/** `pthread_key_create(&k, NULL)`: stores the key's number into k (returns 0). */
export function keyCreate(b: ThreadBuilder, { e, name, wantValue }: BuiltinCall): Term | undefined {
  arity(e, 2);
  if (!isNullish(e.args[1])) destructorName(b, e.args[1]);
  b.once(e.pos, name);
  const id = b.L.keySite(e, b.inst, e.pos);
  const target = stripCasts(e.args[0]);
  b.atLvalue(target.k === 'unary' && target.op === '&' ? target.arg : { k: 'unary', op: '*', arg: target, pos: target.pos }, (cell) => b.assign(cell, num(id), e.pos, `${name}: key ${id}`));
  return wantValue ? num(0) : undefined;
}

/** `pthread_setspecific(k, v)`: this thread's value for k becomes v (returns 0). */
export function keySet(b: ThreadBuilder, call: BuiltinCall): Term | undefined {
  arity(call.e, 2);
  const v = pointerValue(b, call.e.args[1]);
  atKey(b, call, (k) => storePointer(b, slot(b, k, call.e.pos), v, call.e.pos));
  return call.wantValue ? num(0) : undefined;
}

/** `pthread_getspecific(k)`: this thread's value for k, a pointer from what any `pthread_setspecific` of it stored. */
export function keyGet(b: ThreadBuilder, call: BuiltinCall): Term {
  arity(call.e, 1);
  const tmp = b.fresh('value') as Binding & { k: 'var' };
  const from = new Set<string>();
  atKey(b, call, (k) => {
    const s = slot(b, k, call.e.pos);
    variableSource(s.name).forEach((x) => from.add(x));
    b.assign(tmp, mkVar(s.name), call.e.pos, '');
  });
  b.L.pointers.flow(tmp.name, from);
  return b.read(tmp, call.e.pos);
}

/** The function a key destructor names (`f` or `&f`), which must not set a key's value itself. */
function destructorName(b: ThreadBuilder, e: Expr): string {
  const f = stripCasts(e);
  const name = f.k === 'id' ? f.name : f.k === 'unary' && f.op === '&' && f.arg.k === 'id' ? f.arg.name : undefined;
  const def = name === undefined ? undefined : b.L.functionDef(name);
  if (!name || !def) return unsupported(e.pos, 'a key destructor that is not a function of the file named directly');
  if (someNode(def.body, (x) => x.k === 'call' && calleeName(x) === 'pthread_setspecific'))
    unsupported(e.pos, `key destructor '${name}' sets a key's value (POSIX would run the destructors again; not modelled)`);
  return name;
}

/** At a thread's end: for each key made with a destructor, if this thread's value is not NULL, it becomes NULL and the destructor runs on the old value. */
export function runDestructors(b: ThreadBuilder, destructors: readonly { key: number; fn: Expr }[], pos: SourcePos): void {
  for (const { key, fn } of destructors) {
    const name = destructorName(b, fn);
    const s = slot(b, key, pos);
    const value = b.declareLocal(`__key${key}_value`, { k: 'ptr', to: { k: 'void' } }, pos);
    arms(b, pos, [
      [[eq(mkVar(s.name), num(0))], () => undefined],
      ...[lt, gt].map((op) => [[op(mkVar(s.name), num(0))], () => {
        storePointer(b, value, { term: mkVar(s.name), from: variableSource(s.name) }, pos);
        storePointer(b, s, { term: num(0), from: NULL_SOURCES }, pos);
        b.scopes.push(new Map([['__key_value', value]]));
        b.call({ k: 'call', callee: { k: 'id', name, pos }, args: [{ k: 'id', name: '__key_value', pos }], pos }, false);
        b.scopes.pop();
      }] as const),
    ]);
  }
}

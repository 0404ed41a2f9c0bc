/**
 * What every library model (builtins.ts, sync.ts, atomics.ts) is given and the few
 * shapes they all emit: one atomic step, a branch on exclusive conditions, a result
 * the caller may use.
 */
import type { Expr } from '../ast.js';
import { fail, type SourcePos } from '../../program/diagnostics.js';
import { varsOf, type Term } from '../../solver/formula.js';
import { calleeName, stripCasts, type CallExpr } from './ast-queries.js';
import type { ThreadBuilder } from './builder.js';
import type { Binding } from './file-scope.js';
import { intType } from '../types.js';
import { atPlace, place } from './places.js';

/** A call of a library function being lowered; `wantValue` when the caller uses its result. */
export interface BuiltinCall {
  e: CallExpr;
  name: string;
  wantValue: boolean;
}

/** A library function's model: builtins.ts keeps the table. */
export interface Builtin {
  /** The function's name, or a pattern for a family of names. */
  name: string | RegExp;
  doc: string;
  /** The program may define the function itself, and then its definition is called instead. */
  unlessDefined?: true;
  lower(b: ThreadBuilder, call: BuiltinCall): Term | undefined;
}

export function arity(e: CallExpr, n: number): void {
  if (e.args.length !== n) fail(e.pos, `'${calleeName(e)}' takes ${n} argument(s), given ${e.args.length}`);
}

/** `body`'s steps as one atomic section (blocks.ts folds it into one transition), as POSIX and C make the operation indivisible. */
export function atomically(b: ThreadBuilder, pos: SourcePos, body: () => void): void {
  b.emit({ kind: 'atomicBegin' }, pos, '');
  b.atomicDepth++;
  body();
  b.atomicDepth--;
  b.emit({ kind: 'atomicEnd' }, pos, '');
}

/**
 * Branches into every arm whose atoms all hold (arms must together cover every
 * reachable state; where several hold, the choice is free, as for an arm without
 * atoms); the arms meet after.
 */
export function arms(b: ThreadBuilder, pos: SourcePos, cases: readonly (readonly [when: readonly Term[], then: () => void])[]): void {
  const from = b.cur;
  const join = b.cfg.newLoc(pos);
  for (const [when, then] of cases) {
    b.cur = from;
    for (const c of when) {
      const next = b.cfg.newLoc(pos);
      b.assume(c, next, pos, false);
      b.cur = next;
    }
    then();
    b.goto(join, pos, '');
  }
  b.cur = join;
}

/** A call's result kept in a temporary: `set` stores into it (nothing when the caller does not use it), `value` reads it. */
export function result(b: ThreadBuilder, wantValue: boolean, pos: SourcePos): { set(v: Term): void; value(): Term | undefined } {
  const r: Binding | undefined = wantValue ? b.fresh('ret') : undefined;
  return {
    set: (v) => r && b.assign(r, v, pos, ''),
    value: () => (r ? b.read(r, pos) : undefined),
  };
}

/** A value the caller computed before an atomic step, copied to a temporary if it reads globals (the step must see the value as it was). */
export function snapshot(b: ThreadBuilder, t: Term, pos: SourcePos): Term {
  if (![...varsOf(t)].some((x) => b.L.isGlobal(x))) return t;
  // 64 bits hold any value of the operand types rely models without a conversion.
  const tmp = b.fresh('arg', intType(false, 64));
  b.assign(tmp, t, pos, '');
  return b.read(tmp, pos);
}

/** An argument the model does not read (an attribute object, a memory order, a time-out): evaluated only for side effects it may have. */
export function unread(b: ThreadBuilder, e: Expr): void {
  if (e.k !== 'id' && e.k !== 'num') b.effect(e);
}


/**
 * Runs `fn` on each object a pointer argument may point to (`&x`, `&s.m`, `&a[i]`,
 * `&p->m`, a pointer: a case split where it is chosen at run time) that passes `is`.
 */
export function atObject(b: ThreadBuilder, arg: Expr, what: string, is: (x: Binding) => boolean, fn: (x: Binding) => void): void {
  const a = stripCasts(arg);
  const p = a.k === 'unary' && a.op === '&' ? place(b, a.arg) : place(b, { k: 'unary', op: '*', arg: a, pos: a.pos });
  atPlace(b, p, (x) => {
    const y = x.k === 'alias' ? x.target : x;
    return is(y) ? fn(y) : fail(arg.pos, `argument is not ${what}`);
  });
}

/**
 * Structs, as arrays are: an aggregate binding whose elements are the members in order
 * (each scalar member a variable of its own, nested aggregates flattened in C's
 * layout by `leaves`), so `&s`, `&s.f` and a pointer to a struct are addresses of the
 * cells of one object (../points-to.ts) and `p->f` is a case split over the members f
 * of the structs p may point to.
 */
import type { Expr } from '../ast.js';
import { fail, unsupported, type SourcePos } from '../../program/diagnostics.js';
import { mkVar, type Term } from '../../solver/formula.js';
import type { CType } from '../types.js';
import type { ThreadBuilder } from './builder.js';
import { leaves, type Binding } from './file-scope.js';

/** The member `name` of a struct binding. */
export function member(x: Binding, name: string, pos: SourcePos): Binding {
  const s = x.k === 'alias' ? x.target : x;
  if (s.k !== 'array' || s.type.k !== 'struct') return fail(pos, `request for member '${name}' in something that is not a struct`);
  const i = s.type.fields.findIndex((f) => f.name === name);
  if (i < 0) return fail(pos, `${s.type.name} has no member named '${name}'`);
  return s.elems[s.type.union ? 0 : i];
}

/** Whether two struct types are the same definition. */
const sameStruct = (a: CType, c: CType): boolean => a.k === 'struct' && c.k === 'struct' && a.def === c.def;

/**
 * The structs of type t inside an object (its outermost binding `whole`, its cells
 * numbered from `base`), with their addresses: what `*p` may denote for a pointer p
 * to t that points into that object.
 */
export function structsIn(whole: Binding, t: CType, base: bigint): { elems: Binding[]; addrs: bigint[] } {
  const elems: Binding[] = [];
  const addrs: bigint[] = [];
  let at = base;
  const walk = (x: Binding): void => {
    if (x.k === 'array' && sameStruct(x.type, t)) {
      elems.push(x);
      addrs.push(at);
    }
    if (x.k === 'array') x.elems.forEach(walk);
    else at++;
  };
  walk(whole);
  return { elems, addrs };
}

/**
 * `a = b` for structs: member by member (the cells of both in the same layout).
 * `atSource` runs its argument on the struct `value` denotes (a case split when it is
 * chosen at run time: `a = arr[i]`, `a = *p`).
 */
export function copyStruct(b: ThreadBuilder, target: Binding & { k: 'array' }, value: Expr, atSource: (fn: (src: Binding) => void) => void, pos: SourcePos): void {
  // A mutex member is copied as its state (POSIX leaves using the copy undefined).
  const state = (c: Binding): Term => (c.k === 'var' && c.type.k === 'mutex' ? mkVar(c.name) : b.read(c, pos));
  const v = value.k === 'cast' ? value.arg : value;
  if (v.k !== 'id' && v.k !== 'member' && v.k !== 'index' && !(v.k === 'unary' && v.op === '*'))
    return unsupported(value.pos, 'a struct value other than an object (a struct returned by a call, from ?:, …)');
  atSource((src) => {
    if (src.k !== 'array' || !sameStruct(src.type, target.type)) return unsupported(value.pos, `assignment of this value to a ${target.type.k === 'struct' ? target.type.name : 'struct'}`);
    const from = leaves(src);
    leaves(target).forEach((c, i) => b.assign(c, state(from[i]), pos));
  });
}

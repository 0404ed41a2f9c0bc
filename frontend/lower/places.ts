/**
 * Lvalues: what an assignable expression denotes — a variable, an array cell, the
 * target of a `&variable` argument seen through its parameter, or a cell a pointer
 * points to. An array index known only at run time, and a dereference of a pointer,
 * become case splits over the cells, with an out-of-bounds or invalid-pointer error.
 */
import type { Expr } from '../ast.js';
import { fail, unsupported, type SourcePos } from '../../program/diagnostics.js';
import type { Term } from '../../solver/formula.js';
import { stripCasts } from './ast-queries.js';
import type { ThreadBuilder } from './builder.js';
import { caseSplit, type Interval } from './case-split.js';
import type { Binding } from './file-scope.js';
import { derefCells, exprCType } from './pointers.js';
import { checkedAccess } from './free.js';
import { member } from './structs.js';

/** An lvalue: a fixed binding, or one of some cells chosen at run time by the value of `index` (the k-th cell's values of it are `cases[k]`). */
export type Place =
  | { k: 'static'; b: Binding }
  | { k: 'dynamic'; elems: Binding[]; cases: readonly Interval[]; index: Term; pos: SourcePos; miss: string }
  /** `p->a[i]` with i known at run time: one place per value of i (each a case split over the structs p may point to). */
  | { k: 'rows'; rows: Place[]; index: Term; pos: SourcePos; miss: string };

const INVALID_DEREF = 'invalid dereference: a null, dangling or out-of-bounds pointer (undefined behaviour)';

/** The binding an lvalue expression denotes. */
export function lvalue(b: ThreadBuilder, e: Expr): Binding {
  switch (e.k) {
    case 'id':
      return b.lookup(e.name, e.pos);
    case 'unary':
      if (e.op === '*') {
        const p = place(b, e);
        return p.k === 'static' ? p.b : unsupported(e.pos, 'a dereference of a pointer here (only reads and writes through it are modelled)');
      }
      break;
    case 'index': {
      const p = place(b, e);
      return p.k === 'static' ? p.b : unsupported(e.index.pos, 'an array cell chosen at run time here (only reads and writes of it are modelled)');
    }
    case 'cast':
      return lvalue(b, e.arg);
    case 'member': {
      const p = place(b, e);
      return p.k === 'static' ? p.b : unsupported(e.pos, 'a member of a struct chosen at run time here (only reads and writes of it are modelled)');
    }
  }
  return fail(e.pos, 'expression is not assignable');
}

/** Whether e names a parameter bound to its `&variable` argument (an alias: no pointer variable). */
function aliasOf(b: ThreadBuilder, e: Expr): Binding | undefined {
  const s = stripCasts(e);
  const x = s.k === 'id' ? b.lookup(s.name, s.pos) : undefined;
  return x?.k === 'alias' ? x.target : undefined;
}

/**
 * Where an lvalue expression points: one binding, or a cell chosen at run time (an
 * array index, a pointer).
 */
export function place(b: ThreadBuilder, e: Expr): Place {
  if (e.k === 'unary' && e.op === '*') {
    const target = aliasOf(b, e.arg);
    if (target) return { k: 'static', b: target };
    return { k: 'dynamic', ...derefCells(b, e.arg, undefined, e.pos), pos: e.pos, miss: INVALID_DEREF };
  }
  if (e.k === 'member') {
    // `p->f` is `(*p).f`; a member of a struct chosen at run time is chosen with it.
    const whole = place(b, e.arrow ? { k: 'unary', op: '*', arg: e.base, pos: e.pos } : e.base);
    return memberOf(whole, (s) => member(s, e.name, e.pos));
  }
  if (e.k !== 'index') return { k: 'static', b: lvalue(b, e) };
  if (!aliasOf(b, e.base) && exprCType(b, e.base)?.k === 'ptr') return { k: 'dynamic', ...derefCells(b, e.base, e.index, e.pos), pos: e.pos, miss: INVALID_DEREF };
  const whole = place(b, e.base);
  const arrayOf = (x: Binding): Binding & { k: 'array' } => {
    const arr = x.k === 'alias' ? x.target : x;
    return arr.k === 'array' && arr.type.k === 'array' ? arr : unsupported(e.pos, 'indexing something that is not an array');
  };
  const i = b.rvalue(e.index);
  const t = exprCType(b, e.base);
  const n = whole.k === 'static' ? arrayOf(whole.b).elems.length : t?.k === 'array' && t.size !== undefined ? t.size : unsupported(e.pos, 'indexing something that is not an array');
  // A constant index out of bounds (a global nothing writes is a constant) is undefined behaviour only where
  // evaluated: it takes the run-time path, whose miss reaches the error location.
  const outside = i.kind === 'int' && (i.value < 0n || i.value >= BigInt(n));
  if (i.kind !== 'int' || (outside && whole.k === 'static')) {
    const miss = `array index out of bounds [0, ${n})`;
    if (whole.k !== 'static') return { k: 'rows', rows: Array.from({ length: n }, (_, k) => memberOf(whole, (x) => arrayOf(x).elems[k])), index: i, pos: e.pos, miss };
    const arr = arrayOf(whole.b);
    return { k: 'dynamic', elems: arr.elems, cases: arr.elems.map((_, k) => [BigInt(k), BigInt(k)] as const), index: i, pos: e.pos, miss };
  }
  const k = Number(i.value);
  if (k < 0 || k >= n) return fail(e.index.pos, `array index ${i.value} out of bounds [0, ${n})`);
  return memberOf(whole, (x) => arrayOf(x).elems[k]);
}

/** The place of a part of each cell a place may denote (a struct's member, an array's element). */
function memberOf(p: Place, part: (x: Binding) => Binding): Place {
  switch (p.k) {
    case 'static':
      return { k: 'static', b: part(p.b) };
    case 'dynamic':
      return { ...p, elems: p.elems.map(part) };
    case 'rows':
      return { ...p, rows: p.rows.map((r) => memberOf(r, part)) };
  }
}

/**
 * Runs `fn` on the cell a place denotes. A cell chosen at run time becomes a case
 * split (index = the cell's address for each cell); any other index is undefined
 * behaviour and reaches the error location.
 */
export function atPlace(b: ThreadBuilder, p: Place, fn: (cell: Binding) => void): void {
  if (p.k === 'static') return fn(p.b);
  if (p.k === 'rows') return caseSplit(b, p.index, p.rows.map((_, k) => [BigInt(k), BigInt(k)] as const), (k) => atPlace(b, p.rows[k], fn), p.pos, p.miss);
  caseSplit(b, p.index, p.cases, (k) => checkedAccess(b, p.elems[k], p.pos, () => fn(p.elems[k])), p.pos, p.miss);
}

/** Runs `fn` on each cell an lvalue expression may denote (see atPlace). */
export function atLvalue(b: ThreadBuilder, e: Expr, fn: (cell: Binding) => void): void {
  atPlace(b, place(b, e), fn);
}

/** The value of the cell a place denotes, as `read` gives a cell's value (a temporary where the cell is chosen at run time). */
export function readPlace(b: ThreadBuilder, p: Place, pos: SourcePos, read = (cell: Binding): Term => b.read(cell, pos)): Term {
  if (p.k === 'static') return read(p.b);
  const tmp = b.fresh('elem');
  atPlace(b, p, (cell) => b.assign(tmp, read(cell), pos, ''));
  return b.read(tmp, pos);
}

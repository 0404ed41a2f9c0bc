/**
 * Lvalues: what an assignable expression denotes — a variable, an array cell, or the
 * target of a `&variable` argument seen through its parameter. An array index known
 * only at run time becomes a case split over the cells, with an out-of-bounds error.
 */
import type { Expr } from '../ast.js';
import { fail, unsupported, type SourcePos } from '../diagnostics.js';
import { eq, ge, lt, num, type Term } from '../../solver/formula.js';
import { stripCasts } from './ast-queries.js';
import type { ThreadBuilder } from './builder.js';
import type { Binding } from './file-scope.js';

/** An lvalue: a fixed binding, or an array cell chosen by a run-time index. */
export type Place = { k: 'static'; b: Binding } | { k: 'dynamic'; elems: Binding[]; index: Term; pos: SourcePos };

/** The binding an lvalue expression denotes. */
export function lvalue(b: ThreadBuilder, e: Expr): Binding {
  switch (e.k) {
    case 'id':
      return b.lookup(e.name, e.pos);
    case 'unary':
      if (e.op === '*') {
        const p = lvalue(b, stripCasts(e.arg));
        if (p.k === 'alias') return p.target;
        if (p.k === 'null') return fail(e.pos, 'dereference of a null pointer');
        return unsupported(e.pos, 'dereference of a pointer that is not a &variable argument');
      }
      break;
    case 'index': {
      const p = place(b, e);
      return p.k === 'static' ? p.b : unsupported(e.index.pos, 'an array cell chosen at run time here (only reads and writes of it are modelled)');
    }
    case 'cast':
      return lvalue(b, e.arg);
    case 'member':
      return unsupported(e.pos, 'struct and union members');
  }
  return fail(e.pos, 'expression is not assignable');
}

/**
 * Where an lvalue expression points: one binding, or an array cell chosen by an
 * index only known at run time.
 */
export function place(b: ThreadBuilder, e: Expr): Place {
  if (e.k !== 'index') return { k: 'static', b: lvalue(b, e) };
  const base = lvalue(b, e.base);
  const arr = base.k === 'alias' ? base.target : base;
  if (arr.k !== 'array') return unsupported(e.pos, 'indexing something that is not an array');
  const i = b.rvalue(e.index);
  if (i.kind !== 'int') return { k: 'dynamic', elems: arr.elems, index: i, pos: e.pos };
  const k = Number(i.value);
  if (k < 0 || k >= arr.elems.length) return fail(e.index.pos, `array index ${i.value} out of bounds [0, ${arr.elems.length})`);
  return { k: 'static', b: arr.elems[k] };
}

/**
 * Runs `fn` on the cell a place denotes. A run-time index becomes a case split
 * (index = k for each cell); an index out of bounds is undefined behaviour and
 * reaches the error location.
 */
export function atPlace(b: ThreadBuilder, p: Place, fn: (cell: Binding) => void): void {
  if (p.k === 'static') return fn(p.b);
  const from = b.cur;
  const join = b.cfg.newLoc(p.pos);
  p.elems.forEach((cell, k) => {
    const loc = b.cfg.newLoc(p.pos);
    b.cur = from;
    b.assume(eq(p.index, num(k)), loc, p.pos, false);
    b.cur = loc;
    fn(cell);
    b.goto(join, p.pos, '');
  });
  const oob = b.cfg.newLoc(p.pos);
  for (const c of [lt(p.index, num(0)), ge(p.index, num(p.elems.length))]) {
    b.cur = from;
    b.assume(c, oob, p.pos, false);
  }
  b.cur = oob;
  b.goto(b.err, p.pos, `array index out of bounds [0, ${p.elems.length})`);
  b.cur = join;
}

export function readPlace(b: ThreadBuilder, p: Place, pos: SourcePos): Term {
  if (p.k === 'static') return b.read(p.b, pos);
  const tmp = b.fresh('elem');
  atPlace(b, p, (cell) => b.assign(tmp, b.read(cell, pos), pos, ''));
  return b.read(tmp, pos);
}

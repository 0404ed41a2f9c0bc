/**
 * `free` and the use of freed memory (LowerOptions.checkFree): each heap object has a
 * ghost flag "freed" that free sets and every access through a pointer tests.
 */
import type { Expr } from '../ast.js';
import type { SourcePos } from '../../program/diagnostics.js';
import { eq, gt, mkVar, num } from '../../solver/formula.js';
import type { ThreadBuilder } from './builder.js';
import { caseSplit } from './case-split.js';
import { leaves, type Binding } from './file-scope.js';
import { local, pointerValue, targetsOf } from './pointers.js';

/** Whether an object (named by its first cell) is a heap object: allocation names them `heap:…`. */
const isHeap = (first: string): boolean => first.startsWith('heap:');

/** A heap object's flag "freed" when LowerOptions.checkFree asks for it. */
function freedFlag(b: ThreadBuilder, first: string): string | undefined {
  // A region's key is its array variable's name; the flag is an integer, so its name drops the `[]` (formula.ts isArrayName).
  return b.L.checkFree && isHeap(first) ? b.L.ghost(`__freed.${first.replace('[]', '')}`) : undefined;
}

/**
 * `free(p)`: without LowerOptions.checkFree it has no effect (each allocation has an
 * object of its own, never reused). With it, p must be NULL or the address of a heap
 * object not yet freed, which it marks freed; anything else reaches the error location.
 */
export function freeObject(b: ThreadBuilder, e: Expr, pos: SourcePos): void {
  const v = pointerValue(b, e);
  if (!b.L.checkFree) return;
  const heap = targetsOf(b, v).objects.filter((o) => isHeap(o.key));
  const at = local(b, v.term, pos);
  b.emit({ kind: 'atomicBegin' }, pos, '');
  caseSplit(b, at, [[0n, 0n], ...heap.map((o) => [o.base, o.base] as const)], (k) => {
    if (k > 0) {
      const flag = freedFlag(b, heap[k - 1].key)!;
      unlessFreed(b, flag, pos, 'double free');
      b.emit({ kind: 'assign', target: flag, value: num(1) }, pos, `free(${b.L.cname(heap[k - 1].key)})`);
    }
  }, pos, 'free of a pointer that is not the address of an allocation');
  b.emit({ kind: 'atomicEnd' }, pos, '');
}

/** Goes on only while the freed flag is 0; else reaches the error location, with `what` as its text. */
function unlessFreed(b: ThreadBuilder, flag: string, pos: SourcePos, what: string): void {
  const ok = b.cfg.newLoc(pos);
  const bad = b.cfg.newLoc(pos);
  b.assume(eq(mkVar(flag), num(0)), ok, pos, false);
  b.assume(gt(mkVar(flag), num(0)), bad, pos, false);
  b.cur = bad;
  b.goto(b.err, pos, what);
  b.cur = ok;
}

/**
 * Runs `access` on a cell reached through a pointer: with LowerOptions.checkFree, a
 * cell of a freed heap object is an error, tested in one step with the access (another
 * thread may free the object in between otherwise).
 */
export function checkedAccess(b: ThreadBuilder, cell: Binding, pos: SourcePos, access: () => void): void {
  const whole = cell.k === 'var' ? b.L.cellOf(cell.name)?.array : undefined;
  const first = whole ? leaves(whole)[0] : undefined;
  const flag = cell.k === 'elem' ? freedFlag(b, cell.array) : first?.k === 'var' ? freedFlag(b, first.name) : undefined;
  if (!flag) return access();
  b.emit({ kind: 'atomicBegin' }, pos, '');
  unlessFreed(b, flag, pos, 'use after free');
  access();
  b.emit({ kind: 'atomicEnd' }, pos, '');
}

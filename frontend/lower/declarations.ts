/**
 * Local declarations: IR variables for each declared local (arrays cell by cell),
 * initializers as assignments and uninitialized integers as havocs, `static` locals as
 * globals. A thread started at init may instead hoist the constant initial values of
 * its leading declarations into φ_init.
 */
import type { Declaration, Expr } from '../ast.js';
import { unsupported, type SourcePos } from '../../program/diagnostics.js';
import { num } from '../../solver/formula.js';
import { checkStorage } from '../specifiers.js';
import { convertConstant, type CType } from '../types.js';
import type { ThreadBuilder } from './builder.js';
import { declaredType } from './declared-types.js';
import { assignExpr } from './expressions.js';
import { storeThreadId, threadValue } from './thread-ids.js';
import { variableLengthArray } from './pointers.js';
import { aggregateItems, leaves, type Binding } from './file-scope.js';

type Item = Declaration['items'][number];

function typeOf(b: ThreadBuilder, d: Declaration, item: Item): CType {
  return declaredType(b.L.typeEnv, d.spec, item.decl);
}

export function declaration(b: ThreadBuilder, d: Declaration, pos: SourcePos): void {
  if (d.spec.storage.includes('typedef') || d.spec.storage.includes('extern')) {
    if (d.spec.storage.includes('typedef')) unsupported(pos, 'typedef inside a function');
    return;
  }
  for (const item of d.items) {
    const name = item.decl.name;
    if (!name) continue;
    const t = typeOf(b, d, item);
    if (t.k === 'func') continue; // local prototype
    checkStorage(d.spec, name, item.decl.pos);
    if (d.spec.storage.includes('static')) {
      b.bind(name, b.L.staticLocal(b.frame().fn, name, t, item.init, item.decl.pos));
      continue;
    }
    const vla = variableLength(item, t);
    if (vla) {
      b.bind(name, variableLengthArray(b, name, vla.of, vla.size, item.decl.pos));
      if (item.init) unsupported(item.init.pos, `an initializer of variable-length array '${name}'`);
      continue;
    }
    const x = b.declareLocal(name, t, item.decl.pos);
    b.bind(name, x);
    const at = item.decl.pos;
    if (item.init) initialize(b, x, item.init, at, name);
    else if (x.k === 'var' && t.k === 'int') b.emit({ kind: 'havoc', target: x.name, lo: t.lo, hi: t.hi }, at, `${name} = <uninitialized>`);
    else if (x.k === 'var' && t.k === 'ptr') {
      const [lo, hi] = b.L.pointers.range(x.name) ?? [];
      b.emit({ kind: 'havoc', target: x.name, lo, hi }, at, `${name} = <uninitialized>`);
    }
    else if (x.k === 'array') uninitialized(b, x, at);
  }
}

/**
 * An aggregate declared without an initializer: its integers are indeterminate (a
 * havoc each), but a synchronisation object in it starts in the state its static
 * initializer gives (all zero), as rely does not model one used before its `_init`.
 */
function uninitialized(b: ThreadBuilder, x: Binding, at: SourcePos): void {
  if (x.k === 'array' && x.type.k === 'struct' && x.type.sync) for (const c of leaves(x)) b.assign(c, num(0), at);
  else if (x.k === 'array') for (const e of x.elems) uninitialized(b, e, at);
  else if (x.k === 'var' && x.type.k === 'int') b.emit({ kind: 'havoc', target: x.name, lo: x.type.lo, hi: x.type.hi }, at, `${b.L.cname(x.name)} = <uninitialized>`);
}

/** `T a[n]` with n not a constant: T and n (a VLA of one dimension; others stay refused where their cells are declared). */
function variableLength(item: Item, t: CType): { of: CType; size: Expr } | undefined {
  const d = item.decl.derived;
  return t.k === 'array' && t.size === undefined && d.length === 1 && d[0].k === 'array' && d[0].size ? { of: t.of, size: d[0].size } : undefined;
}

function initialize(b: ThreadBuilder, x: Binding, init: Expr, pos: SourcePos, name: string): void {
  if (x.k === 'array' && x.type.k === 'struct' && x.type.sync) {
    b.L.checkSyncInitializer(init, name, x.type);
    for (const c of leaves(x)) b.assign(c, num(0), pos);
    return;
  }
  if (x.k === 'array') {
    if (x.type.k === 'struct' && init.k !== 'init') return assignExpr(b, x, init, pos);
    const items = aggregateItems(init, x.elems.length, name);
    x.elems.forEach((e, i) => (items[i] ? initialize(b, e, items[i], pos, name) : b.assign(e, num(0), pos)));
    return;
  }
  if (x.k === 'var' && x.type.k === 'mutex') {
    b.L.checkSyncInitializer(init, name, x.type);
    b.assign(x, num(0), pos, `${name} = PTHREAD_MUTEX_INITIALIZER`);
    return;
  }
  const e = init.k === 'init' ? (init.items[0] ?? { k: 'num' as const, value: 0n, pos }) : init;
  // A pthread_t's value is a thread id (thread-ids.ts).
  if (x.k === 'handle') return storeThreadId(b, x, threadValue(b, e), pos);
  assignExpr(b, x, e, pos);
}

/**
 * Hoists `int x = <constant>;` and `int x;` at the top of a thread started at init into
 * φ_init (which leaves an uninitialised x free); false if `d` is not of that form. An
 * uninitialised `_Bool` or `char` (a type with bounds) stays a havoc, which bounds it.
 */
export function hoistDecl(b: ThreadBuilder, d: Declaration): boolean {
  if (d.spec.storage.length) return false;
  const plans: [string, CType, bigint | undefined, SourcePos][] = [];
  for (const item of d.items) {
    const t = typeOf(b, d, item);
    if (t.k !== 'int' || !item.decl.name) return false;
    let v: bigint | undefined;
    if (item.init) {
      v = b.L.constant(item.init);
      if (v === undefined) return false;
      v = convertConstant(v, t);
    } else if (t.lo !== undefined || t.hi !== undefined) return false;
    plans.push([item.decl.name, t, v, item.decl.pos]);
  }
  for (const [name, t, v, pos] of plans) {
    const x = b.declareLocal(name, t, pos);
    b.bind(name, x);
    if (x.k !== 'var') continue;
    // A local whose address escapes is a global (../points-to.ts): a global's initial value, or a havoc where C leaves it indeterminate.
    if (!b.L.isGlobal(x.name)) {
      if (v !== undefined) b.initValues.set(x.name, v);
    } else if (v !== undefined) b.L.globalInit.set(x.name, v);
    else b.emit({ kind: 'havoc', target: x.name }, pos, `${name} = <uninitialized>`);
  }
  return true;
}

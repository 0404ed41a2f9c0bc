/**
 * Pointer values at run time, over the address space of ../points-to.ts: a pointer is
 * one integer variable holding 0 (NULL) or an address, `&x`, `a`, `&a[i]` are
 * constants (plus the index), `p + k`, `p++`, `p - q`, `p == q`, `!p` are integer
 * arithmetic and comparisons, and `*p`, `p[i]` are case splits over the cells the
 * analysis says p may point to (places.ts). Undefined behaviour reaches the error
 * location, as an array index out of bounds does: a dereference of NULL, of a
 * one-past-the-end or otherwise invalid address, and pointer arithmetic that leaves
 * its object. What the address space cannot answer exactly is a located
 * `unsupported:` (an integer cast to a pointer that is dereferenced or compared with an
 * address, an address used as an integer, `p - q` or `p < q` across objects, pointers
 * stored in memory).
 *
 * A pointer parameter of an inlined function given `&x` keeps its older, cheaper form:
 * an alias of x (Binding 'alias', no variable at all); only where such an alias is used
 * as a value does x get an address.
 */
import type { Expr } from '../ast.js';
import { fail, unsupported, type SourcePos } from '../../program/diagnostics.js';
import { INT_SOURCES, NULL_SOURCES, REGION_SPAN, objectSource, variableSource, type Sources, type Targets } from '../points-to.js';
import { add, cdiv, constArray, eq, gt, linearOf, lt, mkVar, mul, neg, num, show, sub, varsOf, type Term } from '../../solver/formula.js';
import { sizeOf } from '../sizes.js';
import { BOOL, INT, showType, structMembers, type CType } from '../types.js';
import type { ThreadBuilder } from './builder.js';
import { caseSplit, type Interval } from './case-split.js';
import { castType, declaredType } from './declared-types.js';
import { ALLOCATORS, calleeName, calleeOf, stripCasts } from './ast-queries.js';
import { functionType, functionValue, isFunctionName, namesVariable } from './functions.js';
import { HANDLE_VALUES, leaves, type Binding } from './file-scope.js';
import { structsIn } from './structs.js';

/** A pointer's value: its term, and where it may come from (for the points-to analysis). */
export interface PtrValue {
  term: Term;
  from: Sources;
}

const NULL_VALUE: PtrValue = { term: num(0), from: NULL_SOURCES };
const VOID: CType = { k: 'void' };

// ---- static types

const elemOf = (t: CType | undefined): CType | undefined => (t?.k === 'array' ? t.of : t?.k === 'ptr' ? t.to : undefined);
const isPointer = (t: CType | undefined): boolean => t?.k === 'ptr' || t?.k === 'array';

/** The C type a binding denotes: an alias is a pointer to its target (to its first cell, for an array). */
function bindingType(x: Binding): CType | undefined {
  switch (x.k) {
    case 'var':
    case 'array':
      return x.type;
    case 'alias':
      return { k: 'ptr', to: (x.target.k === 'array' && x.target.type.k === 'array' ? x.target.type.of : bindingType(x.target)) ?? INT };
    case 'null':
      return { k: 'ptr', to: VOID };
    case 'handle':
      return { k: 'thread' };
    case 'const':
      return undefined;
    case 'elem':
      return x.type;
  }
}

/** The C type of an expression where pointers and arrays matter; undefined for most integer expressions. Memoized for the statement. */
export function exprCType(b: ThreadBuilder, e: Expr): CType | undefined {
  const memo = b.typeMemo.c;
  if (!memo.has(e)) memo.set(e, cTypeOf(b, e));
  return memo.get(e);
}

function cTypeOf(b: ThreadBuilder, e: Expr): CType | undefined {
  switch (e.k) {
    case 'id':
      if (b.L.enumConstant(e.name) !== undefined && !b.scopes.some((s) => s.has(e.name))) return undefined;
      if (isFunctionName(b, e.name, e.pos)) return functionType(b, e.name, e.pos);
      return bindingType(b.lookup(e.name, e.pos));
    case 'unary':
      if (e.op === '&') return { k: 'ptr', to: exprCType(b, e.arg) ?? INT };
      return e.op === '*' ? elemOf(exprCType(b, e.arg)) : undefined;
    case 'index':
      return elemOf(exprCType(b, e.base));
    case 'member': {
      const s = e.arrow ? elemOf(exprCType(b, e.base)) : exprCType(b, e.base);
      return s?.k === 'struct' ? s.fields.find((f) => f.name === e.name)?.type : undefined;
    }
    case 'binary': {
      const l = exprCType(b, e.left);
      if (e.op === '+') return isPointer(l) ? l : isPointer(exprCType(b, e.right)) ? exprCType(b, e.right) : undefined;
      return e.op === '-' && isPointer(l) && !isPointer(exprCType(b, e.right)) ? l : undefined;
    }
    case 'cast':
      return castType(b.L.typeEnv, e);
    case 'cond': {
      const t = exprCType(b, e.then);
      return isPointer(t) ? t : exprCType(b, e.else);
    }
    case 'assign':
    case 'incdec':
      return exprCType(b, e.target);
    case 'comma':
      return exprCType(b, e.exprs[e.exprs.length - 1]);
    case 'call': {
      const f = calledType(b, e);
      return f?.k === 'func' ? f.ret : undefined;
    }
    default:
      return undefined;
  }
}

/** What e points to, when e is a pointer (or an array or a function, which decay to one); undefined otherwise. */
export function pointee(b: ThreadBuilder, e: Expr): CType | undefined {
  const t = exprCType(b, e);
  return isPointer(t) ? elemOf(t) : t?.k === 'func' ? t : undefined;
}

/** The type of the function a call calls: a named one's (calls.ts calls it whatever the casts), or what a function pointer points to. */
export function calledType(b: ThreadBuilder, e: Extract<Expr, { k: 'call' }>): CType | undefined {
  const c = calleeOf(e.callee);
  if (c.k === 'id' && !namesVariable(b, c.name, c.pos)) {
    const def = b.L.functionDef(c.name);
    return def && declaredType(b.L.typeEnv, def.spec, def.decl);
  }
  return pointee(b, e.callee);
}

// ---- values

/**
 * The value of a pointer expression (emitting its side effects first). `to` is the
 * type the value is stored as a pointer to, where the context says (an allocation
 * takes its object's type from it).
 */
export function pointerValue(b: ThreadBuilder, e: Expr, to?: CType): PtrValue {
  switch (e.k) {
    case 'id':
      if (b.L.enumConstant(e.name) !== undefined && !b.scopes.some((s) => s.has(e.name))) break;
      if (isFunctionName(b, e.name, e.pos)) return functionValue(b, e.name, e.pos);
      return bindingValue(b, b.lookup(e.name, e.pos), e.pos);
    case 'unary':
      if (e.op === '&') return addressOf(b, e.arg);
      break;
    case 'index':
      // A row of a multi-dimensional array decays to its address.
      if (exprCType(b, e)?.k === 'array') return addressOf(b, e);
      break;
    case 'binary': {
      if ((e.op === '+' || e.op === '-') && pointee(b, e.left)) {
        const p = pointerValue(b, e.left);
        const k = scaled(b, e.left, b.rvalue(e.right));
        return offset(b, p, e.op === '+' ? k : neg(k), e.pos);
      }
      if (e.op === '+' && pointee(b, e.right)) {
        const k = scaled(b, e.right, b.rvalue(e.left));
        return offset(b, pointerValue(b, e.right), k, e.pos);
      }
      break;
    }
    case 'cast': {
      const t = castType(b.L.typeEnv, e);
      if (allocator(b, e.arg)) return pointerValue(b, e.arg, t.k === 'ptr' ? t.to : undefined);
      return pointee(b, e.arg) ? pointerValue(b, e.arg) : integerAsPointer(b, e.arg);
    }
    case 'cond':
      return conditional(b, e);
    case 'assign':
      pointerUpdate(b, e);
      return variableValue(pointerVariable(b, e.target));
    case 'incdec': {
      const x = pointerVariable(b, e.target);
      if (e.prefix) {
        pointerUpdate(b, e);
        return variableValue(x);
      }
      const old = b.fresh('old');
      b.assign(old, mkVar(x.name), e.pos, '');
      pointerUpdate(b, e);
      return { term: b.read(old, e.pos), from: variableSource(x.name) };
    }
    case 'comma':
      e.exprs.slice(0, -1).forEach((x) => b.effect(x));
      return pointerValue(b, e.exprs[e.exprs.length - 1]);
    case 'call': {
      const name = allocator(b, e);
      if (name) return allocation(b, e, name, to);
      const r = b.call(e, true);
      // An inlined function's pointer result is its result variable.
      if (r?.kind === 'var') return { term: r, from: variableSource(r.name) };
      return fail(e.pos, 'the call returns no pointer');
    }
  }
  if (!isPointer(exprCType(b, e))) return integerAsPointer(b, e);
  if (exprCType(b, e)?.k === 'ptr' && (e.k === 'member' || e.k === 'index' || (e.k === 'unary' && e.op === '*'))) return storedPointer(b, e);
  return unsupported(e.pos, 'this pointer expression');
}

/** `p = e`, `p += k`, `p -= k`, `p++`, `p--` for a pointer variable p. */
export function pointerUpdate(b: ThreadBuilder, e: Extract<Expr, { k: 'assign' | 'incdec' }>): void {
  if (e.k === 'assign' && e.op === '=' && e.target.k !== 'id') {
    // A pointer in memory (a struct member, an array cell, through a pointer): stored into each cell the target may be.
    const v = pointerValue(b, e.value, pointee(b, e.target));
    return b.atLvalue(e.target, (cell) => storePointer(b, cell, v, e.pos));
  }
  const x = pointerVariable(b, e.target);
  if (e.k === 'incdec') return storePointer(b, x, offset(b, variableValue(x), scaled(b, e.target, num(e.op === '++' ? 1 : -1)), e.pos), e.pos);
  if (e.op === '=') return storePointer(b, x, pointerValue(b, e.value, x.type.k === 'ptr' ? x.type.to : undefined), e.pos);
  if (e.op !== '+=' && e.op !== '-=') return unsupported(e.pos, `operator '${e.op}' on a pointer`);
  const k = scaled(b, e.target, b.rvalue(e.value));
  storePointer(b, x, offset(b, variableValue(x), e.op === '+=' ? k : neg(k), e.pos), e.pos);
}

/** Stores a pointer value into a pointer variable, recording the flow for the analysis. */
export function storePointer(b: ThreadBuilder, x: Binding, v: PtrValue, pos: SourcePos): void {
  if (x.k !== 'var' || x.type.k !== 'ptr') return unsupported(pos, 'a pointer stored here');
  b.L.pointers.flow(x.name, v.from);
  b.assign(x, v.term, pos);
}

/** The value of a pointer expression used as an integer (cast or stored to an integer type): only without addresses. */
export function pointerAsInteger(b: ThreadBuilder, e: Expr): Term {
  const v = pointerValue(b, e);
  const tg = targetsOf(b, v);
  if (tg.objects.length || tg.functions.length)
    unsupported(e.pos, 'an address used as an integer (addresses are not modelled as numbers; only pointers to objects are)');
  return v.term;
}

/** The two sides of a comparison of pointers. */
export function comparedPointers(b: ThreadBuilder, left: Expr, right: Expr, op: string, pos: SourcePos): [Term, Term] {
  const l = pointerValue(b, left);
  const r = pointerValue(b, right);
  const [a, c] = [targetsOf(b, l), targetsOf(b, r)];
  if (op !== '==' && op !== '!=') sameObject(a, c, pos, `comparison '${op}' of pointers`);
  else if ((a.int && (c.objects.length || c.functions.length)) || (c.int && (a.objects.length || a.functions.length)))
    unsupported(pos, 'comparison of an integer cast to a pointer with the address of an object');
  return [l.term, r.term];
}

/** `p - q`, for pointers into the same object. */
export function pointerDifference(b: ThreadBuilder, left: Expr, right: Expr, pos: SourcePos): Term {
  const l = pointerValue(b, left);
  const r = pointerValue(b, right);
  sameObject(targetsOf(b, l), targetsOf(b, r), pos, 'difference of pointers');
  if (cellCount(pointee(b, left) ?? INT) !== 1) unsupported(pos, 'difference of pointers to structs or arrays');
  return sub(l.term, r.term);
}

/** C defines `p - q` and `p < q` only within one object; rely answers them only when the analysis sees one. */
function sameObject(a: Targets, c: Targets, pos: SourcePos, what: string): void {
  if (a.int || c.int || a.functions.length || c.functions.length || new Set([...a.objects, ...c.objects]).size > 1) unsupported(pos, `${what} that may point into different objects`);
}

/** What a pointer value may point to (nothing is known yet in the analysis' own run). */
export const targetsOf = (b: ThreadBuilder, v: PtrValue): Targets => b.L.pointers.targets(v.from);

/**
 * The cells `*e` (or `e[index]`) may denote, with their addresses, and the address
 * itself: places.ts splits on it. NULL and any other address reach the error.
 */
export function derefCells(b: ThreadBuilder, e: Expr, index: Expr | undefined, pos: SourcePos): { elems: Binding[]; cases: Interval[]; index: Term } {
  const type = pointee(b, e) ?? VOID;
  let p = pointerValue(b, e);
  if (index) p = offset(b, p, scaled(b, e, b.rvalue(index)), pos);
  if (type.k === 'void') return fail(pos, 'dereference of a void pointer');
  if (type.k !== 'int' && type.k !== 'mutex' && type.k !== 'struct')
    return unsupported(pos, `dereference of a pointer to ${showType(type)} (only pointers to integers, mutexes and structs are modelled)`);
  const at = local(b, p.term, pos);
  const tg = targetsOf(b, p);
  if (tg.int) unsupported(pos, 'dereference of a pointer that may hold an integer cast to a pointer');
  const elems: Binding[] = [];
  const cases: Interval[] = [];
  const cell = (x: Binding, addr: bigint): void => {
    elems.push(x);
    cases.push([addr, addr]);
  };
  for (const o of tg.objects) {
    if (o.region) {
      const r = o.region;
      if (type.k !== 'int' || type.bits !== r.elem.bits || type.unsigned !== r.elem.unsigned)
        unsupported(pos, `dereference of a pointer to ${showType(type)} that may point into an object of ${showType(r.elem)} values of a size known only at run time`);
      elems.push({ k: 'elem', array: o.key, index: sub(at, num(o.base)), type: r.elem });
      cases.push([o.base, o.base + REGION_SPAN - 1n, mkVar(r.size)]);
      continue;
    }
    const whole = b.L.cellOf(o.key)?.array;
    if (type.k === 'struct') {
      // The structs of that type in the object; any other address is invalid.
      const s = structsIn(whole ?? { k: 'var', ...o.cells[0] }, type, o.base);
      s.elems.forEach((x, k) => cell(x, s.addrs[k]));
      continue;
    }
    o.cells.forEach((c, i) => {
      const same = c.type.k === 'int' && type.k === 'int' ? c.type.bits === type.bits && c.type.unsigned === type.unsigned && c.type.bool === type.bool : c.type.k === type.k;
      // In an object with structs, a member of another type is one p reaches only by undefined behaviour (C's effective types): an invalid dereference.
      if (!same && !(whole && hasStruct(whole))) unsupported(pos, `dereference of a pointer to ${showType(type)} that may point to '${b.L.cname(c.name)}' of type ${showType(c.type)}`);
      if (!same) return;
      cell({ k: 'var', name: c.name, type: c.type }, o.base + BigInt(i));
    });
  }
  return { elems, cases, index: at };
}

/** `k` elements of what pointer p points to, in cells: a struct or an array row is several. */
function scaled(b: ThreadBuilder, p: Expr, k: Term): Term {
  if (pointee(b, p)?.k === 'func') unsupported(p.pos, 'arithmetic on a function pointer');
  const n = cellCount(pointee(b, p) ?? INT);
  return n === 1 ? k : k.kind === 'int' ? num(k.value * BigInt(n)) : mul(num(n), k);
}

/** Locals of a thread that other threads reach through a thread argument `&x` become globals (lower.ts). */
export function shareWithThread(b: ThreadBuilder, target: Binding): void {
  // A pthread_t's variable is its id (thread-ids.ts).
  const vars = leaves(target).map((c) => (c.k === 'handle' ? c.id : c));
  const names = vars.flatMap((c) => (c?.k === 'var' && !b.L.isGlobal(c.name) ? [c.name] : []));
  if (names.length) b.L.pointers.promote(names);
}

// ---- addresses

function bindingValue(b: ThreadBuilder, x: Binding, pos: SourcePos): PtrValue {
  switch (x.k) {
    case 'var':
      if (x.type.k === 'ptr') return variableValue(x);
      return { term: b.read(x, pos), from: INT_SOURCES };
    case 'alias':
      return objectAddress(b, x.target, pos);
    case 'array':
      if (x.type.k === 'struct') return unsupported(pos, `a ${x.type.name} used as a pointer`);
      return objectAddress(b, x, pos);
    case 'null':
      return NULL_VALUE;
    case 'const':
      return x.value === 0n ? NULL_VALUE : { term: num(x.value), from: INT_SOURCES };
    case 'elem':
      return { term: b.read(x, pos), from: INT_SOURCES };
    case 'handle':
      return unsupported(pos, HANDLE_VALUES);
  }
}

const variableValue = (x: Binding & { k: 'var' }): PtrValue => ({ term: mkVar(x.name), from: variableSource(x.name) });

/** The pointer variable `p++`, `p += k` (and `p = e` of a named p) update: a pointer elsewhere in memory only takes `=` (pointerUpdate). */
function pointerVariable(b: ThreadBuilder, e: Expr): Binding & { k: 'var' } {
  const x = e.k === 'id' ? b.lookup(e.name, e.pos) : undefined;
  if (x?.k === 'var' && x.type.k === 'ptr') return x;
  if (x) return unsupported(e.pos, `assignment to '${e.k === 'id' ? e.name : ''}', a parameter bound to its argument`);
  return unsupported(e.pos, 'arithmetic on a pointer stored in memory (a struct member, an array cell; only = and reads are modelled)');
}

/**
 * The value of a pointer stored in memory (`s.next`, `a[i]`, `p->next`, `*q`): the
 * pointer variable the lvalue denotes, or, where a run-time value chooses it, a
 * temporary that takes the chosen one's value (coming from any of them).
 */
function storedPointer(b: ThreadBuilder, e: Expr): PtrValue {
  const cells: (Binding & { k: 'var' })[] = [];
  const tmp = b.fresh('ptr');
  b.atLvalue(e, (cell) => {
    if (cell.k !== 'var' || cell.type.k !== 'ptr') return unsupported(e.pos, 'this pointer expression');
    cells.push(cell);
    b.assign(tmp, mkVar(cell.name), e.pos, '');
  });
  return { term: b.read(tmp, e.pos), from: new Set(cells.flatMap((c) => [...variableSource(c.name)])) };
}

/** An integer used as a pointer: 0 is NULL; any other value is "an integer cast to a pointer". */
function integerAsPointer(b: ThreadBuilder, e: Expr): PtrValue {
  if (b.L.constant(e) === 0n) return NULL_VALUE;
  return { term: b.rvalue(e), from: INT_SOURCES };
}

// ---- the heap

/** The allocator `e` calls (ast-queries.ts ALLOCATORS), unless the program defines it. */
export function allocator(b: ThreadBuilder, e: Expr): string | undefined {
  const name = calleeName(stripCasts(e));
  return name && ALLOCATORS.has(name) && !b.L.hasBody(name) ? name : undefined;
}

/**
 * `malloc(n)`, `calloc(k, n)`, `alloca(n)` stored as a pointer to `to`: a new object of
 * n / sizeof(to) values of type `to`, its cells global variables as an array's are.
 * One object per allocation, so the call may run only once (ThreadBuilder.once). Its
 * contents are any values (zero for calloc) until written: nothing reaches them
 * before, since the object's addresses exist only from here on. With
 * LowerOptions.mallocMayFail, malloc and calloc may return NULL instead.
 */
function allocation(b: ThreadBuilder, e: Extract<Expr, { k: 'call' }>, name: string, to: CType | undefined): PtrValue {
  const args = e.args.map((a) => b.rvalue(a));
  if (args.length !== (name === 'calloc' ? 2 : 1)) return fail(e.pos, `${name} takes ${name === 'calloc' ? 2 : 1} argument(s)`);
  if (!to || to.k === 'void') return unsupported(e.pos, `${name} whose result is not stored in, nor cast to, a pointer to a type (the object's type comes from that pointer)`);
  const bytes = args.reduce((n, a) => mul(n, a));
  const size = sizeOf(to, b.L.typeEnv.longBits) ?? unsupported(e.pos, `${name} of ${showType(to)} values`);
  b.once(e.pos, `an allocation (${name})`);
  const where = `${name}@${e.pos.line}:${e.pos.col}`;
  const v = bytes.kind === 'int' ? fixedAllocation(b, name, bytes.value, size, to, where, e.pos) : regionAllocation(b, name, (x) => storeCellCount(b, x, name, bytes, size, where, e.pos), to, where, e.pos);
  if (!b.L.mallocMayFail || name.endsWith('alloca')) return v;
  const ok = b.fresh('allocated', BOOL);
  if (ok.k === 'var') b.emit({ kind: 'havoc', target: ok.name, lo: 0n, hi: 1n }, e.pos, `${where} succeeds?`);
  return { term: mul(v.term, b.read(ok, e.pos)), from: new Set([...v.from, ...NULL_SOURCES]) };
}

/** An allocation of a constant number of bytes: an object of global cells, as an array's. */
function fixedAllocation(b: ThreadBuilder, name: string, bytes: bigint, size: bigint, to: CType, where: string, pos: SourcePos): PtrValue {
  if (bytes <= 0n || bytes % size !== 0n || bytes / size > 4096n)
    return unsupported(pos, `${name} of ${bytes} bytes: not a whole number (1 to 4096) of ${showType(to)} values of ${size} bytes`);
  const obj = b.L.newGlobal(`heap:${b.inst.name}:${b.objectCount++}`, where, { k: 'array', of: to, size: Number(bytes / size) }, pos);
  if (name !== 'calloc') {
    b.emit({ kind: 'atomicBegin' }, pos, '');
    for (const c of leaves(obj)) if (c.k === 'var' && c.type.k === 'int') b.emit({ kind: 'havoc', target: c.name, lo: c.type.lo, hi: c.type.hi }, pos, '');
    b.emit({ kind: 'atomicEnd' }, pos, `${where}: uninitialised`);
  }
  return objectAddress(b, obj, pos);
}

/**
 * An object whose count of cells is known only at run time (`calloc(n, sizeof(int))`,
 * `int a[n]`): a region (../points-to.ts), its cells one array variable and its size a
 * global that `setSize` sets, in the same step as its contents (any values; zero for
 * calloc). Elements are integers of types without a range (int, long): a stored value
 * needs no conversion, and a cell never written holds any value of its type.
 */
function regionAllocation(b: ThreadBuilder, name: string, setSize: (size: Binding) => void, to: CType, where: string, pos: SourcePos): PtrValue {
  if (to.k !== 'int' || to.bool || to.lo !== undefined || to.hi !== undefined)
    return unsupported(pos, `${name} of a size known only at run time, of ${showType(to)} values (only int, long and long long elements are modelled)`);
  const key = `heap:${b.inst.name}:${b.objectCount++}[]`;
  b.L.newArray(key, where, pos);
  const sizeVar = b.L.newGlobal(`size:${key.slice(0, -2)}`, `the size of ${where}`, INT, pos);
  b.emit({ kind: 'atomicBegin' }, pos, '');
  setSize(sizeVar);
  if (name === 'calloc') b.emit({ kind: 'assign', target: key, value: constArray(num(0)) }, pos, `${where}: zeroed`);
  else b.emit({ kind: 'havoc', target: key }, pos, `${where}: uninitialised`);
  b.emit({ kind: 'atomicEnd' }, pos, '');
  const o = b.L.pointers.region(key, { size: (sizeVar as { name: string }).name, elem: to });
  return { term: num(o.base), from: objectSource(key) };
}

/**
 * size = the cells of `size` bytes each that fit in `bytes`, as C counts them. The byte
 * count must be linear in the program's values: a size_t product that C wraps
 * (`n * sizeof(int)` converts n, and wraps past 2^32 in ILP32) is refused. With the wrap,
 * a large n allocates a few bytes and the accesses that follow are out of bounds: rely's
 * model of undefined behaviour (it reaches the error location) then reports an error in
 * SV-COMP tasks whose expected verdict ignores the wrap (weaver's `create_fresh_int_array`
 * without a bound on its size: six tasks whose expected verdict the wrap contradicts).
 */
function storeCellCount(b: ThreadBuilder, x: Binding, name: string, bytes: Term, size: bigint, where: string, pos: SourcePos): void {
  if (!linearOf(bytes))
    unsupported(pos, `${name} of a size C computes with a wrap-around or a division (${show(bytes)}): an out-of-bounds access after a wrapped size would be reported as an error (write the count in int arithmetic, calloc(n, sizeof(T)) or malloc(n * 4))`);
  b.assign(x, cdiv(bytes, num(size)), pos, `size of ${where} = ${show(bytes)} / ${size}`);
}

/**
 * `T a[n]` with n known only at run time (a VLA): a region of n cells, allocated where
 * the declaration runs, and `a` a pointer to its first cell. C gives `sizeof a` and
 * `&a` the array's own meaning, which a pointer does not have: both are refused
 * (ThreadBuilder.vlas).
 */
export function variableLengthArray(b: ThreadBuilder, cname: string, of: CType, size: Expr, pos: SourcePos): Binding {
  const count = b.rvalue(size);
  b.once(pos, `a variable-length array ('${cname}')`);
  const where = `${cname}@${pos.line}:${pos.col}`;
  const v = regionAllocation(b, 'a variable-length array', (x) => b.assign(x, count, pos, `size of ${where} = ${show(count)}`), of, where, pos);
  const x = b.declareLocal(cname, { k: 'ptr', to: of }, pos);
  storePointer(b, x, v, pos);
  if (x.k === 'var') b.vlas.add(x.name);
  return x;
}

/** `c ? p : q`: the value through a temporary, from both sides. */
function conditional(b: ThreadBuilder, e: Extract<Expr, { k: 'cond' }>): PtrValue {
  const tmp = b.fresh('cond');
  const from = new Set<string>();
  const arm = (x: Expr) => (): void => {
    const v = pointerValue(b, x);
    v.from.forEach((s) => from.add(s));
    b.assign(tmp, v.term, e.pos, '');
  };
  b.diamond(
    (t, f) => {
      const c = b.rvalue(e.test);
      const start = b.cur;
      for (const [cond, to] of [[lt(c, num(0)), t], [gt(c, num(0)), t], [eq(c, num(0)), f]] as const) {
        b.cur = start;
        b.assume(cond, to, e.pos, false);
      }
    },
    e.pos,
    arm(e.then),
    arm(e.else),
  );
  return { term: b.read(tmp, e.pos), from };
}

/** `&lv`: the address of a variable, of an array cell (`&a[i]`, `&p[i]`), or `&*p`. */
function addressOf(b: ThreadBuilder, lv: Expr): PtrValue {
  switch (lv.k) {
    case 'id': {
      if (isFunctionName(b, lv.name, lv.pos)) return functionValue(b, lv.name, lv.pos);
      const x = b.lookup(lv.name, lv.pos);
      if (x.k === 'var' && b.vlas.has(x.name)) return unsupported(lv.pos, `the address of variable-length array '${lv.name}' (its elements' addresses are modelled: '${lv.name}' or &${lv.name}[i])`);
      if ((x.k === 'var' && (x.type.k === 'int' || x.type.k === 'mutex')) || x.k === 'array') return objectAddress(b, x, lv.pos);
      return unsupported(lv.pos, `the address of '${lv.name}' (only addresses of integer variables and arrays are modelled)`);
    }
    case 'index': {
      const p = pointerValue(b, lv.base);
      const i = b.rvalue(lv.index);
      const stride = cellCount(exprCType(b, lv) ?? INT);
      return offset(b, p, stride === 1 ? i : mul(num(stride), i), lv.pos);
    }
    case 'unary':
      if (lv.op === '*') return pointerValue(b, lv.arg);
      break;
    case 'member': {
      // `&s.f` and `&p->f`: the struct's address plus f's offset in it.
      const s = lv.arrow ? pointee(b, lv.base) : exprCType(b, lv.base);
      if (s?.k !== 'struct') return fail(lv.pos, `member '${lv.name}' of something that is not a struct`);
      const i = s.fields.findIndex((f) => f.name === lv.name);
      if (i < 0) return fail(lv.pos, `${s.name} has no member named '${lv.name}'`);
      const at = s.union ? 0 : s.fields.slice(0, i).reduce((n, f) => n + cellCount(f.type), 0);
      const p = lv.arrow ? pointerValue(b, lv.base) : addressOf(b, lv.base);
      return p.term.kind === 'int' ? { term: num(p.term.value + BigInt(at)), from: p.from } : offset(b, p, num(at), lv.pos);
    }
  }
  return fail(lv.pos, 'cannot take the address of this expression');
}

const hasStruct = (x: Binding): boolean => x.k === 'array' && (x.type.k === 'struct' || x.elems.some(hasStruct));

/** Cells of a value of type t (arrays and structs are flattened). */
function cellCount(t: CType): number {
  if (t.k === 'struct') return structMembers(t).reduce((n, f) => n + cellCount(f.type), 0);
  return t.k === 'array' ? (t.size ?? 0) * cellCount(t.of) : 1;
}

/**
 * The address of a variable or array (or of the cell, or row, x is in): its object,
 * numbered by the analysis. A local whose address is taken becomes a global (lower.ts);
 * one of a thread created in a loop without constant bounds, or of a function kept as
 * a call, cannot: its instances or activations would share it.
 */
function objectAddress(b: ThreadBuilder, x: Binding, pos: SourcePos): PtrValue {
  const first = leaves(x)[0];
  if (first?.k !== 'var') return unsupported(pos, 'the address of this object');
  const inArray = b.L.cellOf(first.name);
  const whole = inArray?.array ?? first;
  const cells = leaves(whole).map((c) => {
    if (c.k !== 'var' || (c.type.k !== 'int' && c.type.k !== 'mutex' && c.type.k !== 'ptr'))
      return unsupported(pos, `the address of ${c.k === 'var' ? `'${b.L.cname(c.name)}' of type ${showType(c.type)}` : 'this object'} (only addresses of integers, mutexes, pointers and structs of them are modelled)`);
    return { name: c.name, type: c.type };
  });
  const local = !b.L.isGlobal(first.name);
  // A thread argument `&x` may be another thread's local (shareWithThread made it a global).
  if (local && b.inst.replicated && b.locals.includes(first.name))
    unsupported(pos, `the address of local '${b.L.cname(first.name)}' of a thread created in a loop without constant bounds (its instances would share it)`);
  if (b.keptLocals.has(first.name)) unsupported(pos, `the address of local '${b.L.cname(first.name)}' of a function kept as a call`);
  const o = b.L.pointers.address(cells, local);
  return { term: num(o.base + BigInt(inArray?.index ?? 0)), from: objectSource(o.key) };
}

/**
 * `p + k`: the address k cells on. C defines it only within p's object (or one past
 * its end); anything else — NULL, an invalid address, leaving the object — reaches
 * the error location, which keeps every pointer inside its object's addresses.
 */
function offset(b: ThreadBuilder, p: PtrValue, k: Term, pos: SourcePos): PtrValue {
  if (k.kind === 'int' && k.value === 0n) return p;
  const at = local(b, p.term, pos);
  const to = add(at, local(b, k, pos));
  const tg = targetsOf(b, p);
  if (tg.int) unsupported(pos, 'arithmetic on a pointer that may hold an integer cast to a pointer');
  if (b.L.pointers.analysed) {
    // One past the end is an address of the object too.
    const objects = tg.objects.map((o): Interval => (o.region ? [o.base, o.base + REGION_SPAN - 1n, add(mkVar(o.region.size), num(1))] : [o.base, o.base + BigInt(o.cells.length)]));
    const within = (j: number): void => caseSplit(b, to, [objects[j]], () => {}, pos, 'pointer arithmetic leaves its object (undefined behaviour)');
    caseSplit(b, at, objects, within, pos, 'pointer arithmetic on a null or invalid pointer (undefined behaviour)');
  }
  return { term: to, from: p.from };
}

/** A term no other thread can change while it is tested twice: a copy, if it reads globals. */
export function local(b: ThreadBuilder, t: Term, pos: SourcePos): Term {
  if (![...varsOf(t)].some((v) => b.L.isGlobal(v))) return t;
  const tmp = b.fresh('ptr');
  b.assign(tmp, t, pos, '');
  return b.read(tmp, pos);
}

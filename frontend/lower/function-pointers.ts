/**
 * Function pointers. A function-pointer variable is a pointer variable (pointers.ts)
 * holding 0 (NULL) or the number of a function whose address the program takes
 * (../points-to.ts); the flow-insensitive points-to analysis says which functions
 * may reach it. A call through it, and a thread it starts, are a case split over
 * those functions' numbers, each case doing what naming the function directly does;
 * NULL and any other value (undefined behaviour) reach the error location. A call
 * through a pointer whose type is not the function's (undefined behaviour where C
 * allows the cast at all) is refused where the analysis sees it.
 */
import type { Expr } from '../ast.js';
import type { SourcePos } from '../../program/diagnostics.js';
import { unsupported } from '../../program/diagnostics.js';
import type { Term } from '../../solver/formula.js';
import { showType, type CType, type TypeEnv } from '../types.js';
import type { ThreadBuilder } from './builder.js';
import { calleeOf } from './ast-queries.js';
import { caseSplit } from './case-split.js';
import { declaredType } from './declared-types.js';
import { functionType } from './functions.js';
import { local, pointee, pointerValue } from './pointers.js';

type FuncType = Extract<CType, { k: 'func' }>;

/**
 * Runs `body` for each function a function-pointer expression may hold, in a case
 * split on its value; the rest (NULL, anything else) goes to the error with `what`
 * in the trace. The functions must have the type the expression, casts included,
 * calls them by.
 */
export function dispatch(b: ThreadBuilder, e: Expr, pos: SourcePos, what: string, body: (fn: string) => void): void {
  const type = pointee(b, e);
  if (type?.k !== 'func') return unsupported(pos, `${what} through something that is not a function pointer`);
  const v = pointerValue(b, calleeOf(e));
  const tg = b.L.pointers.targets(v.from);
  if (tg.int || tg.objects.length) unsupported(pos, `${what} through a function pointer that may hold ${tg.int ? 'an integer cast to a pointer' : 'the address of an object'}`);
  for (const f of tg.functions) {
    const t = functionType(b, f.name, pos);
    if (!sameType(b.L.typeEnv, t, type))
      unsupported(pos, `${what} through a pointer to ${showFunc(b.L.typeEnv, type)} that may point to '${f.name}', a ${showFunc(b.L.typeEnv, t)} (incompatible types)`);
  }
  caseSplit(b, local(b, v.term, pos), tg.functions.map((f) => [f.address, f.address] as const), (k) => body(tg.functions[k].name), pos, `${what} through a null or invalid function pointer (undefined behaviour)`);
}

/** A call `f(args)` through function pointer f: each case inlines (or keeps) its function as a direct call would. */
export function callThroughPointer(b: ThreadBuilder, e: Extract<Expr, { k: 'call' }>, wantValue: boolean, direct: (name: string) => Term | undefined): Term | undefined {
  const type = pointee(b, e.callee);
  const ret = type?.k === 'func' ? type.ret : undefined;
  if (wantValue && ret && ret.k !== 'int')
    unsupported(e.pos, `the ${showType(ret)} result of a call through a function pointer (only integer results are modelled)`);
  const result = wantValue && ret?.k === 'int' ? b.fresh('fcall', ret) : undefined;
  dispatch(b, e.callee, e.pos, 'call', (fn) => {
    const r = direct(fn);
    if (result && r) b.assign(result, r, e.pos);
  });
  return result && b.read(result, e.pos);
}

/** C's compatible types, as far as rely models them (qualifiers change nothing it models). */
function sameType(env: TypeEnv, a: CType, c: CType): boolean {
  switch (a.k) {
    case 'int':
      return c.k === 'int' && a.bits === c.bits && a.unsigned === c.unsigned && a.bool === c.bool;
    case 'ptr':
      return c.k === 'ptr' && sameType(env, a.to, c.to);
    case 'array':
      return c.k === 'array' && a.size === c.size && sameType(env, a.of, c.of);
    case 'struct':
      return c.k === 'struct' && a.def === c.def;
    case 'other':
      return c.k === 'other' && a.what === c.what;
    case 'func': {
      if (c.k !== 'func' || a.variadic !== c.variadic || !sameType(env, a.ret, c.ret)) return false;
      // `f()` without a prototype matches a prototype whose parameters default argument promotions leave alone (C11 6.7.6.3p15).
      const fixed = a.params === null ? c : c.params === null ? a : undefined;
      if (fixed) return !fixed.variadic && paramTypes(env, fixed).every((t) => t.k === 'ptr' || (t.k === 'int' && t.bits >= 32 && !t.bool));
      const [pa, pc] = [paramTypes(env, a), paramTypes(env, c)];
      return pa.length === pc.length && pa.every((t, i) => sameType(env, t, pc[i]));
    }
    default:
      return a.k === c.k;
  }
}

/** Parameter types as C adjusts them: an array or function parameter is a pointer. */
function paramTypes(env: TypeEnv, f: FuncType): CType[] {
  return (f.params ?? []).map((p) => {
    const t = declaredType(env, p.spec, p.decl);
    return t.k === 'array' ? { k: 'ptr', to: t.of } : t.k === 'func' ? { k: 'ptr', to: t } : t;
  });
}

function showFunc(env: TypeEnv, f: FuncType): string {
  const ps = f.params === null ? '' : paramTypes(env, f).map(showType).join(', ') || 'void';
  return `function (${ps}${f.variadic ? ', ...' : ''}) returning ${showType(f.ret)}`;
}

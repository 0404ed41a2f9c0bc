/**
 * Names of functions used as values: a function designator (`inc`, `&inc`) is a
 * function's number in the address space of ../points-to.ts, which a function-pointer
 * variable holds (function-pointers.ts). A name denotes a function only where no
 * variable of that name is in scope.
 */
import { unsupported, type SourcePos } from '../../program/diagnostics.js';
import { functionSource, type Sources } from '../points-to.js';
import { num, type Term } from '../../solver/formula.js';
import type { CType } from '../types.js';
import type { ThreadBuilder } from './builder.js';
import { declaredType } from './declared-types.js';

/** Whether `name` denotes a variable (local or global) here. */
export function namesVariable(b: ThreadBuilder, name: string, pos: SourcePos): boolean {
  return b.scopes.some((s) => s.has(name)) || b.L.threadLocal(name, b.inst, pos) !== undefined || b.L.global(name, pos) !== undefined;
}

/** Whether `name` denotes a function here. */
export function isFunctionName(b: ThreadBuilder, name: string, pos: SourcePos): boolean {
  return (b.L.hasBody(name) || b.L.isDeclaredFunction(name)) && !namesVariable(b, name, pos);
}

/** The type of a function the program defines; a function without a body has no address rely models. */
export function functionType(b: ThreadBuilder, name: string, pos: SourcePos): Extract<CType, { k: 'func' }> {
  const def = b.L.functionDef(name) ?? unsupported(pos, `the address of function '${name}', which has no body`);
  return declaredType(b.L.typeEnv, def.spec, def.decl) as Extract<CType, { k: 'func' }>;
}

/** A function designator's value as a pointer: its number, from its own source. */
export function functionValue(b: ThreadBuilder, name: string, pos: SourcePos): { term: Term; from: Sources } {
  functionType(b, name, pos);
  return { term: num(b.L.pointers.functionAddress(name)), from: functionSource(name) };
}

/**
 * The C type a declaration denotes inside a function body — a local, a cast, a
 * parameter, a return type — resolved under the file's typedefs. Separate from
 * ../types.ts, which resolves one specifier/declarator pair, because these readers
 * know where the pair sits in a declaration or a function definition.
 */
import type { Declarator, Expr, FunctionDef, Specifiers } from '../ast.js';
import type { SourcePos } from '../../program/diagnostics.js';
import { applyDeclarator, baseType, type CType, type TypeEnv } from '../types.js';

export interface ParamInfo {
  name?: string;
  type: CType;
  pos: SourcePos;
}

export function declaredType(env: TypeEnv, spec: Specifiers, decl: Declarator): CType {
  return applyDeclarator(baseType(spec, env), decl, env);
}

export function paramsOf(env: TypeEnv, fn: FunctionDef): ParamInfo[] {
  const f = fn.decl.derived[0];
  if (f?.k !== 'func') return [];
  return (f.params ?? []).map((p) => ({ name: p.decl.name, type: declaredType(env, p.spec, p.decl), pos: p.decl.pos }));
}

/** The declarator minus its outermost derivation (the function itself) gives the return type. */
export function returnTypeOf(env: TypeEnv, fn: FunctionDef): CType {
  return declaredType(env, fn.spec, { ...fn.decl, derived: fn.decl.derived.slice(1) });
}

export function castType(env: TypeEnv, e: Extract<Expr, { k: 'cast' }>): CType {
  return declaredType(env, e.type.spec, e.type.decl);
}

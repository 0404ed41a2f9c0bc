/** C types as far as rely models them, resolved from specifiers and declarators. */
import type { Declarator, Specifiers } from './ast.js';

export type CType =
  | { k: 'int'; unsigned: boolean; bool: boolean; lo?: bigint; hi?: bigint }
  | { k: 'void' }
  | { k: 'mutex' }
  | { k: 'thread' }
  | { k: 'ptr'; to: CType }
  | { k: 'array'; of: CType; size?: number }
  | { k: 'func'; ret: CType }
  | { k: 'other'; what: string };

export const INT: CType = { k: 'int', unsigned: false, bool: false };

/** Typedef names with a meaning of their own, whatever a header defines them as. */
const SPECIAL: Record<string, CType> = {
  pthread_t: { k: 'thread' },
  pthread_mutex_t: { k: 'mutex' },
  pthread_cond_t: { k: 'other', what: 'pthread_cond_t (condition variables)' },
  pthread_attr_t: { k: 'other', what: 'pthread_attr_t' },
  pthread_mutexattr_t: { k: 'other', what: 'pthread_mutexattr_t' },
  FILE: { k: 'other', what: 'FILE' },
};

export interface TypeEnv {
  typedef(name: string): { spec: Specifiers; decl: Declarator } | undefined;
  /** Evaluates an array size expression to a constant, or undefined. */
  constant(e: import('./ast.js').Expr): bigint | undefined;
}

/** The base type named by declaration specifiers. */
export function baseType(spec: Specifiers, env: TypeEnv, depth = 0): CType {
  if (spec.typedefName) {
    const special = SPECIAL[spec.typedefName];
    if (special) return special;
    const td = env.typedef(spec.typedefName);
    if (td && depth < 64) return applyDeclarator(baseType(td.spec, env, depth + 1), td.decl, env);
    if (/^u?int(8|16|32|64|ptr)_t$|^s?size_t$|^ptrdiff_t$/.test(spec.typedefName))
      return { k: 'int', unsigned: /^u|^size_t$/.test(spec.typedefName), bool: false };
    return { k: 'other', what: spec.typedefName };
  }
  if (spec.tag) {
    if (spec.tag.kind === 'enum') return INT;
    return { k: 'other', what: `${spec.tag.kind} ${spec.tag.name ?? '(anonymous)'}` };
  }
  const w = spec.words;
  if (w.includes('void')) return { k: 'void' };
  if (w.includes('float') || w.includes('double')) return { k: 'other', what: 'floating-point types' };
  if (w.includes('__typeof__')) return { k: 'other', what: '__typeof__' };
  if (w.includes('_Bool')) return { k: 'int', unsigned: true, bool: true, lo: 0n, hi: 1n };
  const unsigned = w.includes('unsigned');
  if (w.includes('char')) return { k: 'int', unsigned, bool: false, lo: unsigned ? 0n : -128n, hi: unsigned ? 255n : 127n };
  if (w.includes('short')) return { k: 'int', unsigned, bool: false, lo: unsigned ? 0n : -32768n, hi: unsigned ? 65535n : 32767n };
  return { k: 'int', unsigned, bool: false };
}

/** Applies the declarator's pointer/array/function derivations to a base type. */
export function applyDeclarator(base: CType, decl: Declarator, env: TypeEnv): CType {
  let t = base;
  for (let i = decl.derived.length - 1; i >= 0; i--) {
    const d = decl.derived[i];
    if (d.k === 'ptr') t = { k: 'ptr', to: t };
    else if (d.k === 'func') t = { k: 'func', ret: t };
    else {
      const n = d.size ? env.constant(d.size) : undefined;
      t = { k: 'array', of: t, size: n === undefined ? undefined : Number(n) };
    }
  }
  return t;
}


export function showType(t: CType): string {
  switch (t.k) {
    case 'int':
      return t.bool ? '_Bool' : t.unsigned ? 'unsigned int' : 'int';
    case 'ptr':
      return `${showType(t.to)} *`;
    case 'array':
      return `${showType(t.of)}[${t.size ?? ''}]`;
    case 'func':
      return `function returning ${showType(t.ret)}`;
    case 'other':
      return t.what;
    case 'mutex':
      return 'pthread_mutex_t';
    case 'thread':
      return 'pthread_t';
    case 'void':
      return 'void';
  }
}

/**
 * The terms of the formula IR (formula.ts): Int, Bool and arrays from Int to Int,
 * hash-consed in one table per thread, so that structurally equal terms are the same
 * object (cheap equality, sharing, caching). The leaves and applications are built
 * here without normalising; formula.ts's builders normalise.
 */

export type Sort = 'int' | 'bool' | 'array';

/** Whether a variable of this name is an array: its sort is part of its name (formula.ts's file comment). */
export const isArrayName = (name: string): boolean => name.includes('[]');

export type Op =
  | '+'
  | '*'
  | 'cdiv'
  | 'crem'
  | 'ite'
  | '='
  | '<='
  | '<'
  | 'and'
  | 'or'
  | 'not'
  | 'select'
  | 'store'
  | 'const';

interface TermBase {
  readonly id: number;
  readonly sort: Sort;
}
export interface VarTerm extends TermBase {
  readonly kind: 'var';
  readonly name: string;
}
export interface IntTerm extends TermBase {
  readonly kind: 'int';
  readonly value: bigint;
}
export interface BoolTerm extends TermBase {
  readonly kind: 'bool';
  readonly value: boolean;
}
export interface AppTerm extends TermBase {
  readonly kind: 'app';
  readonly op: Op;
  readonly args: readonly Term[];
}
export type Term = VarTerm | IntTerm | BoolTerm | AppTerm;

const table = new Map<string, Term>();
let nextId = 0;

function intern<T extends Term>(key: string, make: (id: number) => T): T {
  const hit = table.get(key);
  if (hit) return hit as T;
  const t = make(nextId++);
  table.set(key, t);
  return t;
}

export function mkVar(name: string, sort: Sort = isArrayName(name) ? 'array' : 'int'): VarTerm {
  return intern(`v:${sort}:${name}`, (id) => ({ id, kind: 'var', sort, name }));
}
export function num(value: bigint | number): IntTerm {
  const v = BigInt(value);
  return intern(`i:${v}`, (id) => ({ id, kind: 'int', sort: 'int', value: v }));
}
export const TRUE: BoolTerm = intern('b:1', (id) => ({ id, kind: 'bool', sort: 'bool', value: true }));
export const FALSE: BoolTerm = intern('b:0', (id) => ({ id, kind: 'bool', sort: 'bool', value: false }));

/** The application as given (formula.ts's builders normalise before they call it). */
export function app(op: Op, args: readonly Term[], sort: Sort): AppTerm {
  return intern(`a:${op}:${args.map((a) => a.id).join(',')}`, (id) => ({ id, kind: 'app', sort, op, args }));
}

/**
 * The same term made of this thread's terms. A term that crossed a worker boundary
 * (structured clone) is a copy whose ids belong to the other thread's table; rebuilt
 * bottom-up, equal terms are the same object again and ids are this table's.
 * `seen` keeps the sharing of the copy (structured clone preserves it).
 */
export function reintern(t: Term, seen: Map<Term, Term> = new Map()): Term {
  const hit = seen.get(t);
  if (hit) return hit;
  const own: Term =
    t.kind === 'var' ? mkVar(t.name, t.sort) : t.kind === 'int' ? num(t.value) : t.kind === 'bool' ? (t.value ? TRUE : FALSE) : app(t.op, t.args.map((a) => reintern(a, seen)), t.sort);
  seen.set(t, own);
  return own;
}

/**
 * C block scope of a function's parameters and locals, from the parse tree: which names
 * a C expression written at a position of the function may use. A witness names a
 * place by a statement's position, so a local declared after it, or in a block that has
 * ended, is not in scope there (C11 6.2.1): a validator reading the expression at that
 * place would find no such variable.
 *
 * The tree keeps where statements start, not where blocks end; a block's scope is taken
 * to end where the next statement after it starts (or its enclosing block's scope ends),
 * which is the same for the positions witnesses use: statements' starts, and points
 * inside statements.
 */
import { comparePos, type SourcePos } from '../program/diagnostics.js';
import type { FunctionDef, Stmt, TopLevel } from './ast.js';

/** A name in scope at P when `from` < P and, if `until` is set, P < `until`. */
interface Scoped {
  readonly name: string;
  readonly from: SourcePos;
  readonly until?: SourcePos;
}

/** The scoped parameters and locals of every function defined in the file, by name. */
export function functionScopes(items: readonly { readonly item: TopLevel }[]): Map<string, readonly Scoped[]> {
  const scopes = new Map<string, readonly Scoped[]>();
  for (const { item } of items) if (item.k === 'func' && item.def.decl.name) scopes.set(item.def.decl.name, scopedNames(item.def));
  return scopes;
}

/** The C names of `scoped` in scope at `pos`. */
export function namesInScope(scoped: readonly Scoped[], pos: SourcePos): Set<string> {
  return new Set(scoped.filter((s) => comparePos(s.from, pos) < 0 && (s.until === undefined || comparePos(pos, s.until) < 0)).map((s) => s.name));
}

function scopedNames(def: FunctionDef): Scoped[] {
  const out: Scoped[] = [];
  const fn = def.decl.derived.find((d) => d.k === 'func');
  // Parameters: in scope in the whole body.
  if (fn?.k === 'func') for (const p of fn.params ?? []) if (p.decl.name) out.push({ name: p.decl.name, from: p.decl.pos });
  statement(def.body, undefined, undefined, out);
  return out;
}

/** The statements of a block whose scope ends at `end`. */
function block(body: readonly Stmt[], end: SourcePos | undefined, out: Scoped[]): void {
  body.forEach((s, i) => statement(s, end, body[i + 1]?.pos ?? end, out));
}

/** Statement `s`: its own declarations are in scope until `end` (its block's end); what is nested in it ends at `next`, where what follows it starts. */
function statement(s: Stmt, end: SourcePos | undefined, next: SourcePos | undefined, out: Scoped[]): void {
  const nested = (c: Stmt, until: SourcePos | undefined): void => statement(c, until, until, out);
  switch (s.k) {
    case 'decl':
      for (const { decl } of s.decl.items) if (decl.name) out.push({ name: decl.name, from: decl.pos, until: end });
      return;
    case 'block':
      return block(s.body, next, out);
    case 'if':
      nested(s.then, s.else?.pos ?? next);
      if (s.else) nested(s.else, next);
      return;
    case 'do':
      return nested(s.body, s.cond.pos);
    case 'for':
      // C99: a declaration in the for's first clause is in scope in the whole for statement.
      if (s.init) nested(s.init, next);
      return nested(s.body, next);
    case 'while':
    case 'switch':
    case 'label':
    case 'case':
    case 'default':
      return nested(s.body, next);
    default:
      return;
  }
}

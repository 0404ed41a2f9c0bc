/**
 * The ohm semantics of the C grammar: parse tree → AST (./ast.ts), and the match of a
 * grammar rule over a token range of the preprocessed text.
 *
 * Positions are passed explicitly: the operation `ast(at)` takes where the matched text
 * starts in the preprocessed text, so a node at offset k of the match is at
 * `positionAt(at.pp, at.base + k)`.
 */
import type * as ohm from 'ohm-js';
import type { Attribute, Declaration, Declarator, Derived, Expr, Field, FunctionDef, InitDeclarator, Param, Specifiers, Stmt, TypeName } from '../ast.js';
import type { SourcePos } from '../../program/diagnostics.js';
import { cGrammar } from '../grammar.js';
import { charValue, parseIntLiteral, positionAt, type Preprocessed } from '../preprocess.js';

/** Where a matched text starts: offset `base` of the preprocessed text `pp`. */
export interface At {
  readonly pp: Preprocessed;
  readonly base: number;
}

// ohm-js passes an operation's arguments as `this.args` (documented, but missing from its type declarations).
const atOf = (n: ohm.Node): At => (n as unknown as { args: { at: At } }).args.at;
const posOf = (at: At, n: ohm.Node): SourcePos => positionAt(at.pp, at.base + n.source.startIdx);

let semantics: ohm.Semantics | undefined;

/** The AST of a successful match of `text`, which starts at `at` (see above). */
export function astOf(m: ohm.MatchResult, at: At): unknown {
  semantics ??= cGrammar().createSemantics().addOperation('ast(at)', ACTIONS);
  return (semantics(m) as unknown as { ast(at: At): unknown }).ast(at);
}

type SpecPart = Partial<Specifiers>;

function mergeSpecs(parts: SpecPart[], pos: SourcePos): Specifiers {
  const spec: Specifiers = { storage: [], words: [], qualifiers: [], attributes: [], pos };
  for (const p of parts) {
    if (p.storage) spec.storage.push(...p.storage);
    if (p.words) spec.words.push(...p.words);
    if (p.qualifiers) spec.qualifiers.push(...p.qualifiers);
    if (p.attributes) spec.attributes.push(...p.attributes);
    if (p.typedefName) spec.typedefName = p.typedefName;
    if (p.tag) spec.tag = p.tag;
    if (p.enumerators) spec.enumerators = p.enumerators;
    if (p.fields) spec.fields = p.fields;
  }
  return spec;
}

const opt = <T>(at: At, n: ohm.Node): T | undefined => (n.numChildren ? (n.child(0).ast(at) as T) : undefined);
const list = <T>(at: At, n: ohm.Node): T[] => n.asIteration().children.map((c) => c.ast(at) as T);
/** C's binary operators by precedence (higher binds tighter); all are left-associative. */
const PRECEDENCE: Record<string, number> = {
  '||': 1, '&&': 2, '|': 3, '^': 4, '&': 5, '==': 6, '!=': 6, '<': 7, '>': 7, '<=': 7, '>=': 7,
  '<<': 8, '>>': 8, '+': 9, '-': 9, '*': 10, '/': 10, '%': 10,
};

/**
 * `a op b op c …` grouped by precedence (`a - b * c - d` is `(a - (b * c)) - d`): the
 * operands on a stack, each operator reduced once one of no lower precedence follows.
 * A loop, not recursion: a chain of n operands is one level of the parse tree.
 */
function binary(this: ohm.Node, first: ohm.Node, ops: ohm.Node, rests: ohm.Node): Expr {
  const at = atOf(this);
  const operands: Expr[] = [first.ast(at) as Expr];
  const pending: { op: string; pos: SourcePos }[] = [];
  const reduce = (): void => {
    const { op, pos } = pending.pop()!;
    const right = operands.pop()!;
    operands.push({ k: 'binary', op, left: operands.pop()!, right, pos });
  };
  for (let i = 0; i < ops.numChildren; i++) {
    const op = ops.child(i).sourceString;
    while (pending.length && PRECEDENCE[pending[pending.length - 1].op] >= PRECEDENCE[op]) reduce();
    pending.push({ op, pos: posOf(at, ops.child(i)) });
    operands.push(rests.child(i).ast(at) as Expr);
  }
  while (pending.length) reduce();
  return operands[0];
}

/** The text a node matched as written (the matched text has typedef names marked). */
function written(at: At, n: ohm.Node): string {
  const { pp, base } = at;
  return pp.text.slice(base + n.source.startIdx, base + n.source.endIdx);
}

/** The attributes among spec-like nodes (qualifiers, attributes), in order. */
const attributesIn = (at: At, nodes: ohm.Node): Attribute[] => nodes.children.flatMap((c) => (c.ast(at) as SpecPart).attributes ?? []);

/** A declarator with more attributes; the field is left out while there are none. */
function withAttributes(d: Declarator, more: Attribute[]): Declarator {
  const all = [...(d.attributes ?? []), ...more];
  return all.length ? { ...d, attributes: all } : d;
}

/**
 * The attributes of `__attribute__((a, b(1)))`: `body` is the text between the outer
 * parentheses, `(a, b(1))`. Names lose their `__` wrapping (`__mode__` is `mode`).
 */
function gnuAttributes(body: string, pos: SourcePos): Attribute[] {
  const inner = body.trim().replace(/^\(([\s\S]*)\)$/, '$1');
  const items: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i <= inner.length; i++) {
    const c = inner[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (i === inner.length || (c === ',' && depth === 0)) {
      items.push(inner.slice(from, i).trim());
      from = i + 1;
    }
  }
  return items.flatMap((item) => {
    const name = /^[A-Za-z_$][\w$]*/.exec(item)?.[0];
    if (!name) return [];
    const rest = item.slice(name.length).trim();
    const args = rest.startsWith('(') && rest.endsWith(')') ? rest.slice(1, -1).trim() : undefined;
    return [{ name: name.replace(/^__(.+)__$/, '$1'), ...(args === undefined ? {} : { args }), pos }];
  });
}

/** Applies the derivations of a declarator written inside parentheses. */
function nest(inner: Declarator, suffixes: Derived[], pointers: Attribute[][]): Declarator {
  const ptrs: Derived[] = pointers.map(() => ({ k: 'ptr' }));
  const d: Declarator = { name: inner.name, pos: inner.pos, derived: [...inner.derived, ...suffixes, ...ptrs] };
  return withAttributes(d, [...(inner.attributes ?? []), ...pointers.flat()]);
}

const pointersOf = (at: At, ptrs: ohm.Node): Attribute[][] => ptrs.children.map((p) => p.ast(at) as Attribute[]);

const ACTIONS: ohm.ActionDict<unknown> = {
  FunctionHead(spec, decl): Omit<FunctionDef, 'body'> {
    return { spec: spec.ast(atOf(this)), decl: decl.ast(atOf(this)), pos: posOf(atOf(this), decl) };
  },
  Declaration_static_assert(_a, _b, _c, _d, _e): Declaration {
    return { spec: { storage: ['static_assert'], words: [], qualifiers: [], attributes: [], pos: posOf(atOf(this), this) }, items: [], pos: posOf(atOf(this), this) };
  },
  Declaration_decl(spec, items, _semi): Declaration {
    return { spec: spec.ast(atOf(this)), items: list<InitDeclarator>(atOf(this), items), pos: posOf(atOf(this), this) };
  },
  DeclSpecs(parts): Specifiers {
    return mergeSpecs(parts.children.map((c) => c.ast(atOf(this)) as SpecPart), posOf(atOf(this), this));
  },
  StorageClass(k): SpecPart {
    return { storage: [k.sourceString] };
  },
  AtomicSpec(_k, _o, type, _c): SpecPart {
    const t = type.ast(atOf(this)) as TypeName;
    // `_Atomic(int *)`: a derived type cannot be written as specifiers; the lowering refuses the word where it is used.
    if (t.decl.derived.length) return { words: ['_Atomic(type with a declarator)'] };
    const { storage: _s, pos: _p, ...spec } = t.spec;
    return { ...spec, qualifiers: [...spec.qualifiers, '_Atomic'] };
  },
  TypeQualifier(k): SpecPart {
    return { qualifiers: [k.sourceString] };
  },
  FunctionSpec(_k): SpecPart {
    return {};
  },
  Attribute_attr(_k, _o, body, _c): SpecPart {
    return { attributes: gnuAttributes(written(atOf(this), body), posOf(atOf(this), this)) };
  },
  Attribute_asm(_k, _o, body, _c): SpecPart {
    return { attributes: [{ name: 'asm', args: written(atOf(this), body).trim(), pos: posOf(atOf(this), this) }] };
  },
  Attribute_declspec(_k, _o, body, _c): SpecPart {
    return { attributes: [{ name: '__declspec', args: written(atOf(this), body).trim(), pos: posOf(atOf(this), this) }] };
  },
  Attribute_alignas(_k, _o, body, _c): SpecPart {
    return { attributes: [{ name: '_Alignas', args: written(atOf(this), body).trim(), pos: posOf(atOf(this), this) }] };
  },
  TypeSpec(k): SpecPart {
    if (k.ctorName === 'StructSpec' || k.ctorName === 'EnumSpec' || k.ctorName === 'TypedefName' || k.ctorName === 'TypeofSpec')
      return k.ast(atOf(this)) as SpecPart;
    return { words: [k.sourceString] };
  },
  TypeofSpec(_k, _o, _b, _c): SpecPart {
    return { words: ['__typeof__'] };
  },
  TypedefName(n): SpecPart {
    // The name as written, not as matched (its first character is the mark).
    return { typedefName: written(atOf(this), n) };
  },
  Tag(n): string {
    return written(atOf(this), n);
  },
  StructSpec_def(kind, attrs, name, _o, fields, _c): SpecPart {
    const members = fields.children.flatMap((f) => f.ast(atOf(this)) as Field[]);
    return { tag: { kind: kind.sourceString as 'struct', name: opt<string>(atOf(this), name), hasBody: true }, fields: members, attributes: attributesIn(atOf(this), attrs) };
  },
  StructDecl_fields(quals, items, _semi): Field[] {
    const spec = mergeSpecs(quals.children.map((c) => c.ast(atOf(this)) as SpecPart), posOf(atOf(this), this));
    return list<Omit<Field, 'spec'>>(atOf(this), items).map((d) => ({ spec, ...d }));
  },
  StructDecl_static_assert(_k, _o, _b, _c, _semi): Field[] {
    return [];
  },
  StructDecl_empty(_semi): Field[] {
    return [];
  },
  StructDeclarator_bits(decl, _colon, _width): Omit<Field, 'spec'> {
    return { decl: opt<Declarator>(atOf(this), decl) ?? { pos: posOf(atOf(this), this), derived: [] }, bitField: true };
  },
  StructDeclarator(d): Omit<Field, 'spec'> {
    return d.ctorName === 'StructDeclarator_bits' ? (d.ast(atOf(this)) as Omit<Field, 'spec'>) : { decl: d.ast(atOf(this)) as Declarator };
  },
  StructSpec_ref(kind, attrs, name): SpecPart {
    return { tag: { kind: kind.sourceString as 'struct', name: name.ast(atOf(this)) as string, hasBody: false }, attributes: attributesIn(atOf(this), attrs) };
  },
  EnumSpec_def(_k, attrs, name, _o, items, _comma, _c): SpecPart {
    return {
      tag: { kind: 'enum', name: opt<string>(atOf(this), name), hasBody: true },
      enumerators: list(atOf(this), items),
      attributes: attributesIn(atOf(this), attrs),
    };
  },
  EnumSpec_ref(_k, attrs, name): SpecPart {
    return { tag: { kind: 'enum', name: name.ast(atOf(this)) as string, hasBody: false }, attributes: attributesIn(atOf(this), attrs) };
  },
  Enumerator(name, _attrs, _eq, value) {
    return { name: name.sourceString, value: opt<Expr>(atOf(this), value), pos: posOf(atOf(this), name) };
  },
  SpecQual(k): SpecPart {
    return k.ast(atOf(this)) as SpecPart;
  },
  Declarator(ptrs, direct, attrs): Declarator {
    const d = direct.ast(atOf(this)) as Declarator;
    return withAttributes(nest(d, [], pointersOf(atOf(this), ptrs)), attributesIn(atOf(this), attrs));
  },
  DirectDeclarator(base, suffixes): Declarator {
    const b = base.ast(atOf(this)) as Declarator;
    return { ...b, derived: [...b.derived, ...suffixes.children.map((s) => s.ast(atOf(this)) as Derived)] };
  },
  DirectBase_name(id): Declarator {
    return { name: id.sourceString, pos: posOf(atOf(this), id), derived: [] };
  },
  DirectBase_paren(_o, attrs, inner, _c): Declarator {
    // `(*f)(int)`: the suffixes that follow apply after the inner derivations.
    return withAttributes(inner.ast(atOf(this)) as Declarator, attributesIn(atOf(this), attrs));
  },
  DeclSuffix_array(_o, _q, size, _c): Derived {
    return { k: 'array', size: opt<Expr>(atOf(this), size) };
  },
  DeclSuffix_params(_o, params, _c): Derived {
    return params.ast(atOf(this)) as Derived;
  },
  DeclSuffix_noparams(_o, _c): Derived {
    return { k: 'func', params: null, variadic: false };
  },
  ParamList(params, _comma, dots): Derived {
    const ps = list<Param>(atOf(this), params);
    // `(void)` declares no parameters.
    const isVoid = ps.length === 1 && ps[0].spec.words.join(' ') === 'void' && !ps[0].decl.name && ps[0].decl.derived.length === 0;
    return { k: 'func', params: isVoid ? [] : ps, variadic: dots.numChildren > 0 };
  },
  ParamDecl_named(spec, decl): Param {
    return { spec: spec.ast(atOf(this)), decl: decl.ast(atOf(this)) };
  },
  ParamDecl_abstract(spec, decl): Param {
    return { spec: spec.ast(atOf(this)), decl: opt<Declarator>(atOf(this), decl) ?? { pos: posOf(atOf(this), this), derived: [] } };
  },
  AbstractDeclarator_ptr(ptrs, direct): Declarator {
    const d = opt<Declarator>(atOf(this), direct) ?? { pos: posOf(atOf(this), this), derived: [] };
    return nest(d, [], pointersOf(atOf(this), ptrs));
  },
  DirectAbstract_paren(_o, attrs, inner, _c, suffixes): Declarator {
    return withAttributes(nest(inner.ast(atOf(this)) as Declarator, suffixes.children.map((s) => s.ast(atOf(this)) as Derived), []), attributesIn(atOf(this), attrs));
  },
  DirectAbstract_suffixes(suffixes): Declarator {
    return { pos: posOf(atOf(this), this), derived: suffixes.children.map((s) => s.ast(atOf(this)) as Derived) };
  },
  Pointer(_star, quals): Attribute[] {
    // A pointer's own `_Atomic` is kept as an attribute of the declarator, where the lowering refuses it.
    const atomic = quals.children.some((q) => ((q.ast(atOf(this)) as SpecPart).qualifiers ?? []).includes('_Atomic'));
    return [...attributesIn(atOf(this), quals), ...(atomic ? [{ name: '_Atomic', pos: posOf(atOf(this), this) }] : [])];
  },
  InitDeclarator(decl, attrs, _eq, init): InitDeclarator {
    return { decl: withAttributes(decl.ast(atOf(this)) as Declarator, attributesIn(atOf(this), attrs)), init: opt<Expr>(atOf(this), init) };
  },
  Initializer_braces(_o, items, _comma, _c): Expr {
    return { k: 'init', items: list<Expr>(atOf(this), items), pos: posOf(atOf(this), this) };
  },
  InitItem_designated(_d, _eq, _init): Expr {
    // Designators are not kept: read positionally, `{ .b = 1 }` would set the first member. Refused where used.
    return { k: 'other', what: 'designated initializers (.member = / [index] =)', pos: posOf(atOf(this), this) };
  },
  TypeName(quals, decl): TypeName {
    return {
      spec: mergeSpecs(quals.children.map((c) => c.ast(atOf(this)) as SpecPart), posOf(atOf(this), this)),
      decl: opt<Declarator>(atOf(this), decl) ?? { pos: posOf(atOf(this), this), derived: [] },
    };
  },

  // ---- statements
  LabeledStmt_case(_k, value, _c, body): Stmt {
    return { k: 'case', value: value.ast(atOf(this)), body: body.ast(atOf(this)), pos: posOf(atOf(this), this) };
  },
  LabeledStmt_default(_k, _c, body): Stmt {
    return { k: 'default', body: body.ast(atOf(this)), pos: posOf(atOf(this), this) };
  },
  LabeledStmt_label(name, _c, _attrs, target): Stmt {
    return { k: 'label', name: name.sourceString, body: target.ast(atOf(this)), pos: posOf(atOf(this), this) };
  },
  LabelTarget_end(_x): Stmt {
    return { k: 'empty', pos: posOf(atOf(this), this) };
  },
  CompoundStmt(_o, items, _c): Stmt {
    return { k: 'block', body: items.children.map((c) => c.ast(atOf(this)) as Stmt), pos: posOf(atOf(this), this) };
  },
  BlockItem(x): Stmt {
    if (x.ctorName === 'Declaration') return { k: 'decl', decl: x.ast(atOf(this)), pos: posOf(atOf(this), this) };
    return x.ast(atOf(this)) as Stmt;
  },
  IfStmt(_k, _o, cond, _c, then, _else, other): Stmt {
    return { k: 'if', cond: exprOf(atOf(this), cond), then: then.ast(atOf(this)), else: opt<Stmt>(atOf(this), other), pos: posOf(atOf(this), this) };
  },
  SwitchStmt(_k, _o, e, _c, body): Stmt {
    return { k: 'switch', e: exprOf(atOf(this), e), body: body.ast(atOf(this)), pos: posOf(atOf(this), this) };
  },
  WhileStmt(_k, _o, cond, _c, body): Stmt {
    return { k: 'while', cond: exprOf(atOf(this), cond), body: body.ast(atOf(this)), pos: posOf(atOf(this), this) };
  },
  DoStmt(_k, body, _w, _o, cond, _c, _s): Stmt {
    return { k: 'do', body: body.ast(atOf(this)), cond: exprOf(atOf(this), cond), pos: posOf(atOf(this), this) };
  },
  ForStmt(_k, _o, init, cond, _s, step, _c, body): Stmt {
    return {
      k: 'for',
      init: init.ast(atOf(this)) as Stmt | undefined,
      cond: cond.numChildren ? exprOf(atOf(this), cond.child(0)) : undefined,
      step: step.numChildren ? exprOf(atOf(this), step.child(0)) : undefined,
      body: body.ast(atOf(this)),
      pos: posOf(atOf(this), this),
    };
  },
  ForInit_decl(d): Stmt {
    return { k: 'decl', decl: d.ast(atOf(this)), pos: posOf(atOf(this), this) };
  },
  ForInit_expr(e, _s): Stmt | undefined {
    return e.numChildren ? { k: 'expr', e: exprOf(atOf(this), e.child(0)), pos: posOf(atOf(this), this) } : undefined;
  },
  GotoStmt(_k, label, _s): Stmt {
    return { k: 'goto', label: label.sourceString, pos: posOf(atOf(this), label) };
  },
  ContinueStmt(_k, _s): Stmt {
    return { k: 'continue', pos: posOf(atOf(this), this) };
  },
  BreakStmt(_k, _s): Stmt {
    return { k: 'break', pos: posOf(atOf(this), this) };
  },
  ReturnStmt(_k, e, _s): Stmt {
    return { k: 'return', e: e.numChildren ? exprOf(atOf(this), e.child(0)) : undefined, pos: posOf(atOf(this), this) };
  },
  AsmStmt(_k, _q, _o, _b, _c, _s): Stmt {
    return { k: 'asm', pos: posOf(atOf(this), this) };
  },
  ExprStmt(e, _s): Stmt {
    if (!e.numChildren) return { k: 'empty', pos: posOf(atOf(this), this) };
    return { k: 'expr', e: exprOf(atOf(this), e.child(0)), pos: posOf(atOf(this), this) };
  },

  // ---- expressions
  Expr(items): Expr {
    const es = list<Expr>(atOf(this), items);
    return es.length === 1 ? es[0] : { k: 'comma', exprs: es, pos: posOf(atOf(this), this) };
  },
  AssignExpr_assign(target, op, value): Expr {
    return { k: 'assign', op: op.sourceString, target: target.ast(atOf(this)), value: value.ast(atOf(this)), pos: posOf(atOf(this), op) };
  },
  CondExpr_cond(test, _q, then, _c, other): Expr {
    return { k: 'cond', test: test.ast(atOf(this)), then: then.ast(atOf(this)), else: other.ast(atOf(this)), pos: posOf(atOf(this), this) };
  },
  BinaryExpr: binary,
  CastExpr_cast(_o, type, _c, arg): Expr {
    return { k: 'cast', type: type.ast(atOf(this)), arg: arg.ast(atOf(this)), pos: posOf(atOf(this), this) };
  },
  UnaryExpr_preinc(_op, e): Expr {
    return { k: 'incdec', op: '++', prefix: true, target: e.ast(atOf(this)), pos: posOf(atOf(this), this) };
  },
  UnaryExpr_predec(_op, e): Expr {
    return { k: 'incdec', op: '--', prefix: true, target: e.ast(atOf(this)), pos: posOf(atOf(this), this) };
  },
  UnaryExpr_op(op, e): Expr {
    return { k: 'unary', op: op.sourceString as '-', arg: e.ast(atOf(this)), pos: posOf(atOf(this), this) };
  },
  UnaryExpr_sizeoftype(_k, _o, type, _c): Expr {
    return { k: 'sizeof', of: { type: type.ast(atOf(this)) }, pos: posOf(atOf(this), this) };
  },
  UnaryExpr_sizeofexpr(_k, e): Expr {
    return { k: 'sizeof', of: { expr: e.ast(atOf(this)) }, pos: posOf(atOf(this), this) };
  },
  UnaryExpr_alignof(_k, _o, _t, _c): Expr {
    return { k: 'other', what: '_Alignof', pos: posOf(atOf(this), this) };
  },
  UnaryExpr_ext(_k, e): Expr {
    return e.ast(atOf(this)) as Expr;
  },
  PostfixExpr(base, ops): Expr {
    const pos = posOf(atOf(this), this);
    return ops.children.reduce((e, op) => postfix(atOf(this), e, op.child(0), pos), base.ast(atOf(this)) as Expr);
  },
  PostfixBase_compound(_o, _t, _c, _ob, _items, _comma, _cb): Expr {
    return { k: 'other', what: 'compound literal', pos: posOf(atOf(this), this) };
  },
  PrimaryExpr_ident(id): Expr {
    return { k: 'id', name: id.sourceString, pos: posOf(atOf(this), this) };
  },
  PrimaryExpr_number(n): Expr {
    const text = n.sourceString;
    if (/^(0[xX][0-9a-fA-F]+|[0-9]+)[uUlL]*$/.test(text))
      return { k: 'num', value: parseIntLiteral(text, posOf(atOf(this), this)), pos: posOf(atOf(this), this), literal: text };
    return { k: 'float', text, pos: posOf(atOf(this), this) };
  },
  PrimaryExpr_char(c): Expr {
    return { k: 'num', value: charValue(c.sourceString), pos: posOf(atOf(this), this) };
  },
  PrimaryExpr_string(_s): Expr {
    return { k: 'str', pos: posOf(atOf(this), this) };
  },
  PrimaryExpr_stmtexpr(_o, body, _c): Expr {
    return { k: 'stmtexpr', body: body.ast(atOf(this)) as Stmt, pos: posOf(atOf(this), this) };
  },
  PrimaryExpr_paren(_o, e, _c): Expr {
    return exprOf(atOf(this), e);
  },
  PrimaryExpr_offsetof(_k, _o, _b, _c): Expr {
    return { k: 'other', what: '__builtin_offsetof', pos: posOf(atOf(this), this) };
  },
  PrimaryExpr_vaarg(_k, _o, _b, _c): Expr {
    return { k: 'other', what: '__builtin_va_arg', pos: posOf(atOf(this), this) };
  },
};

/** `e` followed by one postfix operator (a PostfixOp's case); pos is where the whole postfix expression starts. */
function postfix(at: At, e: Expr, op: ohm.Node, pos: SourcePos): Expr {
  switch (op.ctorName) {
    case 'PostfixOp_index':
      return { k: 'index', base: e, index: exprOf(at, op.child(1)), pos };
    case 'PostfixOp_call':
      return { k: 'call', callee: e, args: list<Expr>(at, op.child(1)), pos };
    case 'PostfixOp_member':
    case 'PostfixOp_arrow':
      return { k: 'member', base: e, name: op.child(1).sourceString, arrow: op.ctorName === 'PostfixOp_arrow', pos };
    default:
      return { k: 'incdec', op: op.ctorName === 'PostfixOp_postinc' ? '++' : '--', prefix: false, target: e, pos };
  }
}

function exprOf(at: At, n: ohm.Node): Expr {
  return n.ast(at) as Expr;
}

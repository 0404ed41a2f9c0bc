/** Abstract syntax of the C dialect, as built by the ohm semantics in parse.ts. */
import type { SourcePos } from '../program/diagnostics.js';

export type Expr =
  /** An integer or character literal; `literal` is the integer literal's spelling (its type depends on it). */
  | { k: 'num'; value: bigint; pos: SourcePos; literal?: string }
  | { k: 'float'; text: string; pos: SourcePos }
  | { k: 'str'; pos: SourcePos }
  | { k: 'id'; name: string; pos: SourcePos }
  | { k: 'unary'; op: '-' | '+' | '!' | '~' | '*' | '&'; arg: Expr; pos: SourcePos }
  | { k: 'binary'; op: string; left: Expr; right: Expr; pos: SourcePos }
  | { k: 'assign'; op: string; target: Expr; value: Expr; pos: SourcePos }
  | { k: 'incdec'; op: '++' | '--'; prefix: boolean; target: Expr; pos: SourcePos }
  | { k: 'cond'; test: Expr; then: Expr; else: Expr; pos: SourcePos }
  | { k: 'call'; callee: Expr; args: Expr[]; pos: SourcePos }
  | { k: 'index'; base: Expr; index: Expr; pos: SourcePos }
  | { k: 'member'; base: Expr; name: string; arrow: boolean; pos: SourcePos }
  | { k: 'cast'; type: TypeName; arg: Expr; pos: SourcePos }
  /** `sizeof(type)` or `sizeof expr` (the expression is not evaluated). */
  | { k: 'sizeof'; of: { type: TypeName } | { expr: Expr }; pos: SourcePos }
  | { k: 'comma'; exprs: Expr[]; pos: SourcePos }
  | { k: 'init'; items: Expr[]; pos: SourcePos } // brace initializer
  | { k: 'stmtexpr'; body: Stmt; pos: SourcePos } // GNU ({ … }), as glibc's assert expands
  | { k: 'other'; what: string; pos: SourcePos }; // parsed but never modelled (designators, compound literals, …)

export type Stmt =
  | { k: 'decl'; decl: Declaration; pos: SourcePos }
  | { k: 'expr'; e: Expr; pos: SourcePos }
  | { k: 'block'; body: Stmt[]; pos: SourcePos }
  | { k: 'if'; cond: Expr; then: Stmt; else?: Stmt; pos: SourcePos }
  | { k: 'while'; cond: Expr; body: Stmt; pos: SourcePos }
  | { k: 'do'; body: Stmt; cond: Expr; pos: SourcePos }
  | { k: 'for'; init?: Stmt; cond?: Expr; step?: Expr; body: Stmt; pos: SourcePos }
  | { k: 'break'; pos: SourcePos }
  | { k: 'continue'; pos: SourcePos }
  | { k: 'return'; e?: Expr; pos: SourcePos }
  | { k: 'goto'; label: string; pos: SourcePos }
  | { k: 'label'; name: string; body: Stmt; pos: SourcePos }
  | { k: 'switch'; e: Expr; body: Stmt; pos: SourcePos }
  | { k: 'case'; value: Expr; body: Stmt; pos: SourcePos }
  | { k: 'default'; body: Stmt; pos: SourcePos }
  | { k: 'asm'; pos: SourcePos }
  | { k: 'empty'; pos: SourcePos };

/** Type specifiers of a declaration, before declarators are applied. */
export interface Specifiers {
  storage: string[]; // typedef, extern, static, …
  words: string[]; // int, unsigned, long, _Bool, void, …
  qualifiers: string[]; // const, volatile, _Atomic, …
  attributes: Attribute[];
  typedefName?: string;
  tag?: { kind: 'struct' | 'union' | 'enum'; name?: string; hasBody: boolean };
  /** The members of a struct or union defined here (`struct s { … }`), in order. */
  fields?: Field[];
  enumerators?: { name: string; value?: Expr; pos: SourcePos }[];
  pos: SourcePos;
}

/** One attribute of `__attribute__((…))` (name without its `__` wrapping), or an `__asm__` label, `__declspec`, `_Alignas`. */
export interface Attribute {
  name: string;
  /** The parenthesised arguments as written, without the parentheses (`__QI__` for `__mode__(__QI__)`). */
  args?: string;
  pos: SourcePos;
}

export type Derived =
  | { k: 'ptr' }
  | { k: 'array'; size?: Expr }
  | { k: 'func'; params: Param[] | null; variadic: boolean };

export interface Declarator {
  name?: string;
  pos: SourcePos;
  /** Type derivations, closest to the name first: `int *a[3]` is [array 3, ptr]. */
  derived: Derived[];
  /** Attributes written in or after the declarator (`int x __attribute__((aligned(4)))`). */
  attributes?: Attribute[];
}

/** A struct or union member; `bitField` when it has a width (`int f : 3`). */
export interface Field {
  spec: Specifiers;
  decl: Declarator;
  bitField?: boolean;
}

export interface Param {
  spec: Specifiers;
  decl: Declarator;
}

export interface InitDeclarator {
  decl: Declarator;
  init?: Expr;
}

export interface Declaration {
  spec: Specifiers;
  items: InitDeclarator[];
  pos: SourcePos;
}

export interface TypeName {
  spec: Specifiers;
  decl: Declarator;
}

export interface FunctionDef {
  spec: Specifiers;
  decl: Declarator;
  body: Stmt;
  pos: SourcePos;
}

export type TopLevel = { k: 'func'; def: FunctionDef } | { k: 'decl'; decl: Declaration } | { k: 'empty' };

export interface TranslationUnit {
  file: string;
  items: { item: TopLevel; system: boolean }[];
  /** Chunks from system headers that did not parse and were left out. */
  skippedSystemChunks: number;
  systemIncludes: ReadonlySet<string>;
}

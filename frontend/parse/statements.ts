/**
 * Function bodies by recursive descent over the preprocessor's tokens: statements are
 * told apart by their first token (a keyword, a label's `name :`, or a declaration's
 * specifier keyword or typedef name, as C compilers do), and ohm-js matches what the
 * grammar states best — expressions, declarations, a function's head — each over its
 * own token range of the preprocessed text. ohm-js keeps a memo entry per rule tried at
 * every position of the text it matches, so matching small ranges keeps memory at that
 * of the largest expression or declaration, and time linear in the body's length.
 */
import type { Declaration, Expr, FunctionDef, Stmt, TopLevel } from '../ast.js';
import { checkDeadline, fail, type SourcePos } from '../../program/diagnostics.js';
import { cGrammar, TYPEDEF_MARK } from '../grammar.js';
import type { Preprocessed } from '../preprocess.js';
import { astOf } from './semantics.js';

/**
 * Statements and declarations longer than this (in tokens) are refused with a located
 * error. ohm-js memoizes every rule tried at every position of the text it matches,
 * some 10 KB per token: 50,000 tokens (a sum of 25,000 terms) take about 500 MB.
 * Only the ranges ohm-js matches count (an expression, a declaration).
 */
export const MAX_STATEMENT_TOKENS = 50_000;

/** The tokens of a file, as the parser reads them. */
export interface Tokens {
  readonly pp: Preprocessed;
  readonly toks: readonly string[];
  /** For each bracket token, the index of its partner; -1 for other tokens. */
  readonly partner: Int32Array;
  /** pp.text with typedef names marked (../grammar.ts says why). */
  readonly text: string;
  readonly deadline?: number;
}

/** A syntax error: the parser words it (parse.ts), from the offset in the preprocessed text where matching failed. */
export class SyntaxFailure extends Error {
  constructor(
    readonly offset: number,
    readonly expected?: string,
  ) {
    super('syntax error');
  }
}

/** The AST of rule matched over toks[first..last]; SyntaxFailure when they do not match. */
export function matchTokens(t: Tokens, first: number, last: number, rule: string): unknown {
  const r = tryTokens(t, first, last, rule);
  if (r.failed) throw new SyntaxFailure(r.offset, r.expected);
  return r.ast;
}

type Tried = { failed: false; ast: unknown } | { failed: true; offset: number; expected: string };

function tryTokens(t: Tokens, first: number, last: number, rule: string): Tried {
  if (last < first) return { failed: true, offset: t.pp.offsets[first], expected: rule };
  if (last - first >= MAX_STATEMENT_TOKENS) fail(t.pp.positions[first], `statement or declaration longer than ${MAX_STATEMENT_TOKENS} tokens: rely's limit`);
  const base = t.pp.offsets[first];
  const m = cGrammar().match(t.text.slice(base, t.pp.offsets[last] + t.toks[last].length), rule);
  if (m.failed()) return { failed: true, offset: base + m.getRightmostFailurePosition(), expected: m.getExpectedText() };
  return { failed: false, ast: astOf(m, { pp: t.pp, base }) };
}

/** Words that begin a declaration's specifiers (the grammar's DeclSpec, and static assertions). */
const DECLARATION_WORDS = new Set(
  ('typedef extern static auto register _Thread_local __thread _Atomic const volatile restrict __restrict__ __restrict ' +
    '__const __volatile__ _Nonnull _Nullable inline __inline__ __inline _Noreturn __extension__ __attribute__ __attribute ' +
    '__asm__ __asm asm __declspec _Alignas void char short int long float double signed __signed__ unsigned _Bool _Complex ' +
    '__int128 __builtin_va_list _Float128 __float128 _Float64 _Float32 _Float32x _Float64x struct union enum __typeof__ ' +
    '__typeof typeof _Static_assert static_assert').split(' '),
);
/** The grammar's `keyword`s: never an identifier. */
const KEYWORDS = new Set(
  ('auto break case char const continue default double do else enum extern float for goto if inline int long register ' +
    'restrict return short signed sizeof static struct switch typedef union unsigned void volatile while _Bool ' +
    '_Static_assert __attribute__ __attribute __extension__ __asm__ __asm __inline__ __inline __restrict__ __restrict ' +
    '__typeof__ __typeof __const _Noreturn _Atomic _Alignas _Alignof _Thread_local __thread').split(' '),
);
const ASM = new Set(['__asm__', '__asm', 'asm']);
const QUALIFIERS = new Set('const volatile restrict __restrict__ __restrict _Atomic __const __volatile__ _Nonnull _Nullable'.split(' '));
const ATTRIBUTES = new Set(['__attribute__', '__attribute', '__asm__', '__asm', 'asm', '__declspec', '_Alignas']);

/** A function definition: its head (specifiers and declarator) matched by ohm-js, its body `{ … }` at token open read here. */
export function parseFunction(t: Tokens, first: number, open: number): TopLevel {
  const head = matchTokens(t, first, open - 1, 'FunctionHead') as Omit<FunctionDef, 'body'>;
  const body = new Body(t).block(open);
  return { k: 'func', def: { spec: head.spec, decl: head.decl, body, pos: head.pos } };
}

/** Reads one function's body; a statement's reader returns the statement and the index of the token after it. */
class Body {
  constructor(private readonly t: Tokens) {}

  private tok(i: number): string | undefined {
    return this.t.toks[i];
  }

  private pos(i: number): SourcePos {
    return this.t.pp.positions[i];
  }

  private failAt(i: number, expected?: string): never {
    throw new SyntaxFailure(this.t.pp.offsets[i], expected);
  }

  private expect(i: number, text: string): void {
    if (this.tok(i) !== text) this.failAt(i, `"${text}"`);
  }

  /** The block `{ … }` whose `{` is token open. */
  block(open: number): Stmt {
    const close = this.t.partner[open];
    const body: Stmt[] = [];
    for (let i = open + 1; i < close; ) {
      checkDeadline(this.t.deadline);
      const [s, next] = this.item(i, close);
      body.push(s);
      i = next;
    }
    return { k: 'block', body, pos: this.pos(open) };
  }

  /** A block item starting at token i of a block closed at token close: a declaration when it parses as one (the grammar's order), else a statement. */
  private item(i: number, close: number): [Stmt, number] {
    // `asm("…");` also matches a declaration with an asm label and no declarator, which declares nothing: it would be dropped.
    if (ASM.has(this.t.toks[i]) && this.asmEnd(i) !== undefined) return this.statement(i, close);
    const d = this.declaration(i, close);
    if (d) return [{ k: 'decl', decl: d[0], pos: this.pos(i) }, d[1] + 1];
    return this.statement(i, close);
  }

  /** The declaration at token i and its `;`, when the tokens begin one and it matches. */
  private declaration(i: number, close: number): [Declaration, number] | undefined {
    if (!this.beginsDeclaration(i)) return undefined;
    const end = this.semicolon(i, close);
    if (end === undefined) return undefined;
    const r = tryTokens(this.t, i, end, 'Declaration');
    return r.failed ? undefined : [r.ast as Declaration, end];
  }

  private beginsDeclaration(i: number): boolean {
    return DECLARATION_WORDS.has(this.t.toks[i]) || this.t.text[this.t.pp.offsets[i]] === TYPEDEF_MARK;
  }

  /** The first `;` from token i on outside brackets, before token close. */
  private semicolon(i: number, close: number): number | undefined {
    const { toks, partner } = this.t;
    for (let k = i; k < close; k++) {
      if (toks[k] === ';') return k;
      if (partner[k] > k) k = partner[k];
    }
    return undefined;
  }

  private expr(first: number, last: number): Expr {
    return matchTokens(this.t, first, last, 'Expr') as Expr;
  }

  /** `( Expr )` at token open: the expression and the index of the `)`. */
  private parenExpr(open: number): [Expr, number] {
    this.expect(open, '(');
    const close = this.t.partner[open];
    return [this.expr(open + 1, close - 1), close];
  }

  /** The statement starting at token i, inside a block closed at token close, and the index after it. */
  private statement(i: number, close: number): [Stmt, number] {
    // Statements nest without brackets (`while (0) while (0) …`): each looks at the clock.
    checkDeadline(this.t.deadline);
    const t = this.tok(i);
    const pos = this.pos(i);
    if (i >= close) this.failAt(i, 'a statement');
    switch (t) {
      case 'case': {
        const colon = this.caseColon(i + 1, close);
        const value = matchTokens(this.t, i + 1, colon - 1, 'CondExpr') as Expr;
        const [body, next] = this.statement(colon + 1, close);
        return [{ k: 'case', value, body, pos }, next];
      }
      case 'default': {
        this.expect(i + 1, ':');
        const [body, next] = this.statement(i + 2, close);
        return [{ k: 'default', body, pos }, next];
      }
      case '{':
        return [this.block(i), this.t.partner[i] + 1];
      case 'if':
        return this.ifChain(i, close);
      case 'switch':
      case 'while': {
        const [e, paren] = this.parenExpr(i + 1);
        const [body, next] = this.statement(paren + 1, close);
        return [t === 'while' ? { k: 'while', cond: e, body, pos } : { k: 'switch', e, body, pos }, next];
      }
      case 'do': {
        const [body, w] = this.statement(i + 1, close);
        this.expect(w, 'while');
        const [cond, paren] = this.parenExpr(w + 1);
        this.expect(paren + 1, ';');
        return [{ k: 'do', body, cond, pos }, paren + 2];
      }
      case 'for':
        return this.forStatement(i, close);
      case 'goto':
        if (!this.isIdent(i + 1)) this.failAt(i + 1, 'an identifier');
        this.expect(i + 2, ';');
        return [{ k: 'goto', label: this.t.toks[i + 1], pos: this.pos(i + 1) }, i + 3];
      case 'continue':
      case 'break':
        this.expect(i + 1, ';');
        return [t === 'break' ? { k: 'break', pos } : { k: 'continue', pos }, i + 2];
      case 'return': {
        const end = this.semicolon(i + 1, close) ?? this.failAt(close, '";"');
        return [{ k: 'return', e: end > i + 1 ? this.expr(i + 1, end - 1) : undefined, pos }, end + 1];
      }
    }
    if (this.isIdent(i) && this.tok(i + 1) === ':' && this.tok(i + 2) !== ':') return this.label(i, close);
    const asm = ASM.has(t!) ? this.asmEnd(i) : undefined;
    if (asm !== undefined) return [{ k: 'asm', pos }, asm + 1];
    const end = this.semicolon(i, close) ?? this.failAt(close, '";"');
    if (end === i) return [{ k: 'empty', pos }, end + 1];
    return [{ k: 'expr', e: this.expr(i, end - 1), pos }, end + 1];
  }

  /** An identifier of the grammar: not a keyword, not a typedef name. */
  private isIdent(i: number): boolean {
    const t = this.tok(i);
    return t !== undefined && /^[A-Za-z_$][\w$]*$/.test(t) && !KEYWORDS.has(t) && this.t.text[this.t.pp.offsets[i]] !== TYPEDEF_MARK;
  }

  /** `name : attributes… statement`, or a label right before the block's `}` (an empty statement there). */
  private label(i: number, close: number): [Stmt, number] {
    let j = i + 2;
    while (ATTRIBUTES.has(this.t.toks[j]) && this.tok(j + 1) === '(') j = this.t.partner[j + 1] + 1;
    const pos = this.pos(i);
    if (j === close) return [{ k: 'label', name: this.t.toks[i], body: { k: 'empty', pos: this.pos(j) }, pos }, j];
    const [body, next] = this.statement(j, close);
    return [{ k: 'label', name: this.t.toks[i], body, pos }, next];
  }

  /** The `;` ending `asm qualifiers… ( … ) ;` at token i, or undefined when it is not one. */
  private asmEnd(i: number): number | undefined {
    let j = i + 1;
    while (QUALIFIERS.has(this.t.toks[j])) j++;
    if (this.tok(j) !== '(') return undefined;
    const paren = this.t.partner[j];
    return this.tok(paren + 1) === ';' ? paren + 1 : undefined;
  }

  /** The `:` ending `case e:` whose value starts at token i (one inside `a ? b : c` belongs to its `?`). */
  private caseColon(i: number, close: number): number {
    const { toks, partner } = this.t;
    let questions = 0;
    for (let k = i; k < close; k++) {
      const t = toks[k];
      if (partner[k] > k) k = partner[k];
      else if (t === '?') questions++;
      else if (t === ':' && questions-- === 0) return k;
      else if (t === ';') break;
    }
    return this.failAt(close, '":"');
  }

  /**
   * `if (…) s else if (…) s … else s`, read arm by arm in a loop: a chain of n arms nests
   * n deep in the tree but not in the parser's stack. A dangling else binds to the
   * nearest if (the innermost statement read first takes it).
   */
  private ifChain(i: number, close: number): [Stmt, number] {
    const arms: { cond: Expr; then: Stmt; pos: SourcePos }[] = [];
    let orElse: Stmt | undefined;
    let next: number;
    for (;;) {
      const [cond, paren] = this.parenExpr(i + 1);
      const [then, after] = this.statement(paren + 1, close);
      arms.push({ cond, then, pos: this.pos(i) });
      next = after;
      if (this.tok(after) !== 'else') break;
      if (this.tok(after + 1) === 'if') {
        i = after + 1;
        continue;
      }
      [orElse, next] = this.statement(after + 1, close);
      break;
    }
    let s = orElse;
    for (let k = arms.length - 1; k >= 0; k--) s = { k: 'if', cond: arms[k].cond, then: arms[k].then, else: s, pos: arms[k].pos };
    return [s!, next];
  }

  /** `for (init cond; step) body`: init a declaration (when it parses as one) or an expression statement. */
  private forStatement(i: number, close: number): [Stmt, number] {
    this.expect(i + 1, '(');
    const paren = this.t.partner[i + 1];
    let j = i + 2;
    let init: Stmt | undefined;
    const d = this.declaration(j, paren);
    if (d) {
      init = { k: 'decl', decl: d[0], pos: this.pos(j) };
      j = d[1] + 1;
    } else {
      const end = this.semicolon(j, paren) ?? this.failAt(paren, '";"');
      if (end > j) init = { k: 'expr', e: this.expr(j, end - 1), pos: this.pos(j) };
      j = end + 1;
    }
    const end = this.semicolon(j, paren) ?? this.failAt(paren, '";"');
    const cond = end > j ? this.expr(j, end - 1) : undefined;
    const step = paren > end + 1 ? this.expr(end + 1, paren - 1) : undefined;
    const [body, next] = this.statement(paren + 1, close);
    return [{ k: 'for', init, cond, step, body, pos: this.pos(i) }, next];
  }
}

/**
 * Parsing: preprocessed text → top-level chunks → ohm match per chunk → AST.
 *
 * Parsing chunk by chunk lets rely skip glibc header declarations it cannot parse
 * (a `.i` file carries hundreds of them and uses none) while every chunk from the
 * user's own file must parse, and gives errors located in the user's file.
 */
import type * as ohm from 'ohm-js';
import type {
  Attribute,
  Declaration,
  Declarator,
  Derived,
  Expr,
  Field,
  FunctionDef,
  InitDeclarator,
  Param,
  Specifiers,
  Stmt,
  TopLevel,
  TranslationUnit,
  TypeName,
} from './ast.js';
import { checkDeadline, fail, type DeadlineOption, type SourcePos } from './diagnostics.js';
import { bodyItems, innerBlock, partners, unbracedHeads, type TokenRange } from './body-items.js';
import { cGrammar, TYPEDEF_MARK } from './grammar.js';
import { charValue, parseIntLiteral, positionAt, preprocess, type Preprocessed, type PreprocessOptions } from './preprocess.js';

/** Typedef names that system headers would declare; known even when headers are not read. */
const BUILTIN_TYPEDEFS = [
  'pthread_t', 'pthread_mutex_t', 'pthread_mutexattr_t', 'pthread_attr_t', 'pthread_cond_t', 'pthread_condattr_t',
  'size_t', 'ssize_t', 'ptrdiff_t', 'intptr_t', 'uintptr_t', 'int8_t', 'int16_t', 'int32_t', 'int64_t', 'uint8_t',
  'uint16_t', 'uint32_t', 'uint64_t', 'FILE',
];

interface Chunk {
  start: number; // offset in the preprocessed text
  end: number;
  firstToken: number;
  lastToken: number;
  /** A function definition's: the token index of its body's `{`. */
  body?: number;
}

/**
 * Brackets nested deeper than this are refused with a located error: the parser and
 * the passes over the tree recurse as deep as the input nests. bin/rely.js gives them
 * a 512 MB stack, in which 20,000 nested parentheses parse and 100,000 do not.
 */
export const MAX_NESTING = 10_000;

/**
 * Statements and declarations longer than this (in tokens) are refused with a located
 * error. ohm-js memoizes every rule tried at every position of the text it matches,
 * some 10 KB per token: 50,000 tokens (a sum of 25,000 terms) take about 500 MB.
 * Function bodies and blocks are matched item by item, so only one statement counts.
 */
export const MAX_STATEMENT_TOKENS = 50_000;

function checkLength(pp: Preprocessed, first: number, last: number): void {
  if (last - first >= MAX_STATEMENT_TOKENS) fail(pp.positions[first], `statement or declaration longer than ${MAX_STATEMENT_TOKENS} tokens: rely's limit`);
}

/** Splits the token stream at top-level `;` and at the `}` ending a function body. */
function splitChunks(pp: Preprocessed): Chunk[] {
  const chunks: Chunk[] = [];
  const toks = tokenTexts(pp);
  const open: number[] = []; // token indices of unclosed brackets
  const closer: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
  let start = 0;
  let funcBody = false;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const depth = open.length;
    if (t === '(' || t === '[' || t === '{') {
      if (t === '{' && depth === 0) funcBody = toks[i - 1] === ')';
      if (depth === MAX_NESTING) fail(pp.positions[i], `nested deeper than ${MAX_NESTING} brackets ('(', '[', '{'): rely's limit`);
      open.push(i);
    } else if (t === ')' || t === ']' || t === '}') {
      const o = open.pop();
      if (o === undefined || closer[toks[o]] !== t) fail(pp.positions[i], `syntax error: unexpected '${t}'`);
      if (t === '}' && open.length === 0 && funcBody) {
        chunks.push({ ...chunkOf(pp, toks, start, i), body: o });
        start = i + 1;
        funcBody = false;
      }
    } else if (t === ';' && open.length === 0) {
      chunks.push(chunkOf(pp, toks, start, i));
      start = i + 1;
    }
  }
  if (open.length) fail(pp.positions[open[open.length - 1]], `unexpected end of file: '${toks[open[open.length - 1]]}' is never closed`);
  if (start < toks.length) chunks.push(chunkOf(pp, toks, start, toks.length - 1));
  return chunks;
}

function chunkOf(pp: Preprocessed, toks: string[], first: number, last: number): Chunk {
  return { start: pp.offsets[first], end: pp.offsets[last] + toks[last].length, firstToken: first, lastToken: last };
}

function tokenTexts(pp: Preprocessed): string[] {
  return pp.offsets.map((o, i) => pp.text.slice(o, i + 1 < pp.offsets.length ? pp.offsets[i + 1] - 1 : pp.text.length));
}

const isIdent = (t: string | undefined): t is string => t !== undefined && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(t);

/** Typedef names declared by top-level `typedef` chunks (a token-level scan); `sites` gets the tokens that declare them. */
function typedefNames(toks: string[], chunks: Chunk[], sites: Set<number>): string[] {
  const names: string[] = [];
  for (const c of chunks) {
    let i = c.firstToken;
    while (toks[i] === '__extension__') i++;
    if (toks[i] !== 'typedef') continue;
    let paren = 0;
    let brace = 0;
    for (let k = i + 1; k <= c.lastToken; k++) {
      const t = toks[k];
      if (t === '{') brace++;
      else if (t === '}') brace--;
      else if (t === '(') paren++;
      else if (t === ')') paren--;
      else if (brace === 0 && isIdent(t)) {
        const next = toks[k + 1];
        const atTop = paren === 0 && [';', ',', '[', '__attribute__', '='].includes(next ?? '');
        const inFnPtr = paren === 1 && toks[k - 1] === '*' && next === ')';
        if (atTop || inFnPtr) {
          names.push(t);
          sites.add(k);
        }
      }
    }
  }
  return names;
}

/**
 * The chunks to parse: every chunk that is not optional, and the optional chunks that
 * declare an identifier some parsed chunk uses (to a fixpoint). The rest of a `.i`
 * file's glibc declarations are never used, so they are not parsed.
 */
function neededChunks(toks: string[], chunks: Chunk[], optional: readonly boolean[]): Set<number> {
  const mentions = chunks.map((c) => namesIn(toks, c));
  const declares = chunks.map((c) => declaredIn(toks, c));
  const needed = new Set<number>();
  const used = new Set<string>();
  const take = (k: number): void => {
    needed.add(k);
    for (const id of mentions[k]) used.add(id);
  };
  chunks.forEach((_, k) => !optional[k] && take(k));
  for (let grew = true; grew; ) {
    grew = false;
    for (let k = 0; k < chunks.length; k++)
      if (!needed.has(k) && [...declares[k]].some((id) => used.has(id))) {
        take(k);
        grew = true;
      }
  }
  return needed;
}

const NOT_NAMES = new Set(
  ('auto break case char const continue default do double else enum extern float for goto if inline int long register ' +
    'restrict return short signed sizeof static struct switch typedef union unsigned void volatile while _Bool _Complex ' +
    '_Noreturn _Static_assert __extension__ __inline __inline__ __restrict __restrict__ __const __signed__ __typeof__').split(' '),
);
const OPAQUE = new Set(['__attribute__', '__attribute', '__asm__', '__asm', 'asm', '__declspec']);

/** Identifiers a chunk mentions, leaving out keywords and attribute/asm arguments. */
function namesIn(toks: string[], c: Chunk): Set<string> {
  const names = new Set<string>();
  for (let i = c.firstToken; i <= c.lastToken; i++) {
    const t = toks[i];
    if (OPAQUE.has(t) && toks[i + 1] === '(') {
      for (let depth = 0, j = i + 1; j <= c.lastToken; j++) {
        depth += toks[j] === '(' ? 1 : toks[j] === ')' ? -1 : 0;
        if (depth === 0) {
          i = j;
          break;
        }
      }
    } else if (isIdent(t) && !NOT_NAMES.has(t)) names.add(t);
  }
  return names;
}

/**
 * Names a chunk declares (a token-level over-approximation): identifiers at the top
 * level right before `(`, `;`, `,`, `=`, `[` or an attribute, `(*name)`, struct/union/
 * enum tags, and enumerators — not parameter names, which would tie every prototype
 * to every other.
 */
function declaredIn(toks: string[], c: Chunk): Set<string> {
  const names = new Set<string>();
  let paren = 0;
  let brace = 0;
  let inEnum = false;
  for (let i = c.firstToken; i <= c.lastToken; i++) {
    const t = toks[i];
    if (t === '(') paren++;
    else if (t === ')') paren--;
    else if (t === '{') brace++;
    else if (t === '}') brace--;
    else if (t === 'enum') inEnum = true;
    else if (isIdent(t) && !NOT_NAMES.has(t) && !OPAQUE.has(t)) {
      const prev = toks[i - 1];
      const next = toks[i + 1] ?? '';
      const tag = prev === 'struct' || prev === 'union' || prev === 'enum';
      const top =
        brace === 0 &&
        ((paren === 0 && ['(', ';', ',', '=', '[', '__attribute__', '__asm__', '__asm'].includes(next)) ||
          (paren === 1 && prev === '*' && next === ')')); // (*name)(…)
      const enumerator = inEnum && brace === 1 && [',', '=', '}'].includes(next);
      if (tag || top || enumerator) names.add(t);
    }
  }
  return names;
}

/**
 * A top-level chunk that only declares: a typedef, an `extern` declaration, a
 * prototype, or a struct/union/enum declaration without variables. Variables and
 * function bodies define something, and are always the program's.
 */
function definesNothing(toks: string[], c: Chunk): boolean {
  let i = c.firstToken;
  while (toks[i] === '__extension__') i++;
  if (toks[i] === 'typedef' || toks[i] === 'extern') return true;
  if (toks[c.lastToken] !== ';') return false; // a function definition
  if (['struct', 'union', 'enum'].includes(toks[i]) && c.lastToken === i + 2) return true; // `struct tag;`
  // `struct s { … };` (nothing after the closing brace), or a prototype: a top-level
  // `(` before the `;` with no initializer.
  const last = c.lastToken - 1;
  if (toks[last] === '}') return true;
  let depth = 0;
  let sawCall = false;
  for (let k = i; k < c.lastToken; k++) {
    const t = toks[k];
    if (t === '(' || t === '[' || t === '{') {
      if (t === '(' && depth === 0) sawCall = true;
      depth++;
    } else if (t === ')' || t === ']' || t === '}') depth--;
    else if (t === '=' && depth === 0) return false;
    else if (OPAQUE.has(t) && depth === 0) break; // attributes and asm labels come after the declarator
  }
  return sawCall;
}

export interface ParseOptions extends PreprocessOptions, DeadlineOption {}

/** Parses C source text (the file's contents) into a translation unit. */
export function parseC(source: string, file: string, opts: ParseOptions = {}): TranslationUnit {
  if (source.trim() === '') fail({ file, line: 1, col: 1 }, 'empty input file: expected a C program');
  const nul = source.indexOf('\u0000');
  if (nul >= 0) {
    const line = source.slice(0, nul).split('\n').length;
    fail({ file, line, col: 1 }, 'binary input: expected a C source file');
  }
  const pp = preprocess(source, file, opts);
  const toks = tokenTexts(pp);
  const chunks = splitChunks(pp);
  const grammar = cGrammar();
  const sem = semanticsFor(grammar);
  const sites = new Set<number>();
  const marked = markTypedefs(pp, toks, [...BUILTIN_TYPEDEFS, ...typedefNames(toks, chunks, sites)], sites);
  const items: TranslationUnit['items'] = [];
  let skipped = 0;
  const system = chunks.map((c) => pp.system.slice(c.firstToken, c.lastToken + 1).every(Boolean));
  // Preprocessed without line markers (`gcc -E -P`), a `.i` file cannot say which
  // declarations came from headers: there, any declaration that defines nothing is
  // treated like a header's, parsed only when the program uses what it declares.
  const unmarked = /\.i$/.test(file) && !pp.marked;
  const optional = chunks.map((c, k) => system[k] || (unmarked && definesNothing(toks, c)));
  const needed = neededChunks(toks, chunks, optional);
  for (const [k, c] of chunks.entries()) {
    if (!needed.has(k)) continue;
    checkDeadline(opts.deadline);
    const func = c.body === undefined ? undefined : parseFunction({ pp, toks, text: marked, grammar, sem, deadline: opts.deadline }, c, c.body);
    if (func) {
      items.push({ item: func, system: optional[k] });
      continue;
    }
    checkLength(pp, c.firstToken, c.lastToken);
    const text = pp.text.slice(c.start, c.end);
    const m = grammar.match(marked.slice(c.start, c.end), 'ExternalDecl');
    if (m.failed()) {
      if (optional[k]) {
        skipped++;
        continue;
      }
      const offset = m.getRightmostFailurePosition();
      const at = positionAt(pp, c.start + offset);
      const found = /^\S+/.exec(text.slice(offset))?.[0];
      const expected = m.getExpectedText();
      const hint = expected.split(', ').length <= 4 ? ` (expected ${expected})` : '';
      fail(at, `syntax error: ${found ? `unexpected '${found}'` : 'unexpected end of declaration'}${hint}`);
    }
    current = { pp, base: c.start };
    items.push({ item: sem(m).ast() as TopLevel, system: optional[k] });
  }
  if (!items.some((i) => !i.system && i.item.k !== 'empty'))
    fail({ file, line: 1, col: 1 }, 'no declarations or functions found: expected a C program');
  return { file, items, skippedSystemChunks: skipped, systemIncludes: pp.systemIncludes };
}

/**
 * The preprocessed text with the first character of each typedef name's token replaced
 * by TYPEDEF_MARK (./grammar.ts says why), except where a typedef declares the name
 * (`typedef int I;`: there it is the declarator's identifier).
 */
function markTypedefs(pp: Preprocessed, toks: readonly string[], typedefs: readonly string[], declaring: ReadonlySet<number> = new Set()): string {
  const names = new Set(typedefs);
  const parts: string[] = [];
  let from = 0;
  toks.forEach((t, i) => {
    if (!names.has(t) || declaring.has(i)) return;
    parts.push(pp.text.slice(from, pp.offsets[i]), TYPEDEF_MARK);
    from = pp.offsets[i] + 1;
  });
  parts.push(pp.text.slice(from));
  return parts.join('');
}

/** What matching a piece of the preprocessed text needs. */
interface Matching {
  readonly pp: Preprocessed;
  readonly toks: readonly string[];
  /** pp.text with typedef names marked (markTypedefs). */
  readonly text: string;
  readonly grammar: ohm.Grammar;
  readonly sem: ohm.Semantics;
  readonly deadline?: number;
}

/**
 * A function definition matched statement by statement (./body-items.ts says why), or
 * undefined when its body cannot be split or a piece does not match: the caller then
 * matches it whole, and reports its syntax errors as it always has.
 */
function parseFunction(m: Matching, c: Chunk, open: number): TopLevel | undefined {
  const match = partners(m.toks, open, c.lastToken);
  if (!match) return undefined;
  // The head with an empty body: `int f(int a) { }`.
  const head = matchText(m, c.start, m.text.slice(c.start, m.pp.offsets[open] + 1) + ' }', 'ExternalDecl') as TopLevel | undefined;
  if (head?.k !== 'func' || head.def.body.k !== 'block') return undefined;
  const body = parseItems(m, match, open, c.lastToken);
  return body && { k: 'func', def: { ...head.def, body: { ...head.def.body, body } } };
}

/** The items of the block toks[open..close], each matched on its own. */
function parseItems(m: Matching, match: ReadonlyMap<number, number>, open: number, close: number): Stmt[] | undefined {
  const pieces = bodyItems(m.toks, match, open, close);
  if (!pieces) return undefined;
  const items: Stmt[] = [];
  for (const p of pieces) {
    checkDeadline(m.deadline);
    const s = p.chain ? parseChain(m, match, p.chain.arms, p.chain.orElse) : parseStatement(m, match, p);
    if (!s) return undefined;
    items.push(s);
  }
  return items;
}

/**
 * A statement; one that ends with a block (innerBlock) is matched with the block empty,
 * and the block's items are matched one by one: a loop's body can be as long as a
 * function's.
 */
function parseStatement(m: Matching, match: ReadonlyMap<number, number>, r: TokenRange): Stmt | undefined {
  const { heads, inner } = unbracedHeads(m.toks, match, r);
  // One head (`if (c) x = 1;`, an else-if chain's arm) is cheaper matched whole.
  if (heads.length > 1) return parseNested(m, match, heads, inner);
  const open = innerBlock(m.toks, match, r);
  if (open === undefined) return matchRange(m, r, 'BlockItem') as Stmt | undefined;
  const start = m.pp.offsets[r.first];
  const s = matchText(m, start, m.text.slice(start, m.pp.offsets[open] + 1) + ' }', 'BlockItem') as Stmt | undefined;
  const block = s?.k === 'block' ? s : s?.k === 'if' ? s.then : s && 'body' in s ? s.body : undefined;
  if (block?.k !== 'block' || block.body.length) return undefined;
  const items = parseItems(m, match, open, r.last);
  if (!items) return undefined;
  block.body = items;
  return s;
}

/**
 * Heads without braces nested around `inner` (unbracedHeads), matched one at a time with
 * an empty block for their statement, which `inner`'s (or the next head's) AST replaces.
 */
function parseNested(m: Matching, match: ReadonlyMap<number, number>, heads: readonly number[], inner: TokenRange): Stmt | undefined {
  let s = parseStatement(m, match, inner);
  for (let k = heads.length - 1; k >= 0 && s; k--) {
    checkDeadline(m.deadline);
    const start = m.pp.offsets[heads[k]];
    const next = k + 1 < heads.length ? heads[k + 1] : inner.first;
    const head = matchText(m, start, m.text.slice(start, m.pp.offsets[next]) + '{ }', 'BlockItem') as Stmt | undefined;
    if (head?.k === 'if' && !head.else) head.then = s;
    else if (head?.k === 'while' || head?.k === 'for') head.body = s;
    else return undefined;
    s = head;
  }
  return s;
}

/** An else-if chain from its arms (each an `if` without else) and its final else, linked in a loop. */
function parseChain(m: Matching, match: ReadonlyMap<number, number>, arms: readonly TokenRange[], orElse: TokenRange | undefined): Stmt | undefined {
  let rest = orElse && parseStatement(m, match, orElse);
  if (orElse && !rest) return undefined;
  for (let i = arms.length - 1; i >= 0; i--) {
    const arm = parseStatement(m, match, arms[i]);
    if (arm?.k !== 'if' || arm.else) return undefined;
    rest = { ...arm, else: rest };
  }
  return rest;
}

/** The AST of the tokens r matched by a grammar rule; undefined when they do not match. */
function matchRange(m: Matching, r: TokenRange, rule: string): unknown {
  checkLength(m.pp, r.first, r.last);
  const start = m.pp.offsets[r.first];
  return matchText(m, start, m.text.slice(start, m.pp.offsets[r.last] + m.toks[r.last].length), rule);
}

function matchText(m: Matching, start: number, text: string, rule: string): unknown {
  const r = m.grammar.match(text, rule);
  if (r.failed()) return undefined;
  current = { pp: m.pp, base: start };
  return m.sem(r).ast();
}

/**
 * Parses one C expression (an invariant or a constraint read from a witness) with the
 * grammar and AST of the program's own parser. Positions are those of the text, moved
 * to start at `at` (where the text stands in the file it came from).
 */
export function parseExpression(text: string, at: SourcePos): Expr {
  const pp = preprocess(text, at.file);
  const moved = (p: SourcePos): SourcePos => ({ file: at.file, line: at.line + p.line - 1, col: p.line === 1 ? at.col + p.col - 1 : p.col });
  const placed: Preprocessed = { ...pp, positions: pp.positions.map(moved) };
  if (pp.text.trim() === '') fail(at, 'empty expression');
  const grammar = cGrammar();
  const m = grammar.match(markTypedefs(pp, tokenTexts(pp), BUILTIN_TYPEDEFS), 'Expr');
  if (m.failed()) {
    const offset = m.getRightmostFailurePosition();
    const found = /^\S+/.exec(pp.text.slice(offset))?.[0];
    fail(positionAt(placed, offset), `syntax error in C expression: ${found ? `unexpected '${found}'` : 'unexpected end'}`);
  }
  current = { pp: placed, base: 0 };
  return semanticsFor(grammar)(m).ast() as Expr;
}

// ---------------------------------------------------------------------------
// Semantics: ohm parse tree → AST.

let current: { pp: Preprocessed; base: number } | undefined;
const posOf = (n: ohm.Node): SourcePos => positionAt(current!.pp, current!.base + n.source.startIdx);

const semCache = new Map<ohm.Grammar, ohm.Semantics>();

function semanticsFor(g: ohm.Grammar): ohm.Semantics {
  let s = semCache.get(g);
  if (!s) {
    s = g.createSemantics().addOperation('ast', ACTIONS);
    semCache.set(g, s);
  }
  return s;
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

const opt = <T>(n: ohm.Node): T | undefined => (n.numChildren ? (n.child(0).ast() as T) : undefined);
const list = <T>(n: ohm.Node): T[] => n.asIteration().children.map((c) => c.ast() as T);
/**
 * A chain of left-associative binary operators (`a - b - c` is `(a - b) - c`), folded
 * in a loop: a chain of n operands is one level of the parse tree, not n.
 */
function chain(this: ohm.Node, first: ohm.Node, ops: ohm.Node, rests: ohm.Node): Expr {
  let e = first.ast() as Expr;
  for (let i = 0; i < ops.numChildren; i++) {
    const op = ops.child(i);
    e = { k: 'binary', op: op.sourceString, left: e, right: rests.child(i).ast() as Expr, pos: posOf(op) };
  }
  return e;
}

/** The text a node matched as written (the matched text has typedef names marked). */
function written(n: ohm.Node): string {
  const { pp, base } = current!;
  return pp.text.slice(base + n.source.startIdx, base + n.source.endIdx);
}

/** The attributes among spec-like nodes (qualifiers, attributes), in order. */
const attributesIn = (nodes: ohm.Node): Attribute[] => nodes.children.flatMap((c) => (c.ast() as SpecPart).attributes ?? []);

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

const pointersOf = (ptrs: ohm.Node): Attribute[][] => ptrs.children.map((p) => p.ast() as Attribute[]);

const ACTIONS: ohm.ActionDict<unknown> = {
  ExternalDecl(x): TopLevel {
    if (x.ctorName === 'Declaration') return { k: 'decl', decl: x.ast() as Declaration };
    return x.ast() as TopLevel;
  },
  ExternalDecl_empty(_s): TopLevel {
    return { k: 'empty' };
  },
  FunctionDef(spec, decl, body): TopLevel {
    const def: FunctionDef = { spec: spec.ast(), decl: decl.ast(), body: body.ast(), pos: posOf(decl) };
    return { k: 'func', def };
  },
  Declaration_static_assert(_a, _b, _c, _d, _e): Declaration {
    return { spec: { storage: ['static_assert'], words: [], qualifiers: [], attributes: [], pos: posOf(this) }, items: [], pos: posOf(this) };
  },
  Declaration_decl(spec, items, _semi): Declaration {
    return { spec: spec.ast(), items: list<InitDeclarator>(items), pos: posOf(this) };
  },
  DeclSpecs(parts): Specifiers {
    return mergeSpecs(parts.children.map((c) => c.ast() as SpecPart), posOf(this));
  },
  StorageClass(k): SpecPart {
    return { storage: [k.sourceString] };
  },
  AtomicSpec(_k, _o, type, _c): SpecPart {
    const t = type.ast() as TypeName;
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
    return { attributes: gnuAttributes(written(body), posOf(this)) };
  },
  Attribute_asm(_k, _o, body, _c): SpecPart {
    return { attributes: [{ name: 'asm', args: written(body), pos: posOf(this) }] };
  },
  Attribute_declspec(_k, _o, body, _c): SpecPart {
    return { attributes: [{ name: '__declspec', args: written(body), pos: posOf(this) }] };
  },
  Attribute_alignas(_k, _o, body, _c): SpecPart {
    return { attributes: [{ name: '_Alignas', args: written(body), pos: posOf(this) }] };
  },
  TypeSpec(k): SpecPart {
    if (k.ctorName === 'StructSpec' || k.ctorName === 'EnumSpec' || k.ctorName === 'TypedefName' || k.ctorName === 'TypeofSpec')
      return k.ast() as SpecPart;
    return { words: [k.sourceString] };
  },
  TypeofSpec(_k, _o, _b, _c): SpecPart {
    return { words: ['__typeof__'] };
  },
  TypedefName(n): SpecPart {
    // The name as written, not as matched (its first character is the mark).
    return { typedefName: written(n) };
  },
  Tag(n): string {
    return written(n);
  },
  StructSpec_def(kind, attrs, name, _o, fields, _c): SpecPart {
    const members = fields.children.flatMap((f) => f.ast() as Field[]);
    return { tag: { kind: kind.sourceString as 'struct', name: opt<string>(name), hasBody: true }, fields: members, attributes: attributesIn(attrs) };
  },
  StructDecl_fields(quals, items, _semi): Field[] {
    const spec = mergeSpecs(quals.children.map((c) => c.ast() as SpecPart), posOf(this));
    return list<Omit<Field, 'spec'>>(items).map((d) => ({ spec, ...d }));
  },
  StructDecl_static_assert(_k, _o, _b, _c, _semi): Field[] {
    return [];
  },
  StructDecl_empty(_semi): Field[] {
    return [];
  },
  StructDeclarator_bits(decl, _colon, _width): Omit<Field, 'spec'> {
    return { decl: opt<Declarator>(decl) ?? { pos: posOf(this), derived: [] }, bitField: true };
  },
  StructDeclarator(d): Omit<Field, 'spec'> {
    return d.ctorName === 'StructDeclarator_bits' ? (d.ast() as Omit<Field, 'spec'>) : { decl: d.ast() as Declarator };
  },
  StructSpec_ref(kind, attrs, name): SpecPart {
    return { tag: { kind: kind.sourceString as 'struct', name: name.ast() as string, hasBody: false }, attributes: attributesIn(attrs) };
  },
  EnumSpec_def(_k, attrs, name, _o, items, _comma, _c): SpecPart {
    return {
      tag: { kind: 'enum', name: opt<string>(name), hasBody: true },
      enumerators: list(items),
      attributes: attributesIn(attrs),
    };
  },
  EnumSpec_ref(_k, attrs, name): SpecPart {
    return { tag: { kind: 'enum', name: name.ast() as string, hasBody: false }, attributes: attributesIn(attrs) };
  },
  Enumerator(name, _attrs, _eq, value) {
    return { name: name.sourceString, value: opt<Expr>(value), pos: posOf(name) };
  },
  SpecQual(k): SpecPart {
    return k.ast() as SpecPart;
  },
  Declarator(ptrs, direct, attrs): Declarator {
    const d = direct.ast() as Declarator;
    return withAttributes(nest(d, [], pointersOf(ptrs)), attributesIn(attrs));
  },
  DirectDeclarator(base, suffixes): Declarator {
    const b = base.ast() as Declarator;
    return { ...b, derived: [...b.derived, ...suffixes.children.map((s) => s.ast() as Derived)] };
  },
  DirectBase_name(id): Declarator {
    return { name: id.sourceString, pos: posOf(id), derived: [] };
  },
  DirectBase_paren(_o, attrs, inner, _c): Declarator {
    // `(*f)(int)`: the suffixes that follow apply after the inner derivations.
    return withAttributes(inner.ast() as Declarator, attributesIn(attrs));
  },
  DeclSuffix_array(_o, _q, size, _c): Derived {
    return { k: 'array', size: opt<Expr>(size) };
  },
  DeclSuffix_params(_o, params, _c): Derived {
    return params.ast() as Derived;
  },
  DeclSuffix_noparams(_o, _c): Derived {
    return { k: 'func', params: null, variadic: false };
  },
  ParamList(params, _comma, dots): Derived {
    const ps = list<Param>(params);
    // `(void)` declares no parameters.
    const isVoid = ps.length === 1 && ps[0].spec.words.join(' ') === 'void' && !ps[0].decl.name && ps[0].decl.derived.length === 0;
    return { k: 'func', params: isVoid ? [] : ps, variadic: dots.numChildren > 0 };
  },
  ParamDecl_named(spec, decl): Param {
    return { spec: spec.ast(), decl: decl.ast() };
  },
  ParamDecl_abstract(spec, decl): Param {
    return { spec: spec.ast(), decl: opt<Declarator>(decl) ?? { pos: posOf(this), derived: [] } };
  },
  AbstractDeclarator_ptr(ptrs, direct): Declarator {
    const d = opt<Declarator>(direct) ?? { pos: posOf(this), derived: [] };
    return nest(d, [], pointersOf(ptrs));
  },
  DirectAbstract_paren(_o, attrs, inner, _c, suffixes): Declarator {
    return withAttributes(nest(inner.ast() as Declarator, suffixes.children.map((s) => s.ast() as Derived), []), attributesIn(attrs));
  },
  DirectAbstract_suffixes(suffixes): Declarator {
    return { pos: posOf(this), derived: suffixes.children.map((s) => s.ast() as Derived) };
  },
  Pointer(_star, quals): Attribute[] {
    return attributesIn(quals);
  },
  InitDeclarator(decl, attrs, _eq, init): InitDeclarator {
    return { decl: withAttributes(decl.ast() as Declarator, attributesIn(attrs)), init: opt<Expr>(init) };
  },
  Initializer_braces(_o, items, _comma, _c): Expr {
    return { k: 'init', items: list<Expr>(items), pos: posOf(this) };
  },
  InitItem_designated(_d, _eq, _init): Expr {
    // Designators are not kept: read positionally, `{ .b = 1 }` would set the first member. Refused where used.
    return { k: 'other', what: 'designated initializers (.member = / [index] =)', pos: posOf(this) };
  },
  TypeName(quals, decl): TypeName {
    return {
      spec: mergeSpecs(quals.children.map((c) => c.ast() as SpecPart), posOf(this)),
      decl: opt<Declarator>(decl) ?? { pos: posOf(this), derived: [] },
    };
  },

  // ---- statements
  LabeledStmt_case(_k, value, _c, body): Stmt {
    return { k: 'case', value: value.ast(), body: body.ast(), pos: posOf(this) };
  },
  LabeledStmt_default(_k, _c, body): Stmt {
    return { k: 'default', body: body.ast(), pos: posOf(this) };
  },
  LabeledStmt_label(name, _c, _attrs, target): Stmt {
    return { k: 'label', name: name.sourceString, body: target.ast(), pos: posOf(this) };
  },
  LabelTarget_end(_x): Stmt {
    return { k: 'empty', pos: posOf(this) };
  },
  CompoundStmt(_o, items, _c): Stmt {
    return { k: 'block', body: items.children.map((c) => c.ast() as Stmt), pos: posOf(this) };
  },
  BlockItem(x): Stmt {
    if (x.ctorName === 'Declaration') return { k: 'decl', decl: x.ast(), pos: posOf(this) };
    return x.ast() as Stmt;
  },
  IfStmt(_k, _o, cond, _c, then, _else, other): Stmt {
    return { k: 'if', cond: exprOf(cond), then: then.ast(), else: opt<Stmt>(other), pos: posOf(this) };
  },
  SwitchStmt(_k, _o, e, _c, body): Stmt {
    return { k: 'switch', e: exprOf(e), body: body.ast(), pos: posOf(this) };
  },
  WhileStmt(_k, _o, cond, _c, body): Stmt {
    return { k: 'while', cond: exprOf(cond), body: body.ast(), pos: posOf(this) };
  },
  DoStmt(_k, body, _w, _o, cond, _c, _s): Stmt {
    return { k: 'do', body: body.ast(), cond: exprOf(cond), pos: posOf(this) };
  },
  ForStmt(_k, _o, init, cond, _s, step, _c, body): Stmt {
    return {
      k: 'for',
      init: init.ast() as Stmt | undefined,
      cond: cond.numChildren ? exprOf(cond.child(0)) : undefined,
      step: step.numChildren ? exprOf(step.child(0)) : undefined,
      body: body.ast(),
      pos: posOf(this),
    };
  },
  ForInit_decl(d): Stmt {
    return { k: 'decl', decl: d.ast(), pos: posOf(this) };
  },
  ForInit_expr(e, _s): Stmt | undefined {
    return e.numChildren ? { k: 'expr', e: exprOf(e.child(0)), pos: posOf(this) } : undefined;
  },
  GotoStmt(_k, label, _s): Stmt {
    return { k: 'goto', label: label.sourceString, pos: posOf(label) };
  },
  ContinueStmt(_k, _s): Stmt {
    return { k: 'continue', pos: posOf(this) };
  },
  BreakStmt(_k, _s): Stmt {
    return { k: 'break', pos: posOf(this) };
  },
  ReturnStmt(_k, e, _s): Stmt {
    return { k: 'return', e: e.numChildren ? exprOf(e.child(0)) : undefined, pos: posOf(this) };
  },
  AsmStmt(_k, _q, _o, _b, _c, _s): Stmt {
    return { k: 'asm', pos: posOf(this) };
  },
  ExprStmt(e, _s): Stmt {
    if (!e.numChildren) return { k: 'empty', pos: posOf(this) };
    return { k: 'expr', e: exprOf(e.child(0)), pos: posOf(this) };
  },

  // ---- expressions
  Expr(items): Expr {
    const es = list<Expr>(items);
    return es.length === 1 ? es[0] : { k: 'comma', exprs: es, pos: posOf(this) };
  },
  AssignExpr_assign(target, op, value): Expr {
    return { k: 'assign', op: op.sourceString, target: target.ast(), value: value.ast(), pos: posOf(op) };
  },
  CondExpr_cond(test, _q, then, _c, other): Expr {
    return { k: 'cond', test: test.ast(), then: then.ast(), else: other.ast(), pos: posOf(this) };
  },
  LogOr: chain,
  LogAnd: chain,
  BitOr: chain,
  BitXor: chain,
  BitAnd: chain,
  EqExpr: chain,
  RelExpr: chain,
  ShiftExpr: chain,
  AddExpr: chain,
  MulExpr: chain,
  CastExpr_cast(_o, type, _c, arg): Expr {
    return { k: 'cast', type: type.ast(), arg: arg.ast(), pos: posOf(this) };
  },
  UnaryExpr_preinc(_op, e): Expr {
    return { k: 'incdec', op: '++', prefix: true, target: e.ast(), pos: posOf(this) };
  },
  UnaryExpr_predec(_op, e): Expr {
    return { k: 'incdec', op: '--', prefix: true, target: e.ast(), pos: posOf(this) };
  },
  UnaryExpr_op(op, e): Expr {
    return { k: 'unary', op: op.sourceString as '-', arg: e.ast(), pos: posOf(this) };
  },
  UnaryExpr_sizeoftype(_k, _o, _t, _c): Expr {
    return { k: 'other', what: 'sizeof', pos: posOf(this) };
  },
  UnaryExpr_sizeofexpr(_k, _e): Expr {
    return { k: 'other', what: 'sizeof', pos: posOf(this) };
  },
  UnaryExpr_alignof(_k, _o, _t, _c): Expr {
    return { k: 'other', what: '_Alignof', pos: posOf(this) };
  },
  UnaryExpr_ext(_k, e): Expr {
    return e.ast() as Expr;
  },
  PostfixExpr(base, ops): Expr {
    const pos = posOf(this);
    return ops.children.reduce((e, op) => postfix(e, op.child(0), pos), base.ast() as Expr);
  },
  PostfixBase_compound(_o, _t, _c, _ob, _items, _comma, _cb): Expr {
    return { k: 'other', what: 'compound literal', pos: posOf(this) };
  },
  PrimaryExpr_ident(id): Expr {
    return { k: 'id', name: id.sourceString, pos: posOf(this) };
  },
  PrimaryExpr_number(n): Expr {
    const text = n.sourceString;
    if (/^(0[xX][0-9a-fA-F]+|[0-9]+)[uUlL]*$/.test(text))
      return { k: 'num', value: parseIntLiteral(text, posOf(this)), pos: posOf(this), literal: text };
    return { k: 'float', text, pos: posOf(this) };
  },
  PrimaryExpr_char(c): Expr {
    return { k: 'num', value: charValue(c.sourceString), pos: posOf(this) };
  },
  PrimaryExpr_string(_s): Expr {
    return { k: 'str', pos: posOf(this) };
  },
  PrimaryExpr_stmtexpr(_o, body, _c): Expr {
    return { k: 'stmtexpr', body: body.ast() as Stmt, pos: posOf(this) };
  },
  PrimaryExpr_paren(_o, e, _c): Expr {
    return exprOf(e);
  },
  PrimaryExpr_offsetof(_k, _o, _b, _c): Expr {
    return { k: 'other', what: '__builtin_offsetof', pos: posOf(this) };
  },
  PrimaryExpr_vaarg(_k, _o, _b, _c): Expr {
    return { k: 'other', what: '__builtin_va_arg', pos: posOf(this) };
  },
};

/** `e` followed by one postfix operator (a PostfixOp's case); pos is where the whole postfix expression starts. */
function postfix(e: Expr, op: ohm.Node, pos: SourcePos): Expr {
  switch (op.ctorName) {
    case 'PostfixOp_index':
      return { k: 'index', base: e, index: exprOf(op.child(1)), pos };
    case 'PostfixOp_call':
      return { k: 'call', callee: e, args: list<Expr>(op.child(1)), pos };
    case 'PostfixOp_member':
    case 'PostfixOp_arrow':
      return { k: 'member', base: e, name: op.child(1).sourceString, arrow: op.ctorName === 'PostfixOp_arrow', pos };
    default:
      return { k: 'incdec', op: op.ctorName === 'PostfixOp_postinc' ? '++' : '--', prefix: false, target: e, pos };
  }
}

function exprOf(n: ohm.Node): Expr {
  return n.ast() as Expr;
}

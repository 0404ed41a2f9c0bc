/**
 * Parsing: preprocessed text → top-level chunks → AST. A declaration is matched by the
 * grammar (./grammar.ts) over its tokens; a function definition's head likewise, and its
 * body is read by recursive descent (./parse/statements.ts).
 *
 * Parsing chunk by chunk lets rely skip glibc header declarations it cannot parse
 * (a `.i` file carries hundreds of them and uses none) while every chunk from the
 * user's own file must parse, and gives errors located in the user's file.
 */
import type { Declaration, Expr, TopLevel, TranslationUnit } from '../ast.js';
import { checkDeadline, fail, type DeadlineOption, type SourcePos } from '../../program/diagnostics.js';
import { cGrammar, TYPEDEF_MARK } from '../grammar.js';
import { astOf } from './semantics.js';
import { matchTokens, MAX_STATEMENT_TOKENS, parseFunction, SyntaxFailure, type Tokens } from './statements.js';
import { positionAt, preprocess, type Preprocessed, type PreprocessOptions } from '../preprocess.js';

export { MAX_STATEMENT_TOKENS };

/** Typedef names that system headers would declare; known even when headers are not read. */
const BUILTIN_TYPEDEFS = [
  'pthread_t', 'pthread_mutex_t', 'pthread_mutexattr_t', 'pthread_attr_t', 'pthread_cond_t', 'pthread_condattr_t',
  'pthread_rwlock_t', 'pthread_rwlockattr_t', 'pthread_barrier_t', 'pthread_barrierattr_t', 'pthread_spinlock_t',
  'pthread_once_t', 'pthread_key_t', 'sem_t', 'atomic_bool', 'atomic_char', 'atomic_schar', 'atomic_uchar', 'atomic_short', 'atomic_ushort',
  'atomic_int', 'atomic_uint', 'atomic_long', 'atomic_ulong', 'atomic_llong', 'atomic_ullong', 'atomic_flag',
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
 * the passes over the tree recurse as deep as the input nests. cli/rely.js gives them
 * a 512 MB stack, in which 20,000 nested parentheses parse and 100,000 do not.
 */
export const MAX_NESTING = 10_000;

/** Splits the token stream at top-level `;` and at the `}` ending a function body; partner: each bracket's partner (Tokens). */
function splitChunks(pp: Preprocessed, toks: string[]): { chunks: Chunk[]; partner: Int32Array } {
  const chunks: Chunk[] = [];
  const partner = new Int32Array(toks.length).fill(-1);
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
      if (o === undefined || closer[toks[o]] !== t) return fail(pp.positions[i], `syntax error: unexpected '${t}'`);
      partner[o] = i;
      partner[i] = o;
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
  return { chunks, partner };
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
  const { chunks, partner } = splitChunks(pp, toks);
  const sites = new Set<number>();
  const marked = markTypedefs(pp, toks, [...BUILTIN_TYPEDEFS, ...typedefNames(toks, chunks, sites)], sites);
  const t: Tokens = { pp, toks, partner, text: marked, deadline: opts.deadline };
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
    try {
      const item = c.body === undefined ? declaration(t, c) : parseFunction(t, c.firstToken, c.body);
      items.push({ item, system: optional[k] });
    } catch (e) {
      if (!(e instanceof SyntaxFailure)) throw e;
      if (!optional[k]) syntaxError(t, c, e);
      skipped++;
    }
  }
  if (!items.some((i) => !i.system && i.item.k !== 'empty'))
    fail({ file, line: 1, col: 1 }, 'no declarations or functions found: expected a C program');
  return { file, items, skippedSystemChunks: skipped, systemIncludes: pp.systemIncludes };
}

/** A top-level chunk without a function body: a declaration, or an empty one (`;`). */
function declaration(t: Tokens, c: Chunk): TopLevel {
  if (c.firstToken === c.lastToken && t.toks[c.firstToken] === ';') return { k: 'empty' };
  return { k: 'decl', decl: matchTokens(t, c.firstToken, c.lastToken, 'Declaration') as Declaration };
}

/**
 * Reports a syntax error in chunk c in the words rely has always used: those of the
 * grammar matching the whole chunk (where it failed last, what it expected there). A
 * chunk too long to match whole is reported where the parser failed.
 */
function syntaxError(t: Tokens, c: Chunk, f: SyntaxFailure): never {
  let { offset, expected } = f;
  if (c.lastToken - c.firstToken < MAX_STATEMENT_TOKENS) {
    const m = cGrammar().match(t.text.slice(c.start, c.end), 'ExternalDecl');
    if (m.failed()) {
      offset = c.start + m.getRightmostFailurePosition();
      expected = m.getExpectedText();
    }
  }
  const found = /^\S+/.exec(t.pp.text.slice(offset, c.end))?.[0];
  const hint = expected && expected.split(', ').length <= 4 ? ` (expected ${expected})` : '';
  return fail(positionAt(t.pp, offset), `syntax error: ${found ? `unexpected '${found}'` : 'unexpected end of declaration'}${hint}`);
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
  return astOf(m, { pp: placed, base: 0 }) as Expr;
}

/**
 * Built-in C preprocessor: #include, #define (object- and function-like, `#`, `##`,
 * variadic), #undef, #if/#ifdef/#ifndef/#elif/#else/#endif, line markers of `.i`
 * files, #pragma (ignored). System headers (`#include <…>`) are not read: the
 * declarations rely needs from them (pthreads, the __VERIFIER_ functions) are
 * built in, so the result does not depend on which libc a machine has.
 *
 * The output is the token text joined by spaces plus a map from output offsets
 * back to the position of each token in the user's files.
 */
import { readFileSync, existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InputError, fail, type SourcePos } from '../program/diagnostics.js';

type TokKind = 'id' | 'num' | 'str' | 'chr' | 'punct' | 'other';

interface Token {
  text: string;
  kind: TokKind;
  pos: SourcePos;
  /** First token on its physical line (directives start with such a `#`). */
  bol: boolean;
  /** Token came from a system header (tolerated when it does not parse). */
  system: boolean;
  /** Macros that produced this token and must not expand it again. */
  hide?: ReadonlySet<string>;
}

export interface Preprocessed {
  readonly text: string;
  /** Sorted output offsets of tokens and their original positions. */
  readonly offsets: readonly number[];
  readonly positions: readonly SourcePos[];
  readonly system: readonly boolean[];
  /** System headers the file asked for, e.g. `pthread.h`. */
  readonly systemIncludes: ReadonlySet<string>;
  /** The file had line markers (`# 12 "file.h"`, as `gcc -E` writes them without -P). */
  readonly marked: boolean;
}

/** Maps an offset in the preprocessed text back to a source position. */
export function positionAt(pp: Preprocessed, offset: number): SourcePos {
  const { offsets, positions } = pp;
  if (offsets.length === 0) return { file: '<input>', line: 1, col: 1 };
  let lo = 0;
  let hi = offsets.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offsets[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  const p = positions[lo];
  return { file: p.file, line: p.line, col: p.col + Math.max(0, offset - offsets[lo]) };
}

const PUNCTS = [
  '...', '<<=', '>>=', '->', '++', '--', '<<', '>>', '<=', '>=', '==', '!=', '&&', '||', '*=', '/=', '%=', '+=',
  '-=', '&=', '^=', '|=', '##',
];

/** Splits C source into preprocessing tokens, keeping positions and line starts. */
function tokenize(src: string, file: string, system: boolean): Token[] {
  const toks: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  let bol = true;
  const n = src.length;
  while (i < n) {
    const c = src[i];
    if (c === '\n') {
      line++;
      i++;
      lineStart = i;
      bol = true;
      continue;
    }
    if (c === '\\' && src[i + 1] === '\n') {
      i += 2;
      line++;
      lineStart = i;
      continue;
    }
    if (c === '\\' && src[i + 1] === '\r' && src[i + 2] === '\n') {
      i += 3;
      line++;
      lineStart = i;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v') {
      i++;
      continue;
    }
    if (c === '/' && src[i + 1] === '/') {
      while (i < n && src[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && src[i + 1] === '*') {
      const at: SourcePos = { file, line, col: i - lineStart + 1 };
      const end = src.indexOf('*/', i + 2);
      const stop = end < 0 ? n : end + 2;
      for (let k = i; k < stop; k++)
        if (src[k] === '\n') {
          line++;
          lineStart = k + 1;
        }
      if (end < 0) fail(at, 'unterminated comment');
      i = stop;
      continue;
    }
    const pos: SourcePos = { file, line, col: i - lineStart + 1 };
    const start = i;
    let kind: TokKind;
    if (/[A-Za-z_$]/.test(c)) {
      while (i < n && /[A-Za-z0-9_$]/.test(src[i])) i++;
      kind = 'id';
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      while (i < n && (/[A-Za-z0-9_.]/.test(src[i]) || (/[eEpP]/.test(src[i - 1]) && /[+-]/.test(src[i])))) i++;
      kind = 'num';
    } else if (c === '"' || c === "'") {
      i++;
      while (i < n && src[i] !== c && src[i] !== '\n') i += src[i] === '\\' ? 2 : 1;
      if (src[i] !== c) fail(pos, `unterminated ${c === '"' ? 'string' : 'character'} literal`);
      i++;
      kind = c === '"' ? 'str' : 'chr';
    } else {
      const p = PUNCTS.find((q) => src.startsWith(q, i));
      i += p ? p.length : 1;
      kind = p || /[{}()[\];,.<>=+\-*/%&|^!~?:#]/.test(c) ? 'punct' : 'other';
    }
    toks.push({ text: src.slice(start, i), kind, pos, bol, system });
    bol = false;
  }
  return toks;
}

interface Macro {
  name: string;
  params: string[] | null; // null: object-like
  variadic: boolean;
  body: Token[];
}

/** Macros predefined for every file (the file may redefine or #undef them). */
const PREDEFINED = `
#define NULL ((void *)0)
#define PTHREAD_MUTEX_INITIALIZER { 0 }
#define PTHREAD_COND_INITIALIZER { 0 }
#define PTHREAD_RWLOCK_INITIALIZER { 0 }
#define PTHREAD_ONCE_INIT 0
#define PTHREAD_BARRIER_SERIAL_THREAD (-1)
#define EPERM 1
#define EAGAIN 11
#define EBUSY 16
#define EINVAL 22
#define EDEADLK 35
#define ETIMEDOUT 110
#define __ATOMIC_RELAXED 0
#define __ATOMIC_CONSUME 1
#define __ATOMIC_ACQUIRE 2
#define __ATOMIC_RELEASE 3
#define __ATOMIC_ACQ_REL 4
#define __ATOMIC_SEQ_CST 5
#define ATOMIC_VAR_INIT(v) (v)
#define ATOMIC_FLAG_INIT { 0 }
#define __STDC__ 1
#define __STDC_VERSION__ 201112L
#define __extension__
`;
const STDBOOL = `
#define bool _Bool
#define true 1
#define false 0
`;

const MAX_INCLUDE_DEPTH = 32;

export interface PreprocessOptions {
  /** Extra `#define`s, e.g. `{ N: '3' }`. */
  defines?: Record<string, string>;
}

/** Preprocesses a file (already read as text) into tokens with positions. */
export function preprocess(source: string, file: string, opts: PreprocessOptions = {}): Preprocessed {
  const pp = new Preprocessor();
  pp.define(PREDEFINED);
  for (const [k, v] of Object.entries(opts.defines ?? {})) pp.define(`#define ${k} ${v}\n`);
  pp.run(tokenize(source, file, false), file, 0);
  return { ...layOut(pp.out), systemIncludes: pp.systemIncludes, marked: pp.marked };
}

/** The output tokens as one text, a token per offset, each with its position and whether a system header gave it. */
function layOut(out: readonly Token[]): Pick<Preprocessed, 'text' | 'offsets' | 'positions' | 'system'> {
  let text = '';
  const offsets: number[] = [];
  const positions: SourcePos[] = [];
  const system: boolean[] = [];
  let prev: SourcePos | null = null;
  for (const t of out) {
    if (prev) text += prev.line !== t.pos.line || prev.file !== t.pos.file ? '\n' : ' ';
    offsets.push(text.length);
    positions.push(t.pos);
    system.push(t.system);
    text += t.text;
    prev = t.pos;
  }
  return { text, offsets, positions, system };
}

/** One file as it is read: its open conditionals, the line marker in force, the text tokens not yet expanded. */
class FileScan {
  /** Each open #if: whether its current group is active, whether a branch was taken, whether the group around it is active. */
  readonly cond: { active: boolean; taken: boolean; outerActive: boolean }[] = [];
  lineDelta: { physical: number; mapped: number; file: string; system: boolean } | null = null;
  pending: Token[] = [];

  constructor(readonly file: string) {}

  active(): boolean {
    return this.cond.length === 0 || this.cond[this.cond.length - 1].active;
  }

  /** The token at the position the line marker in force gives it. */
  readonly mapPos = (t: Token): Token => {
    const d = this.lineDelta;
    if (!d) return t;
    const pos = { file: d.file, line: d.mapped + (t.pos.line - d.physical), col: t.pos.col };
    return { ...t, pos, system: d.system };
  };
}

/** The macros and the output of one preprocessing run, through every file it includes. */
class Preprocessor {
  readonly macros = new Map<string, Macro>();
  readonly systemIncludes = new Set<string>();
  readonly out: Token[] = [];
  /** Some line marker was read (the input was preprocessed before). */
  marked = false;

  define(src: string): void {
    this.run(tokenize(src, '<built-in>', true), '<built-in>', 0);
  }

  /** Reads the tokens of `file` (included `depth` deep): directives act, active text is macro-expanded into the output. */
  run(toks: Token[], file: string, depth: number): void {
    const scan = new FileScan(file);
    let i = 0;
    while (i < toks.length) {
      const t = toks[i];
      if (t.text === '#' && t.bol) {
        // A directive: the tokens up to the end of this physical line.
        let j = i + 1;
        while (j < toks.length && !toks[j].bol) j++;
        const line = toks.slice(i + 1, j).map(scan.mapPos);
        i = j;
        const here = scan.mapPos(t).pos;
        if (!this.conditional(scan, line, here) && scan.active()) this.directive(scan, line, t, here, depth);
        continue;
      }
      if (scan.active()) scan.pending.push(scan.mapPos(t));
      i++;
    }
    this.flush(scan);
    if (scan.cond.length) fail({ file, line: toks[toks.length - 1]?.pos.line ?? 1, col: 1 }, 'unterminated #if');
  }

  /** The text read so far, macro-expanded into the output. */
  private flush(scan: FileScan): void {
    if (scan.pending.length) append(this.out, expand(scan.pending, this.macros));
    scan.pending = [];
  }

  /** #if, #ifdef, #ifndef, #elif, #else, #endif (also in a skipped group); false for any other directive. */
  private conditional(scan: FileScan, line: Token[], here: SourcePos): boolean {
    const name = line[0]?.text ?? '';
    const args = line.slice(1);
    const { cond } = scan;
    if (name === 'if' || name === 'ifdef' || name === 'ifndef') {
      const outer = scan.active();
      let v = false;
      if (outer) {
        if (name === 'if') v = evalCondition(args, this.macros, here);
        else {
          if (args[0]?.kind !== 'id') fail(here, `#${name} needs a macro name`);
          v = this.macros.has(args[0].text) === (name === 'ifdef');
        }
      }
      cond.push({ active: outer && v, taken: v, outerActive: outer });
    } else if (name === 'elif') {
      const top = cond[cond.length - 1] ?? fail(here, '#elif without #if');
      const v = top.outerActive && !top.taken && evalCondition(args, this.macros, here);
      top.active = v;
      top.taken ||= v;
    } else if (name === 'else') {
      const top = cond[cond.length - 1] ?? fail(here, '#else without #if');
      top.active = top.outerActive && !top.taken;
      top.taken = true;
    } else if (name === 'endif') {
      if (!cond.pop()) fail(here, '#endif without #if');
    } else return false;
    return true;
  }

  /** Any other directive, in an active group; `hash` is its `#`. */
  private directive(scan: FileScan, line: Token[], hash: Token, here: SourcePos, depth: number): void {
    const name = line[0]?.text ?? '';
    const args = line.slice(1);
    if (name === 'define') {
      this.flush(scan);
      defineMacro(args, this.macros, here);
    } else if (name === 'undef') {
      if (args[0]) this.macros.delete(args[0].text);
    } else if (name === 'include') {
      this.flush(scan);
      this.include(args, here, depth);
    } else if (name === 'line' || (line[0]?.kind === 'num' && name !== '')) {
      // Line marker: `# 12 "file.h" 1 3` (from cpp) or `#line 12 "file.h"`.
      const nums = name === 'line' ? args : line;
      const mapped = Number.parseInt(nums[0]?.text ?? '', 10);
      if (!Number.isFinite(mapped)) fail(here, 'malformed line marker');
      const named: string = nums[1]?.kind === 'str' ? (JSON.parse(nums[1].text) as string) : (scan.lineDelta?.file ?? scan.file);
      const flags = nums.slice(2).map((x) => x.text);
      const sys = flags.includes('3') || /^(\/usr\/|<built-in>|<command-line>)/.test(named);
      scan.lineDelta = { physical: hash.pos.line + 1, mapped, file: named, system: sys };
      this.marked = true;
    } else if (name === 'error') {
      fail(here, `#error ${args.map((a) => a.text).join(' ')}`);
    } else if (name !== 'pragma' && name !== 'warning' && name !== 'ident' && name !== '') {
      // #pragma, #warning, #ident and a lone # have no effect on the model.
      fail(here, `unknown preprocessing directive #${name}`);
    }
  }

  /** #include: a system header is known by name (stdbool.h defines its macros); a file of the program is read in place. */
  private include(args: Token[], here: SourcePos, depth: number): void {
    const target = includeTarget(args, this.macros, here);
    if (target.system) {
      this.systemIncludes.add(target.name);
      if (target.name === 'stdbool.h') this.define(STDBOOL);
      return;
    }
    if (depth >= MAX_INCLUDE_DEPTH) fail(here, `#include nested more than ${MAX_INCLUDE_DEPTH} deep`);
    const path = resolve(dirname(here.file), target.name);
    if (!existsSync(path)) fail(here, `cannot find include file "${target.name}"`);
    this.run(tokenize(readFileSync(path, 'utf8'), path, false), path, depth + 1);
  }
}

function defineMacro(args: Token[], macros: Map<string, Macro>, here: SourcePos): void {
  const nameTok = args[0];
  if (!nameTok || nameTok.kind !== 'id') fail(here, '#define needs a macro name');
  let params: string[] | null = null;
  let variadic = false;
  let k = 1;
  // Function-like only when `(` follows the name with no space in between.
  if (args[1]?.text === '(' && args[1].pos.line === nameTok.pos.line && args[1].pos.col === nameTok.pos.col + nameTok.text.length) {
    params = [];
    k = 2;
    while (k < args.length && args[k].text !== ')') {
      const p = args[k];
      if (p.text === '...') {
        variadic = true;
        params.push('__VA_ARGS__');
      } else if (p.kind === 'id') params.push(p.text);
      else if (p.text !== ',') fail(p.pos, `unexpected '${p.text}' in macro parameters`);
      k++;
    }
    if (args[k]?.text !== ')') fail(here, 'unterminated macro parameter list');
    k++;
  }
  macros.set(nameTok.text, { name: nameTok.text, params, variadic, body: args.slice(k) });
}

function includeTarget(args: Token[], macros: Map<string, Macro>, here: SourcePos): { name: string; system: boolean } {
  let toks = args;
  if (toks[0] && toks[0].kind === 'id') toks = expand(toks, macros);
  if (toks[0]?.kind === 'str') return { name: JSON.parse(toks[0].text) as string, system: false };
  if (toks[0]?.text === '<') {
    const end = toks.findIndex((t) => t.text === '>');
    if (end > 0) return { name: toks.slice(1, end).map((t) => t.text).join(''), system: true };
  }
  return fail(here, 'malformed #include');
}

/**
 * Macros expanding inside macros deeper than this are refused with a located error: each
 * expanded token carries the set of macros it came through, and expansion recurses once
 * per level, so a chain of n `#define`s each naming the next takes time and memory n²
 * (20,000 take over 4 GB). Real headers nest a few dozen deep.
 */
export const MAX_MACRO_NESTING = 1_000;

/** Appends xs to out: `out.push(...xs)` passes xs as arguments, and throws past about 100,000 of them. */
function append<T>(out: T[], xs: readonly T[]): void {
  for (const x of xs) out.push(x);
}

/** Expands macros in a token list (recursively, with each macro disabled inside itself). */
function expand(toks: Token[], macros: Map<string, Macro>): Token[] {
  const res: Token[] = [];
  let i = 0;
  while (i < toks.length) {
    const t = toks[i];
    const m = t.kind === 'id' ? macros.get(t.text) : undefined;
    if (!m || t.hide?.has(m.name)) {
      res.push(t);
      i++;
      continue;
    }
    const hide = new Set(t.hide ?? []);
    hide.add(m.name);
    if (hide.size > MAX_MACRO_NESTING) fail(t.pos, `macro expansion nested deeper than ${MAX_MACRO_NESTING} macros: rely's limit`);
    if (m.params === null) {
      const body = m.body.map((b) => ({ ...b, pos: t.pos, system: t.system, hide }));
      append(res, expand(paste(body), macros));
      i++;
      continue;
    }
    if (toks[i + 1]?.text !== '(') {
      res.push(t); // a function-like macro name without arguments is an ordinary identifier
      i++;
      continue;
    }
    // Collect arguments, respecting nested parentheses.
    const argsList: Token[][] = [[]];
    let depth = 0;
    let j = i + 2;
    for (; j < toks.length; j++) {
      const a = toks[j];
      if (a.text === '(') depth++;
      else if (a.text === ')') {
        if (depth === 0) break;
        depth--;
      } else if (a.text === ',' && depth === 0 && !(m.variadic && argsList.length >= m.params.length)) {
        argsList.push([]);
        continue;
      }
      argsList[argsList.length - 1].push(a);
    }
    if (j >= toks.length) fail(t.pos, `unterminated call of macro '${m.name}'`);
    if (m.params.length === 0 && argsList.length === 1 && argsList[0].length === 0) argsList.pop();
    if (m.variadic && argsList.length === m.params.length - 1) argsList.push([]);
    if (argsList.length !== m.params.length)
      fail(t.pos, `macro '${m.name}' takes ${m.params.length} argument(s), given ${argsList.length}`);
    const body: Token[] = [];
    for (let k = 0; k < m.body.length; k++) {
      const b = m.body[k];
      const pi = b.kind === 'id' ? m.params.indexOf(b.text) : -1;
      if (b.text === '#' && m.body[k + 1] && m.params.includes(m.body[k + 1].text)) {
        const arg = argsList[m.params.indexOf(m.body[k + 1].text)];
        body.push({ text: JSON.stringify(arg.map((a) => a.text).join(' ')), kind: 'str', pos: t.pos, bol: false, system: t.system, hide });
        k++;
      } else if (pi >= 0) {
        const raw = argsList[pi];
        const nextIsPaste = m.body[k + 1]?.text === '##' || m.body[k - 1]?.text === '##';
        append(body, (nextIsPaste ? raw : expand(raw, macros)).map((a) => ({ ...a, hide: new Set([...(a.hide ?? []), ...hide]) })));
      } else body.push({ ...b, pos: t.pos, system: t.system, hide });
    }
    append(res, expand(paste(body), macros));
    i = j + 1;
  }
  return res;
}

/** Applies `##` token pasting. */
function paste(toks: Token[]): Token[] {
  if (!toks.some((t) => t.text === '##')) return toks;
  const res: Token[] = [];
  for (let i = 0; i < toks.length; i++) {
    if (toks[i].text === '##' && res.length && toks[i + 1]) {
      const left = res.pop()!;
      const text = left.text + toks[i + 1].text;
      res.push({ ...left, text, kind: /^[A-Za-z_]/.test(text) ? 'id' : left.kind });
      i++;
    } else res.push(toks[i]);
  }
  return res;
}

/** Evaluates the controlling expression of #if / #elif. */
function evalCondition(args: Token[], macros: Map<string, Macro>, here: SourcePos): boolean {
  // Resolve `defined X` / `defined(X)` before expansion.
  const pre: Token[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i].text === 'defined') {
      const paren = args[i + 1]?.text === '(';
      const name = args[i + (paren ? 2 : 1)];
      if (!name) fail(here, "'defined' needs a macro name");
      pre.push({ ...name, text: macros.has(name.text) ? '1' : '0', kind: 'num' });
      i += paren ? 3 : 1;
    } else pre.push(args[i]);
  }
  const toks = expand(pre, macros).map((t) => (t.kind === 'id' ? { ...t, text: '0', kind: 'num' as TokKind } : t));
  let k = 0;
  const peek = (): string => toks[k]?.text ?? '';
  const bin: Record<string, [number, (a: bigint, b: bigint) => bigint]> = {
    '||': [1, (a, b) => (a || b ? 1n : 0n)],
    '&&': [2, (a, b) => (a && b ? 1n : 0n)],
    '|': [3, (a, b) => a | b],
    '^': [4, (a, b) => a ^ b],
    '&': [5, (a, b) => a & b],
    '==': [6, (a, b) => (a === b ? 1n : 0n)],
    '!=': [6, (a, b) => (a !== b ? 1n : 0n)],
    '<': [7, (a, b) => (a < b ? 1n : 0n)],
    '>': [7, (a, b) => (a > b ? 1n : 0n)],
    '<=': [7, (a, b) => (a <= b ? 1n : 0n)],
    '>=': [7, (a, b) => (a >= b ? 1n : 0n)],
    '<<': [8, (a, b) => a << b],
    '>>': [8, (a, b) => a >> b],
    '+': [9, (a, b) => a + b],
    '-': [9, (a, b) => a - b],
    '*': [10, (a, b) => a * b],
    '/': [10, (a, b) => (b === 0n ? fail(here, 'division by zero in #if') : a / b)],
    '%': [10, (a, b) => (b === 0n ? fail(here, 'division by zero in #if') : a % b)],
  };
  const primary = (): bigint => {
    const t = toks[k++];
    if (!t) return fail(here, 'incomplete #if expression');
    if (t.text === '(') {
      const v = expr(1);
      if (toks[k++]?.text !== ')') fail(here, "missing ')' in #if expression");
      return v;
    }
    if (t.text === '!') return primary() ? 0n : 1n;
    if (t.text === '-') return -primary();
    if (t.text === '+') return primary();
    if (t.text === '~') return ~primary();
    if (t.kind === 'num') return parseIntLiteral(t.text, t.pos);
    if (t.kind === 'chr') return charValue(t.text);
    return fail(t.pos, `unexpected '${t.text}' in #if expression`);
  };
  const expr = (minPrec: number): bigint => {
    let left = primary();
    for (;;) {
      const op = peek();
      if (op === '?' && minPrec <= 1) {
        k++;
        const a = expr(1);
        if (toks[k++]?.text !== ':') fail(here, "missing ':' in #if expression");
        const b = expr(1);
        left = left ? a : b;
        continue;
      }
      const entry = bin[op];
      if (!entry || entry[0] < minPrec) return left;
      k++;
      const right = expr(entry[0] + 1);
      left = entry[1](left, right);
    }
  };
  try {
    const v = expr(1);
    if (k < toks.length) fail(toks[k].pos, `unexpected '${toks[k].text}' in #if expression`);
    return v !== 0n;
  } catch (e) {
    if (e instanceof InputError) throw e;
    return fail(here, `cannot evaluate #if expression: ${(e as Error).message}`);
  }
}

/** Value of a C integer literal (decimal, octal, hex, with u/l suffixes). */
export function parseIntLiteral(text: string, pos: SourcePos): bigint {
  const m = /^(0[xX][0-9a-fA-F]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)([uUlL]*)$/.exec(text);
  if (!m) return fail(pos, `unsupported: numeric literal '${text}' (only integer literals are modelled)`);
  const body = m[1];
  if (/^0[0-7]+$/.test(body)) return BigInt('0o' + body.slice(1));
  return BigInt(body);
}

/** Value of a C character literal such as 'a' or '\n'. */
export function charValue(text: string): bigint {
  const inner = text.slice(1, -1);
  const escapes: Record<string, number> = { n: 10, t: 9, r: 13, '0': 0, '\\': 92, "'": 39, '"': 34, a: 7, b: 8, f: 12, v: 11 };
  if (inner.startsWith('\\')) {
    const e = inner.slice(1);
    if (/^x[0-9a-fA-F]+$/.test(e)) return BigInt('0x' + e.slice(1));
    if (/^[0-7]{1,3}$/.test(e)) return BigInt('0o' + e);
    return BigInt(escapes[e] ?? e.charCodeAt(0));
  }
  return BigInt(inner.codePointAt(0) ?? 0);
}

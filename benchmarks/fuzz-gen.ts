/**
 * The fuzz suite's inputs, each a function of (seed, index) alone: half are
 * programs of the C dialect generated from its grammar (globals of every integer type,
 * arrays, mutexes, thread functions, pthread_create/join, atomic sections, nondet
 * values, assume, assert/reach_error, if/while/for/switch/goto, calls, casts, huge
 * literals, deep nesting), half are the bundled programs (benchmarks/programs/**)
 * mutated: tokens deleted, duplicated or swapped, operators and keywords replaced,
 * the file truncated, random bytes, huge literals or deep nesting inserted, lines
 * shuffled. fast-check draws every choice; fc.sample with the case's own seed makes a
 * case reproducible from (seed, index) without the ones before it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import fc from 'fast-check';
import { ROOT } from './bench.js';

export interface FuzzCase {
  readonly index: number;
  /** 'generated' or 'mutated:<program>'. */
  readonly origin: string;
  /** What was done to it (the mutations, or the generator's shape). */
  readonly how: string;
  /** File extension of the input: '.c' or '.i'. */
  readonly ext: string;
  readonly text: string;
}

// ---------------------------------------------------------------- generation

const INT_TYPES = ['int', 'unsigned', 'unsigned int', 'char', 'unsigned char', 'signed char', 'short', 'unsigned short', 'long', 'unsigned long', 'long long', '_Bool'];
const HUGE = ['99999999999999999999', '18446744073709551615', '18446744073709551616', '9223372036854775807', '9223372036854775808', '4294967295u', '4294967296', '2147483647', '2147483648', '-2147483648', '0x7fffffff', '0xffffffff', '0xFFFFFFFFFFFFFFFF', '0x1ffffffffffffffff', '0777', '1e9', "'\\xff'", "'a'", "'\\0'", '0UL', '1LL', '123456789012345678901234567890'];
const BINOPS = ['+', '-', '*', '==', '!=', '<', '<=', '>', '>=', '&&', '||'];
/** Outside the model (refused with a located message): rare, to keep most programs verifiable. */
const BITOPS = ['<<', '>>', '&', '|', '^'];
const UNOPS = ['-', '!', '+', '-', '!'];
const CASTS = ['int', 'unsigned', 'char', 'unsigned char', 'short', 'long', '_Bool', 'unsigned long long'];

interface Scope {
  readonly vars: readonly string[];
  readonly arrays: readonly { name: string; size: number }[];
  readonly mutexes: readonly string[];
  readonly funcs: readonly string[];
  /** Bit operations (outside the model: a located refusal) in this program. */
  readonly bits: boolean;
}

function expr(s: Scope, depth: number): fc.Arbitrary<string> {
  const leaves: fc.Arbitrary<string>[] = [
    fc.integer({ min: -3, max: 10 }).map(String),
    fc.constantFrom(...HUGE.filter((h) => h !== '1e9')),
    fc.constantFrom(...s.vars),
    fc.constant('__VERIFIER_nondet_int()'),
  ];
  if (depth <= 0) return fc.oneof(...leaves);
  const sub = expr(s, depth - 1);
  return fc.oneof(
    { arbitrary: fc.oneof(...leaves), weight: 80 },
    { arbitrary: fc.tuple(sub, fc.constantFrom(...BINOPS), sub).map(([a, op, b]) => `(${a} ${op} ${b})`), weight: 80 },
    // Division: mostly by a nonzero constant (a constant zero divisor is a located refusal).
    { arbitrary: fc.tuple(sub, fc.constantFrom('/', '%'), fc.oneof({ arbitrary: fc.integer({ min: 1, max: 7 }).map(String), weight: 9 }, { arbitrary: sub, weight: 1 })).map(([a, op, b]) => `(${a} ${op} ${b})`), weight: 20 },
    { arbitrary: fc.tuple(fc.constantFrom(...UNOPS), sub).map(([op, a]) => `${op}(${a})`), weight: 20 },
    { arbitrary: fc.tuple(sub, fc.constantFrom(...BITOPS, '~'), sub).map(([a, op, b]) => (op === '~' ? `~${a}` : `(${a} ${op} ${b})`)), weight: 1 },
    { arbitrary: fc.tuple(fc.constantFrom(...CASTS), sub).map(([t, a]) => `((${t}) ${a})`), weight: 20 },
    { arbitrary: fc.tuple(sub, sub, sub).map(([c, a, b]) => `(${c} ? ${a} : ${b})`), weight: 20 },
    ...(s.arrays.length ? [{ arbitrary: fc.tuple(fc.constantFrom(...s.arrays), sub).map(([a, i]) => `${a.name}[${i}]`), weight: 20 }] : []),
    ...(s.arrays.length ? [{ arbitrary: fc.tuple(fc.constantFrom(...s.arrays), fc.nat(4)).map(([a, i]) => `${a.name}[${i % a.size}]`), weight: 20 }] : []),
    ...(s.funcs.length ? [{ arbitrary: fc.tuple(fc.constantFrom(...s.funcs), sub).map(([f, a]) => `${f}(${a})`), weight: 20 }] : []),
  );
}

function lvalue(s: Scope): fc.Arbitrary<string> {
  const vars = fc.constantFrom(...s.vars);
  if (!s.arrays.length) return vars;
  return fc.oneof(vars, fc.tuple(fc.constantFrom(...s.arrays), fc.nat(4)).map(([a, i]) => `${a.name}[${i % a.size}]`));
}

const indent = (body: string): string => body.split('\n').map((l) => (l ? `  ${l}` : l)).join('\n');
const block = (stmts: readonly string[]): string => `{\n${indent(stmts.join('\n'))}\n}`;

function stmt(s: Scope, depth: number, inLoop: boolean): fc.Arbitrary<string> {
  const e = expr(s, 2);
  const simple: fc.Arbitrary<string>[] = [
    fc.tuple(lvalue(s), fc.oneof({ arbitrary: fc.constantFrom('=', '=', '=', '+=', '-=', '*=', '/=', '%='), weight: 50 }, { arbitrary: fc.constantFrom('|=', '&=', '^=', '<<=', '>>='), weight: s.bits ? 5 : 0 }), e).map(([l, op, r]) => `${l} ${op} ${r};`),
    fc.tuple(lvalue(s), fc.constantFrom('++', '--')).map(([l, op]) => `${l}${op};`),
    e.map((c) => `if (!(${c})) reach_error();`),
    e.map((c) => `__VERIFIER_assume(${c});`),
    e.map((c) => `assert(${c});`),
    fc.constantFrom(...s.mutexes).map((m) => `pthread_mutex_lock(&${m});`),
    fc.constantFrom(...s.mutexes).map((m) => `pthread_mutex_unlock(&${m});`),
    fc.constantFrom(';', 'reach_error();'),
  ];
  if (s.funcs.length) simple.push(fc.tuple(fc.constantFrom(...s.funcs), e).map(([f, a]) => `${f}(${a});`));
  if (inLoop) simple.push(fc.constantFrom('break;', 'continue;'));
  if (depth <= 0) return fc.oneof(...simple);
  const body = (loop: boolean) => fc.array(stmt(s, depth - 1, loop), { minLength: 0, maxLength: 3 }).map(block);
  return fc.oneof(
    { arbitrary: fc.oneof(...simple), weight: 6 },
    { arbitrary: fc.tuple(e, body(inLoop), fc.option(body(inLoop))).map(([c, a, b]) => `if (${c}) ${a}${b === null ? '' : ` else ${b}`}`), weight: 2 },
    { arbitrary: fc.tuple(fc.nat(4), body(true)).map(([n, b]) => `for (int i${depth} = 0; i${depth} < ${n}; i${depth}++) ${b}`), weight: 1 },
    { arbitrary: fc.tuple(e, body(true)).map(([c, b]) => `while (${c}) ${b}`), weight: 1 },
    {
      arbitrary: fc.tuple(e, fc.array(fc.tuple(fc.integer({ min: -2, max: 5 }), body(inLoop), fc.boolean()), { maxLength: 3 }), fc.option(body(inLoop))).map(
        ([c, cases, dflt]) => `switch (${c}) {\n${cases.map(([k, b, brk]) => `case ${k}: ${b}${brk ? ' break;' : ''}`).join('\n')}${dflt === null ? '' : `\ndefault: ${dflt}`}\n}`,
      ),
      weight: 1,
    },
    { arbitrary: fc.tuple(fc.nat(1_000_000), body(inLoop)).map(([k, b]) => `L${depth}_${k}: ${b}\nif (__VERIFIER_nondet_int()) goto L${depth}_${k};`), weight: 1 },
    { arbitrary: fc.tuple(fc.constantFrom(...s.mutexes), body(inLoop)).map(([m, b]) => `pthread_mutex_lock(&${m});\n${b}\npthread_mutex_unlock(&${m});`), weight: 1 },
    // No loops in an atomic section (a located refusal): simple statements only.
    { arbitrary: fc.array(fc.oneof(...simple), { maxLength: 3 }).map((b) => `__VERIFIER_atomic_begin();\n${block(b)}\n__VERIFIER_atomic_end();`), weight: 1 },
  );
}

/** Deep nesting of one kind, `n` deep, around a statement or expression. */
const deep = (kind: number, n: number, inner: string): string => {
  switch (kind % 6) {
    case 0: return `x0 = ${'('.repeat(n)}${inner}${')'.repeat(n)};`;
    case 1: return `${'{'.repeat(n)} x0 = ${inner}; ${'}'.repeat(n)}`;
    // Statements nested without brackets: past ~5,000 the frontend takes longer than a hang's limit (a known limit, measured in test/benchmarks/fuzz.test.ts), so at most 3,000.
    case 2: return `${'if (x0 >= 0) '.repeat(Math.min(n, 3000))}x0 = ${inner};`;
    case 3: return `x0 = ${'-'.repeat(0) + '!-~'.repeat(Math.ceil(n / 3)).slice(0, n)}(${inner});`;
    case 4: return `x0 = ${inner}${' + 1'.repeat(n)};`;
    // Nested ?: grow superlinearly in the frontend and the explicit engine's compilation (600 deep: over a minute; a known limit, measured in test/benchmarks/fuzz.test.ts): at most 60.
    default: return `x0 = ${'(x0 ? '.repeat(Math.min(n, 60))}${inner}${' : 0)'.repeat(Math.min(n, 60))};`;
  }
};

const PRELUDES = [
  '#include <pthread.h>\n#include <assert.h>\nextern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\nextern void __VERIFIER_assume(int);\nextern void __VERIFIER_atomic_begin(void);\nextern void __VERIFIER_atomic_end(void);\n',
  'extern void abort(void);\nextern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));\nvoid reach_error() { __assert_fail("0", "gen.c", 3, "reach_error"); }\n#include <pthread.h>\nextern int __VERIFIER_nondet_int(void);\nextern void __VERIFIER_assume(int);\n#undef assert\n#define assert(e) if (!(e)) ERROR: reach_error()\n',
  '#include <pthread.h>\nvoid reach_error(void) {}\nint __VERIFIER_nondet_int(void);\nvoid __VERIFIER_assume(int cond);\nvoid assert(int cond) { if (!cond) { ERROR: reach_error(); } }\n',
];

const generated: fc.Arbitrary<FuzzCase> = fc
  .record({
    prelude: fc.nat(PRELUDES.length - 1),
    types: fc.array(fc.constantFrom(...INT_TYPES), { minLength: 1, maxLength: 4 }),
    inits: fc.array(fc.oneof(fc.integer({ min: -2, max: 3 }).map(String), fc.constantFrom(...HUGE)), { minLength: 4, maxLength: 4 }),
    arrays: fc.array(fc.integer({ min: 1, max: 4 }), { maxLength: 2 }),
    mutexes: fc.integer({ min: 1, max: 2 }),
    threads: fc.integer({ min: 1, max: 3 }),
    helper: fc.boolean(),
    bits: fc.nat(19).map((k) => k === 0),
    // Deep nesting in one case of 8.
    deepKind: fc.oneof({ arbitrary: fc.constant(null), weight: 7 }, { arbitrary: fc.tuple(fc.nat(5), fc.constantFrom(2, 10, 50, 200, 1000, 3000, 9999, 10_001, 12_000)), weight: 1 }),
    seedBodies: fc.array(fc.nat(), { minLength: 4, maxLength: 4 }),
  })
  .chain((g) => {
    const globals = g.types.map((t, i) => ({ t, name: `x${i}` }));
    const arrays = g.arrays.map((size, i) => ({ name: `a${i}`, size }));
    const mutexes = Array.from({ length: g.mutexes }, (_, i) => `m${i}`);
    const scope: Scope = { vars: globals.map((v) => v.name), arrays, mutexes, funcs: g.helper ? ['f'] : [], bits: g.bits };
    const bodies = fc.array(fc.array(stmt(scope, 2, false), { minLength: 1, maxLength: 5 }), { minLength: g.threads + 1, maxLength: g.threads + 1 });
    return fc.tuple(fc.constant(g), bodies, expr(scope, 2)).map(([g2, bs, inner]) => {
      const lines = [PRELUDES[g2.prelude]];
      for (const [i, v] of globals.entries()) lines.push(`${v.t} ${v.name} = ${g2.inits[i]};`);
      for (const a of arrays) lines.push(`int ${a.name}[${a.size}];`);
      for (const m of mutexes) lines.push(`pthread_mutex_t ${m} = PTHREAD_MUTEX_INITIALIZER;`);
      if (g2.helper) lines.push(`int f(int p) {\n  if (p > 2) return p / 2;\n  return p % 3 + x0;\n}`);
      for (let t = 0; t < g2.threads; t++) lines.push(`void *t${t}(void *arg) ${block([...bs[t], 'return 0;'])}`);
      const main = [
        ...Array.from({ length: g2.threads }, (_, t) => `pthread_t h${t};`),
        ...Array.from({ length: g2.threads }, (_, t) => `pthread_create(&h${t}, 0, t${t}, 0);`),
        ...(g2.deepKind ? [deep(g2.deepKind[0], g2.deepKind[1], inner)] : []),
        ...bs[g2.threads],
        ...Array.from({ length: g2.threads }, (_, t) => `pthread_join(h${t}, 0);`),
        'return 0;',
      ];
      lines.push(`int main(void) ${block(main)}`);
      const how = `generated: ${g2.threads} thread(s), ${globals.length} global(s)${g2.deepKind ? `, nesting kind ${g2.deepKind[0]} depth ${g2.deepKind[1]}` : ''}`;
      return { index: -1, origin: 'generated', how, ext: '.c', text: lines.join('\n') + '\n' };
    });
  });

// ---------------------------------------------------------------- mutation

/** The bundled programs (benchmarks/programs/**, *.c and *.i), sorted by path: the same list on every machine. */
export function bundledPrograms(root = join(ROOT, 'benchmarks', 'programs')): { path: string; text: string }[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(c|i)$/.test(name)) found.push(p);
    }
  };
  walk(root);
  return found.map((p) => ({ path: p, text: readFileSync(p, 'latin1') }));
}

/** Tokens of C, roughly (comments, literals, names, numbers, operators, spaces): enough to cut and splice. */
const TOKEN = /\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|[A-Za-z_]\w*|\d[\w.]*|\s+|<<=|>>=|->|\+\+|--|&&|\|\||[<>=!+\-*/%&|^]=|<<|>>|[\s\S]/g;
const tokens = (text: string): string[] => text.match(TOKEN) ?? [];
const OPS = ['+', '-', '*', '/', '%', '<<', '>>', '&', '|', '^', '==', '!=', '<', '<=', '>', '>=', '&&', '||', '=', '+=', '-=', '!', '~', '++', '--', '?', ':', ',', ';', '->', '.'];
const KEYWORDS = ['if', 'else', 'while', 'for', 'do', 'switch', 'case', 'default', 'break', 'continue', 'goto', 'return', 'int', 'unsigned', 'char', 'void', 'struct', 'union', 'enum', 'typedef', 'static', 'extern', 'const', 'volatile', 'sizeof', 'long', 'short', '_Bool', 'pthread_create', 'pthread_join', 'pthread_mutex_lock', 'pthread_mutex_unlock', '__VERIFIER_atomic_begin', '__VERIFIER_atomic_end', '__VERIFIER_nondet_int', '__VERIFIER_assume', 'reach_error', 'assert', 'main', '#include', '#define', '#if', '#endif', '#undef', '#'];
const SIGNIFICANT = (t: string): boolean => !/^\s/.test(t) && !t.startsWith('/*') && !t.startsWith('//');

type Mutation = { op: number; at: number; n: number; pick: number; bytes: readonly number[] };

/** Where a mutation works: the text, its tokens (changed in place), the indices of the significant ones, the token it is at. */
interface Site {
  readonly text: string;
  readonly ts: string[];
  readonly sig: readonly number[];
  readonly at: number;
  readonly m: Mutation;
}
type Mutated = { text: string; how: string };

/** The text with `s` inserted before token `where`. */
function insert(c: Site, s: string, where = c.at): string {
  c.ts.splice(where, 0, s);
  return c.ts.join('');
}

/** One of the tokens at `candidates` (by m.at) replaced by an entry of `table` (by m.pick). */
function replaceToken(c: Site, candidates: readonly number[], table: readonly string[], what: string): Mutated {
  const i = candidates[c.m.at % candidates.length];
  const to = table[c.m.pick % table.length];
  c.ts[i] = to;
  return { text: c.ts.join(''), how: `${what} at token ${i} replaced by ${to}` };
}

/** 1 to 4 tokens from the site on. */
const span = (c: Site): number => 1 + (c.m.n % 4);

const deleteTokens = (c: Site): Mutated => {
  c.ts.splice(c.at, span(c));
  return { text: c.ts.join(''), how: `deleted ${span(c)} token(s) at token ${c.at}` };
};

const duplicateTokens = (c: Site): Mutated => ({ text: insert(c, c.ts.slice(c.at, c.at + span(c)).join('')), how: `duplicated ${span(c)} token(s) at token ${c.at}` });

const replaceOperator = (c: Site): Mutated => {
  const ops = c.sig.filter((i) => OPS.includes(c.ts[i]));
  return ops.length ? replaceToken(c, ops, OPS, 'operator') : { text: c.text, how: 'no operator to swap' };
};

const truncate = (c: Site): Mutated => {
  const cut = c.m.at % (c.text.length + 1);
  return { text: c.text.slice(0, cut), how: `truncated at byte ${cut}` };
};

const insertBytes = (c: Site): Mutated => {
  const bytes = c.m.bytes.map((b) => b & 0xff);
  return { text: insert(c, Buffer.from(bytes).toString('latin1')), how: `random bytes [${bytes.join(',')}] inserted at token ${c.at}` };
};

const hugeLiteral = (c: Site): Mutated => {
  const nums = c.sig.filter((i) => /^\d/.test(c.ts[i]));
  if (nums.length) return replaceToken(c, nums, HUGE, 'literal');
  const lit = HUGE[c.m.pick % HUGE.length];
  return { text: insert(c, ` ${lit} `), how: `literal ${lit} inserted at token ${c.at}` };
};

const wrapInBrackets = (c: Site): Mutated => {
  const depth = [10, 100, 1000, 5000, 10_001][c.m.n % 5];
  const kind = c.m.pick % 3;
  const [open, close] = kind === 0 ? ['(', ')'] : kind === 1 ? ['{', '}'] : ['[', ']'];
  const ti = nums0(c.ts, c.sig, c.m.at);
  if (ti < 0) return { text: insert(c, open.repeat(depth) + close.repeat(depth)), how: `${depth} nested ${open}${close} inserted at token ${c.at}` };
  c.ts[ti] = open.repeat(depth) + c.ts[ti] + close.repeat(depth);
  return { text: c.ts.join(''), how: `token ${ti} wrapped in ${depth} ${open}${close}` };
};

const swapLines = (c: Site): Mutated => {
  const lines = c.text.split('\n');
  const i = c.m.at % lines.length;
  const j = c.m.pick % lines.length;
  [lines[i], lines[j]] = [lines[j], lines[i]];
  return { text: lines.join('\n'), how: `lines ${i + 1} and ${j + 1} swapped` };
};

const replaceName = (c: Site): Mutated => {
  const names = c.sig.filter((i) => /^[A-Za-z_#]/.test(c.ts[i]));
  return names.length ? replaceToken(c, names, KEYWORDS, 'name') : { text: c.text, how: 'no name to replace' };
};

const swapTokens = (c: Site): Mutated => {
  if (c.sig.length < 2) return { text: c.text, how: 'too short to swap' };
  const j = c.sig[c.m.pick % c.sig.length];
  [c.ts[c.at], c.ts[j]] = [c.ts[j], c.ts[c.at]];
  return { text: c.ts.join(''), how: `tokens ${c.at} and ${j} swapped` };
};

/** A random byte replaces one character. */
const replaceByte = (c: Site): Mutated => {
  const i = c.m.at % Math.max(1, c.text.length);
  const b = (c.m.bytes[0] ?? 0) & 0xff;
  return { text: c.text.slice(0, i) + String.fromCharCode(b) + c.text.slice(i + 1), how: `byte ${i} replaced by ${b} (line ${c.text.slice(0, i).split('\n').length})` };
};

/** A whole statement of deep nesting into a function body: after a `;` or `{`. */
const deepStatement = (c: Site): Mutated => {
  const semis = c.sig.filter((i) => c.ts[i] === ';' || c.ts[i] === '{');
  const depth = [50, 500, 3000, 10_001][c.m.n % 4];
  const kind = c.m.pick % 3;
  // Statements nested without brackets at most 3,000 deep (see `deep` above); braces up to past the limit.
  const stmtText = kind === 0 ? `${'if (1) '.repeat(Math.min(depth, 3000))};` : kind === 1 ? `${'{'.repeat(depth)}${'}'.repeat(depth)}` : `${'while (0) '.repeat(Math.min(depth, 3000))};`;
  if (!semis.length) return { text: c.text + stmtText, how: `deep statement (${depth}) appended` };
  const i = semis[c.m.at % semis.length];
  return { text: insert(c, stmtText, i + 1), how: `deep statement kind ${kind} (${depth}) inserted after token ${i}` };
};

/** The mutations, chosen by m.op. */
const MUTATIONS: readonly ((c: Site) => Mutated)[] = [deleteTokens, duplicateTokens, replaceOperator, truncate, insertBytes, hugeLiteral, wrapInBrackets, swapLines, replaceName, swapTokens, replaceByte, deepStatement];

function mutate(text: string, m: Mutation): Mutated {
  const ts = tokens(text);
  const sig = ts.flatMap((t, i) => (SIGNIFICANT(t) ? [i] : []));
  return MUTATIONS[m.op % MUTATIONS.length]({ text, ts, sig, at: sig.length ? sig[m.at % sig.length] : 0, m });
}

/** A number or name token to wrap in brackets, or -1. */
function nums0(ts: readonly string[], sig: readonly number[], at: number): number {
  const c = sig.filter((i) => /^[\dA-Za-z_]/.test(ts[i]));
  return c.length ? c[at % c.length] : -1;
}

const mutationArb: fc.Arbitrary<Mutation> = fc.record({
  op: fc.nat(),
  at: fc.nat(),
  n: fc.nat(),
  pick: fc.nat(),
  bytes: fc.array(fc.nat(255), { minLength: 1, maxLength: 8 }),
});

function mutated(programs: readonly { path: string; text: string }[]): fc.Arbitrary<FuzzCase> {
  return fc.record({ p: fc.nat(programs.length - 1), ms: fc.array(mutationArb, { minLength: 1, maxLength: 3 }) }).map(({ p, ms }) => {
    const prog = programs[p];
    let text = prog.text;
    const how: string[] = [];
    for (const m of ms) {
      const r = mutate(text, m);
      text = r.text;
      how.push(r.how);
    }
    const ext = prog.path.endsWith('.i') ? '.i' : '.c';
    return { index: -1, origin: `mutated:${basename(prog.path)}`, how: how.join('; '), ext, text };
  });
}

/** A 32-bit seed for case `index` of the run of `seed` (splitmix-style mixing). */
export function caseSeed(seed: number, index: number): number {
  let h = (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b) >>> 0;
  return (h ^ (h >>> 16)) | 0;
}

/** The generator of a run: case `index` of `seed`, generated (even-odd by fast-check's draw) or mutated. */
export function fuzzCases(programs: readonly { path: string; text: string }[] = bundledPrograms()): (seed: number, index: number) => FuzzCase {
  const arb = fc.oneof(generated, mutated(programs));
  return (seed, index) => ({ ...fc.sample(arb, { seed: caseSeed(seed, index), numRuns: 1 })[0], index });
}

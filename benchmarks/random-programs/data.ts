/**
 * The data programs' constructs: structs, a union, an array `da` indexed at run time
 * (on the heap in half of them), pointers to its cells and to structs.
 */
import type { Generator } from './generator.js';
import { indirect, type AssignmentForm, type Scope } from './model.js';

/** The data programs' assignment forms: a constant or a variable into memory reached through a pointer or a run-time index. */
export function dataAssignments(g: Generator, s: Scope): AssignmentForm[] {
  const memory = s.vars.filter(indirect);
  if (!g.data || memory.length === 0) return [];
  return [
    [2, () => { const v = g.pick(memory); const c = g.int(0, 3); return [v, String(c), { kind: 'const', value: c }]; }],
    [1, () => { const v = g.pick(memory); const w = g.pick(s.vars.filter((u) => u !== v)); return [v, w, { kind: 'var', name: w }]; }],
  ];
}

/** An index into an array of `n` cells from a local: mostly in bounds, sometimes not (undefined behaviour: an error in rely's model). */
function index(g: Generator, locals: readonly string[], n: number): string {
  const l = g.pick(locals);
  return g.weighted([[3, `${l} % ${n}`], [1, `(${l} + 1) % ${n}`], [1, l], [0.5, `${l} + 1`]]);
}

/** A struct S object: the global, a cell of the array of structs, the nested one. */
export function structS(g: Generator, s: Scope): string[] {
  const d = g.data!;
  return [
    ...(d.struct ? ['s'] : []),
    ...(d.structArray ? ['sa[0]', 'sa[1]', ...(s.locals.length ? [`sa[${index(g, s.locals, 2)}]`] : [])] : []),
    ...(d.nested ? ['t.in'] : []),
  ];
}

/** Struct copies (member by member) the function can do. */
function copies(g: Generator, s: Scope): [string, string][] {
  const objects = structS(g, s);
  // The frontend copies into a struct whose place is known before the run only.
  const targets = objects.filter((o) => !indirect(o));
  const out: [string, string][] = [];
  if (s.ls) for (const o of objects) out.push(['ls', o]);
  for (const a of targets) for (const b of objects) if (a !== b) out.push([a, b]);
  if (s.ls) for (const o of targets) out.push([o, 'ls']);
  return out;
}

/** New targets of the function's pointers. */
function repoints(g: Generator, s: Scope): [string, string][] {
  const out: [string, string][] = [];
  if (s.q) {
    out.push(['q', 'q + 1'], ['q', `da + ${g.int(0, 2)}`]);
    if (s.locals.length) out.push(['q', `&da[${index(g, s.locals, 3)}]`]);
  }
  if (s.p) for (const o of structS(g, s)) out.push(['p', `&${o}`]);
  return out;
}

/** `lhs = rhs` for two struct S objects (a copy member by member). */
export function copyStruct(g: Generator, s: Scope, indent: number): void {
  const [lhs, rhs] = g.pick(copies(g, s));
  g.emit(indent, `${lhs} = ${rhs};`);
  for (const f of ['f', 'g']) g.forget(s, `${lhs}.${f}`);
}

/** A new target for one of the function's pointers. */
export function repoint(g: Generator, s: Scope, indent: number): void {
  const [lhs, rhs] = g.pick(repoints(g, s));
  g.emit(indent, `${lhs} = ${rhs};`);
  // What the pointer reached before: its facts are stale.
  const through = lhs === 'q' ? '*q' : 'p->';
  for (const [u, f] of [...s.facts]) if (u.includes(through) || (f.kind === 'var' && f.name.includes(through))) s.facts.delete(u);
}

/**
 * `int da[3] = {…}` becomes `int *da`, which main allocates first (zeroed by calloc:
 * malloc's cells would be any value, which the explorer only samples, and stores the
 * nonzero ones) and frees last: the threads' accesses, pointers and out-of-bounds
 * indices then reach a heap object.
 */
export function heapArray(g: Generator, mainAt: number, r: () => number): void {
  const at = g.lines.findIndex((l) => l.startsWith('int da[3] = {'));
  const init = g.lines[at].slice('int da[3] = {'.length, -'};'.length).split(', ');
  g.lines[at] = 'int *da;';
  g.lines[0] = g.lines[0].replace(/\)? \*\/$/, (end) => (end.startsWith(')') ? ', heap) */' : ' (heap) */'));
  g.lines.splice(1, 0, '#include <stdlib.h>');
  const stores = init.flatMap((c, k) => (c === '0' ? [] : [`da[${k}] = ${c};`]));
  const alloc = r() < 0.5 ? 'calloc(3, sizeof(int))' : '(int *)calloc(1, 3 * sizeof(*da))';
  g.lines.splice(mainAt + 1, 0, `  da = ${alloc};${stores.length ? ` ${stores.join(' ')}` : ''}`);
  g.emit(1, 'free(da);');
}

/** The data program's types and globals; returns the names threads share like the scalars (some members of each object). */
export function declareData(g: Generator): string[] {
  const d = g.data!;
  const init = (names: readonly string[]): number[] =>
    names.map((v) => {
      const c = g.int(0, 3);
      g.initial.set(v, c);
      return c;
    });
  const shared: string[] = [];
  if (d.struct || d.structArray || d.nested) g.emit(0, 'struct S { int f; int g; };');
  if (d.nested) g.emit(0, 'struct T { struct S in; int h; };');
  if (d.union) g.emit(0, 'union U { int i; int j; };');
  if (d.struct) {
    g.emit(0, `struct S s = {${init(['s.f', 's.g']).join(', ')}};`);
    shared.push('s.f', 's.g');
  }
  if (d.nested) {
    const [f, h, c] = init(['t.in.f', 't.in.g', 't.h']);
    g.emit(0, `struct T t = {{${f}, ${h}}, ${c}};`);
    shared.push(g.pick(['t.in.f', 't.in.g']), 't.h');
  }
  if (d.structArray) {
    const members = ['sa[0].f', 'sa[0].g', 'sa[1].f', 'sa[1].g'];
    const c = init(members);
    g.emit(0, `struct S sa[2] = {{${c[0]}, ${c[1]}}, {${c[2]}, ${c[3]}}};`);
    shared.push(...g.two(members));
  }
  if (d.union) {
    // One int object under two names.
    const c = g.int(0, 3);
    g.initial.set('u.i', c).set('u.j', c);
    g.aliases.set('u.i', ['u.j']).set('u.j', ['u.i']);
    g.emit(0, `union U u = {${c}};`);
    shared.push('u.i', 'u.j');
  }
  if (d.cells) {
    const cells = ['da[0]', 'da[1]', 'da[2]'];
    g.emit(0, `int da[3] = {${init(cells).join(', ')}};`);
    shared.push(g.pick(cells));
  }
  return shared;
}

/** A thread's names of memory reached through its pointers, its struct local and run-time indices. */
export function dataMemory(g: Generator, locals: readonly string[], ptrs: { q?: boolean; p?: boolean; ls?: boolean }): string[] {
  const d = g.data!;
  return [
    ...(ptrs.q ? ['*q'] : []),
    ...(ptrs.p ? ['p->f', 'p->g'] : []),
    ...(ptrs.ls ? ['ls.f', 'ls.g'] : []),
    ...(d.cells && locals.length ? [`da[${index(g, locals, 3)}]`] : []),
    ...(d.structArray && locals.length ? [`sa[${index(g, locals, 2)}].${g.pick(['f', 'g'])}`] : []),
  ];
}

/** The thread's `int *q`, `struct S *p` (thread 1's from its argument when `fromArg`) and `struct S ls`. */
export function declarePointers(g: Generator, s: Scope, fromArg: boolean): void {
  if (s.q) {
    const c = g.int(0, 2);
    g.emit(1, `int *q = ${g.chance(0.5) ? `&da[${c}]` : `da + ${c}`};`);
  }
  if (s.p) g.emit(1, fromArg ? 'struct S *p = (struct S *)arg;' : `struct S *p = &${g.pick(structS(g, s))};`);
  if (s.ls) {
    const [f, h] = [g.int(0, 3), g.int(0, 3)];
    g.emit(1, `struct S ls = {${f}, ${h}};`);
    s.facts.set('ls.f', { kind: 'const', value: f }).set('ls.g', { kind: 'const', value: h });
  }
}

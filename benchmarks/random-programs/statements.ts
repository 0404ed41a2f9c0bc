/**
 * The random programs' statements: which kind comes next in a context, and the classic
 * ones (assignments, if/else, assume, atomic sections, locked regions, assert, abort).
 */
import type { Generator } from './generator.js';
import { SYNC_REGIONS, type Ctx, type Fact, type Scope } from './model.js';
import { copyStruct, dataAssignments, repoint } from './data.js';
import { extendedAssignments, extendedStmt } from './extended.js';
import { syncKinds, syncStmt } from './sync.js';

/** An assignment of one of the forms the program allows; the facts follow it. */
export function assign(g: Generator, s: Scope, indent: number): void {
  const form = g.weighted<() => [string, string, Fact | undefined]>([
    [4, () => { const v = g.pick(s.globals); const c = g.int(0, 3); return [v, String(c), { kind: 'const', value: c }]; }],
    [s.locals.length ? 2 : 0, () => { const l = g.pick(s.locals); const glob = g.pick(s.globals); return [l, glob, { kind: 'var', name: glob }]; }],
    [s.locals.length ? 2 : 0, () => { const glob = g.pick(s.globals); const l = g.pick(s.locals); return [glob, l, { kind: 'var', name: l }]; }],
    [s.locals.length ? 1 : 0, () => { const l = g.pick(s.locals); const c = g.int(0, 3); return [l, String(c), { kind: 'const', value: c }]; }],
    [1, () => { const [v, w] = g.two(s.vars); return [v, w, w === v ? undefined : { kind: 'var', name: w }]; }],
    [1, () => { const v = g.pick(s.vars); const w = g.pick(s.vars); const sum = `${w} + ${g.int(1, 2)}`; return [v, g.looping || g.inLoop > 0 ? `(${sum}) % 4` : sum, undefined]; }],
    ...extendedAssignments(g, s),
    ...dataAssignments(g, s),
  ])();
  const [lhs, rhs, fact] = form;
  g.emit(indent, `${lhs} = ${rhs};`);
  g.forget(s, lhs);
  if (fact) s.facts.set(lhs, fact);
  if (fact?.kind === 'const' && s.globals.includes(lhs)) g.wrote(lhs, fact.value);
}

/** The kinds of statement context `ctx` allows, with their weights. */
function kinds(g: Generator, s: Scope, ctx: Ctx): (readonly [number, string])[] {
  return [
    [4, 'assign'],
    [ctx === 'branch' ? 0 : 1.2, 'if'],
    [ctx === 'top' || ctx === 'locked' ? 0.7 : 0, 'assume'],
    [ctx === 'top' ? 0.9 : 0, 'atomic'],
    [ctx === 'top' && s.mutex ? 1.2 : 0, 'lock'],
    [g.asserts < 2 ? 0.6 : 0, 'assert'],
    [ctx === 'branch' ? 0.15 : 0, 'abort'],
    [g.extras?.calls ? 0.5 : 0, 'put'],
    [g.extras?.nondet && s.locals.length && ctx !== 'atomic' ? 0.5 : 0, 'nondet'],
    [g.extras?.loops && (ctx === 'top' || ctx === 'locked') && !g.inLoop ? 0.6 : 0, 'loop'],
    [g.data && (s.ls || g.data.structArray || (g.data.struct && g.data.nested)) ? 0.4 : 0, 'copy'],
    [g.data && (s.q || s.p) ? 0.5 : 0, 'repoint'],
    ...syncKinds(g, s, ctx),
  ];
}

/** `if (c) { … }`, sometimes with an else: afterwards the facts both branches agree on. */
function ifElse(g: Generator, s: Scope, indent: number): void {
  g.emit(indent, `if (${g.cond(s)}) {`);
  const before = new Map(s.facts);
  g.maybe++;
  g.block(s, 'branch', indent + 1, 1, 2);
  const afterThen = new Map(s.facts);
  s.facts.clear();
  for (const [k, v] of before) s.facts.set(k, v);
  if (g.chance(0.6)) {
    g.emit(indent, '} else {');
    g.block(s, 'branch', indent + 1, 1, 2);
  }
  g.maybe--;
  g.emit(indent, '}');
  g.keepAgreeing(s, afterThen);
}

/** One statement of a kind context `ctx` allows (the Generator's Statement). */
export function statement(g: Generator, s: Scope, ctx: Ctx, indent: number): void {
  const kind = g.weighted<string>(kinds(g, s, ctx));
  switch (kind) {
    case 'assign':
      return assign(g, s, indent);
    case 'assert':
      return g.assert(s, indent);
    case 'abort': // stops every thread
      g.emit(indent, 'abort();');
      return;
    case 'assume': {
      const c = g.cond(s);
      g.emit(indent, `__VERIFIER_assume(${c});`);
      return;
    }
    case 'if':
      return ifElse(g, s, indent);
    case 'atomic':
      return g.region(s, 'atomic', '__VERIFIER_atomic_begin();', '__VERIFIER_atomic_end();', indent);
    case 'lock':
      return g.region(s, 'locked', 'pthread_mutex_lock(&m);', 'pthread_mutex_unlock(&m);', indent);
    case 'copy':
      return copyStruct(g, s, indent);
    case 'repoint':
      return repoint(g, s, indent);
    default:
      return (SYNC_REGIONS as readonly string[]).includes(kind) || kind === 'count' || kind === 'count-assert' ? syncStmt(g, s, kind, indent) : extendedStmt(g, s, kind, indent);
  }
}

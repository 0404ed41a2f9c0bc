/**
 * Where a witness's locations are in rely's program, and which C names are visible
 * there. A location of a thread (its pc) stands in the source at the statement the
 * thread executes next from it: the first statement of its outgoing transitions (with
 * large blocks, a block's first statement or condition). The writer names a location
 * by that line and column, the reader finds the locations at a line and column by the
 * same rule, so what one writes the other places. A location whose outgoing steps
 * start at different places, and one without any (exit, error), has no position.
 *
 * C names: at a position in the thread's own function, its locals (the ones its top
 * frame declares, not shadowed in an inner block) and the globals; in a function
 * inlined once into the thread, that function's locals and the globals (a global
 * array of constant size by its elements, `buf[0]`). A local rely cannot place (an
 * inlined function's copies, a name declared twice) is hidden: an expression that uses
 * it is not read. Given the locals in C scope at the position
 * (ReadableProgram.localsInScope), a local out of scope there is not visible: its name
 * is a global's, if there is one, else it names nothing (out of scope).
 */
import type { Term } from '../solver/formula.js';
import { varsOf } from '../solver/formula.js';
import { InputError, comparePos, showPos, type SourcePos } from '../program/diagnostics.js';
import type { ReadableProgram } from '../frontend/index.js';
import type { Program, Transition } from '../program/program.js';

/** The positions of the statements a step executes, in order (a step without any: its own). */
export const stepPositions = (t: Transition): SourcePos[] => (t.steps.length ? t.steps.map((s) => s.pos) : [t.pos]);

/** A source position as a map key (its line and column). */
export const positionKey = (pos: SourcePos): string => `${pos.line}:${pos.col}`;

/** A thread's location with its position in the source and the function it is in. */
export interface Place {
  readonly thread: number;
  readonly pc: number;
  readonly pos: SourcePos;
  readonly fn: string;
}

/** What a C expression may name at a place: C name → IR variable, and the names it may not use. */
export interface Scope {
  readonly names: ReadonlyMap<string, string>;
  readonly hidden: ReadonlySet<string>;
  /** Locals of the thread declared elsewhere in the function, out of C scope at the position (and no global has their name). */
  readonly outOfScope: ReadonlySet<string>;
}

type Functions = ReadableProgram['functions'];

export const samePos = (a: SourcePos, b: { line: number; column?: number }): boolean => a.line === b.line && (b.column === undefined || a.col === b.column);

/** The function whose definition starts last at or before `pos` (function bodies do not nest in C). */
export function functionAt(functions: Functions, pos: SourcePos): string {
  let best: Functions[number] | undefined;
  for (const f of functions) if (f.pos.file === pos.file && comparePos(f.pos, pos) <= 0 && (!best || comparePos(best.pos, f.pos) <= 0)) best = f;
  return best?.name ?? '';
}

/** The first statement of a transition: where the thread is before it. */
export const firstPos = (t: Transition): SourcePos => t.steps[0]?.pos ?? t.pos;
/** The last statement of a transition (into an error location: the error's own statement). */
export const lastPos = (t: Transition): SourcePos => t.steps.at(-1)?.pos ?? t.pos;

/** The position of thread `thread` at `pc`: where all its outgoing transitions start, if they agree. */
export function positionOf(p: Program, thread: number, pc: number): SourcePos | undefined {
  const out = p.threads[thread].transitions.filter((t) => t.from === pc && !t.stack);
  const ps = out.map(firstPos);
  return ps.length > 0 && ps.every((x) => x.line === ps[0].line && x.col === ps[0].col && x.file === ps[0].file) ? ps[0] : undefined;
}

/** Every thread location that has a position. */
export function placesOf(p: Program, functions: Functions): Place[] {
  return p.threads.flatMap((th) =>
    th.locations.flatMap(({ pc }) => {
      const pos = positionOf(p, th.index, pc);
      return pos ? [{ thread: th.index, pc, pos, fn: functionAt(functions, pos) }] : [];
    }),
  );
}

const IDENT = /^[A-Za-z_]\w*$/;
const ELEMENT = /^([A-Za-z_]\w*)(\[\d+\])+$/;

/** The C names visible in thread `thread` at a position in function `fn` (where only the locals `inC` are in C scope, when given). */
export function scopeAt(p: Program, thread: number, fn: string, inC?: ReadonlySet<string>): Scope {
  const th = p.threads[thread];
  const prefix = fn === th.fn ? th.name : `${th.name}.${fn}`;
  const names = new Map<string, string>();
  const hidden = new Set<string>();
  const outOfScope = new Set<string>();
  // Another inline copy of fn in this thread: which one runs here is not known.
  const copies = fn !== th.fn && th.locals.some((v) => v.startsWith(`${prefix}#`));
  for (const v of th.locals) {
    const info = p.vars.get(v)!;
    if (info.role !== 'user' || !IDENT.test(info.cname)) continue;
    const mine = v === `${prefix}.${info.cname}` || v.startsWith(`${prefix}.${info.cname}#`) || v.startsWith(`${prefix}#`);
    if (!mine) continue;
    if (inC && !inC.has(info.cname)) {
      outOfScope.add(info.cname);
      continue;
    }
    // A name declared twice (an inner block shadows it), a mutex, an inline copy: hidden.
    if (copies || info.mutex || v !== `${prefix}.${info.cname}` || names.has(info.cname)) hidden.add(info.cname);
    else names.set(info.cname, v);
  }
  for (const c of hidden) names.delete(c);
  for (const g of p.globals) {
    const info = p.vars.get(g)!;
    // An element of a global array of constant size is a variable of its own (`buf[1]`), named so unless a local shadows the array.
    const element = ELEMENT.exec(info.cname);
    if (element && info.role === 'user' && !info.mutex && !names.has(element[1]) && !hidden.has(element[1])) names.set(info.cname, g);
    if (info.role !== 'user' || !IDENT.test(info.cname) || names.has(info.cname) || hidden.has(info.cname)) continue;
    if (info.mutex) hidden.add(info.cname);
    else names.set(info.cname, g);
  }
  for (const c of outOfScope) if (names.has(c) || hidden.has(c)) outOfScope.delete(c);
  return { names, hidden, outOfScope };
}

/**
 * A C expression of a witness (`text`, standing at `at`) as a formula over V, read in
 * thread `thread`'s scope at position `where` in function `fn` (with `cScope`, only the
 * locals in C scope there), where the witness's ghost variables `ghosts` (C name → IR
 * variable) are visible too. InputError when it is not C; unsupported when it names a
 * variable rely cannot place there, or a local out of C scope there.
 */
export function readInScope(rp: ReadableProgram, thread: number, fn: string, text: string, at: SourcePos, where: SourcePos, { cScope = false, ghosts = new Map<string, string>() }: { cScope?: boolean; ghosts?: ReadonlyMap<string, string> } = {}): Term {
  const p = rp.program;
  const scope = scopeAt(p, thread, fn, cScope ? rp.localsInScope(fn, where) : undefined);
  // The thread's visible locals and the ghosts; hidden names map to no variable of the program, so a use shows.
  const locals = new Map([...[...scope.names].filter(([, v]) => p.vars.get(v)!.owner !== null), ...ghosts]);
  for (const h of scope.hidden) locals.set(h, `<hidden>.${h}`);
  for (const o of scope.outOfScope) locals.set(o, `<out of scope>.${o}`);
  const f = rp.condition(thread, locals, text, at);
  const visible = new Set([...scope.names.values(), ...ghosts.values()]);
  const outside = [...varsOf(f)].find((v) => !visible.has(v));
  if (outside?.startsWith('<out of scope>.')) throw new InputError(at, `'${outside.slice('<out of scope>.'.length)}' is not in scope at ${showPos(where)}`, 'unsupported');
  if (outside !== undefined) throw new InputError(at, `'${outside.replace(/^<hidden>\./, '')}' is not a variable rely can place at ${showPos(where)}`, 'unsupported');
  return f;
}

/** A C literal for a value (a negative one parenthesised, so that `x == (-1)` reads as meant). */
export const cLiteral = (v: bigint): string => (v < 0n ? `(${v})` : `${v}`);

/**
 * Statements as control flow: blocks and their scopes, `if`, the loops, `switch`, and
 * jumps (`break`, `continue`, `return`, `goto` and labels; the label `ERROR` is the
 * error location). A `for` loop that creates or joins threads is unrolled, since
 * threads are created statically; one that indexes arrays by its variable is unrolled
 * when it can be, so that the cells become plain variables.
 */
import type { Expr, Stmt } from '../ast.js';
import { fail, unboundedThreads, unsupported, type SourcePos } from '../../program/diagnostics.js';
import { eq, ge, gt, lt, mkVar, num } from '../../solver/formula.js';
import { breaksOut, calleeName, cellValues, createsOrJoins, createsThreads, indexesBy, someNode, surelyUsedCell, unrollValues, type ForStmt, type UnrollPlan } from './ast-queries.js';
import type { ThreadBuilder } from './builder.js';
import type { Binding } from './file-scope.js';
import { branch } from './conditions.js';
import { declaration } from './declarations.js';
import { assignExpr } from './expressions.js';

type StmtOf<K extends Stmt['k']> = Extract<Stmt, { k: K }>;

export function stmt(b: ThreadBuilder, s: Stmt): void {
  switch (s.k) {
    case 'empty':
      return;
    case 'decl':
      declaration(b, s.decl, s.pos);
      b.resetTemps(s.pos);
      return;
    case 'expr':
      b.effect(s.e);
      b.resetTemps(s.pos);
      return;
    case 'block':
      b.scopes.push(new Map());
      s.body.forEach((x) => stmt(b, x));
      b.scopes.pop();
      return;
    case 'if':
      b.diamond(
        (t, f) => branch(b, s.cond, t, f),
        s.pos,
        () => stmt(b, s.then),
        () => s.else && stmt(b, s.else),
      );
      return;
    case 'while':
      return whileLoop(b, s);
    case 'do':
      return doLoop(b, s);
    case 'for':
      return forLoop(b, s);
    case 'break': {
      const l = b.loops[b.loops.length - 1] ?? fail(s.pos, "'break' outside a loop or switch");
      b.goto(l.brk, s.pos, 'break');
      return;
    }
    case 'continue': {
      const l = [...b.loops].reverse().find((x) => x.cont !== undefined) ?? fail(s.pos, "'continue' outside a loop");
      b.goto(l.cont!, s.pos, 'continue');
      return;
    }
    case 'return':
      return returnStmt(b, s);
    case 'goto':
      b.goto(b.label(s.label, s.pos), s.pos, `goto ${s.label}`);
      return;
    case 'label':
      return labelStmt(b, s);
    case 'switch':
      return switchStmt(b, s);
    case 'case':
    case 'default':
      return fail(s.pos, `'${s.k}' outside a switch`);
    case 'asm':
      return unsupported(s.pos, 'inline assembly');
  }
}

function returnStmt(b: ThreadBuilder, s: StmtOf<'return'>): void {
  const f = b.frame();
  if (s.e) {
    if (f.retVar) assignExpr(b, b.lookupVar(f.retVar), s.e, s.pos);
    else b.effect(s.e);
  }
  b.resetTemps(s.pos);
  b.goto(f.retLoc, s.pos, 'return');
}

function labelStmt(b: ThreadBuilder, s: StmtOf<'label'>): void {
  if (s.name === 'ERROR') {
    // Every `ERROR:` (SV-COMP's assert macro writes one per use) is the error location,
    // and so is `goto ERROR`, before or after it.
    const f = b.frame();
    const forward = f.labels.get('ERROR');
    if (forward && forward.loc !== b.err) b.edge(forward.loc, b.err, { kind: 'skip' }, s.pos, 'goto ERROR');
    f.labels.set('ERROR', { loc: b.err, defined: true, pos: s.pos });
    b.goto(b.err, s.pos, 'ERROR:');
    stmt(b, s.body); // unreachable, but still checked
    return;
  }
  const loc = b.label(s.name, s.pos);
  const l = b.frame().labels.get(s.name)!;
  if (l.defined) fail(s.pos, `duplicate label '${s.name}'`);
  l.defined = true;
  // A jump target can be reached after visible steps, so main's initial prefix ends here.
  b.prefixOpen = false;
  b.goto(loc, s.pos, '');
  b.cur = loc;
  stmt(b, s.body);
}

// ---- loops

function whileLoop(b: ThreadBuilder, s: StmtOf<'while'>): void {
  if (cutLoop(b, s.body)) return boundedLoop(b, { cond: s.cond, body: s.body, pos: s.pos });
  const head = b.cfg.newLoc(s.pos);
  const body = b.cfg.newLoc(s.body.pos);
  const exit = b.cfg.newLoc(s.pos);
  b.goto(head, s.pos, '');
  b.cur = head;
  branch(b, s.cond, body, exit);
  loopBody(b, s.body, body, exit, head);
  b.goto(head, s.pos, '');
  b.cur = exit;
}

function doLoop(b: ThreadBuilder, s: StmtOf<'do'>): void {
  if (cutLoop(b, s.body)) return boundedLoop(b, { cond: s.cond, body: s.body, pos: s.pos, firstUnchecked: true });
  const body = b.cfg.newLoc(s.body.pos);
  const cond = b.cfg.newLoc(s.cond.pos);
  const exit = b.cfg.newLoc(s.pos);
  b.goto(body, s.pos, '');
  loopBody(b, s.body, body, exit, cond);
  b.goto(cond, s.pos, '');
  b.cur = cond;
  branch(b, s.cond, body, exit);
  b.cur = exit;
}

/**
 * `for (i = …; i < N; i++)`, N a constant and i an integer variable, whose body is only
 * calls of `fn` with arguments free of side effects: i's variable and N, else undefined.
 */
function countingLoopOf(b: ThreadBuilder, s: ForStmt, fn: string): { i: Binding & { k: 'var' }; bound: bigint } | undefined {
  const c = s.cond;
  if (c?.k !== 'binary' || c.op !== '<' || c.left.k !== 'id') return undefined;
  const name = c.left.name;
  const bound = b.L.constant(c.right);
  const step = s.step;
  const counts = step?.k === 'incdec' && step.op === '++' && step.target.k === 'id' && step.target.name === name;
  const items = s.body.k === 'block' ? s.body.body : [s.body];
  const effectFree = (e: Expr): boolean => !someNode({ k: 'expr', e, pos: e.pos }, (x) => x.k === 'call' || x.k === 'assign' || x.k === 'incdec' || x.k === 'stmtexpr');
  const calls = items.every((x) => x.k === 'expr' && x.e.k === 'call' && calleeName(x.e) === fn && x.e.args.every(effectFree));
  if (bound === undefined || !counts || !calls || !items.length) return undefined;
  const i = b.lookup(name, s.pos);
  return i.k === 'var' && i.type.k === 'int' ? { i, bound } : undefined;
}

/** `i = N` when `i < N`: a counting loop's remaining iterations taken as done. */
function finishCount(b: ThreadBuilder, { i, bound }: { i: Binding & { k: 'var' }; bound: bigint }, pos: SourcePos, why: string): void {
  const next = b.cfg.newLoc(pos);
  b.assume(lt(mkVar(i.name), num(bound)), next, pos, false);
  b.cur = next;
  b.assign(i, num(bound), pos, `${b.L.cname(i.name)} = ${bound} (${why})`);
}

/**
 * For a loop cut for the bug search: a counting loop whose body only creates threads
 * may also leave after the cut with i = N, as if the remaining iterations had run:
 * their threads exist but are never scheduled, which is a run of the original too.
 * (goblint's tasks create 10,000 threads so and assert after the loop.)
 */
function creationOnly(b: ThreadBuilder, s: ForStmt): (() => void) | undefined {
  const loop = countingLoopOf(b, s, 'pthread_create');
  return loop && (() => finishCount(b, loop, s.pos, "the remaining iterations' threads are created and never run"));
}

/**
 * With template threads (a proof for any number of instances), a counting loop of
 * more iterations than there are instances that only creates threads is one
 * iteration, which starts the template (any number of its instances may run then),
 * and i = N; one that only joins cells of a pthread_t array no instance of its own
 * was created into (every join is not awaited) is i = N. The loop's other states
 * differ only in i, which nothing else sees.
 */
function templateLoop(b: ThreadBuilder, s: ForStmt): boolean {
  if (!b.L.templates || !s.init) return false;
  const creates = countingLoopOf(b, s, 'pthread_create');
  const joins = countingLoopOf(b, s, 'pthread_join');
  const loop = creates ?? joins;
  if (!loop || loop.bound <= BigInt(b.L.maxThreads)) return false;
  if (joins && !untrackedJoins(b, s)) return false;
  const exit = b.cfg.newLoc(s.pos);
  const from = b.cur;
  b.assume(ge(mkVar(loop.i.name), num(loop.bound)), exit, s.pos, false);
  b.cur = from;
  if (creates) {
    const body = b.cfg.newLoc(s.body.pos);
    b.assume(lt(mkVar(loop.i.name), num(loop.bound)), body, s.pos, false);
    loopBody(b, s.body, body, exit, exit);
  }
  finishCount(b, loop, s.pos, creates ? 'a template: any number of its instances run' : 'joins of template instances, not awaited');
  b.goto(exit, s.pos, '');
  b.cur = exit;
  return true;
}

/** Whether every join of the loop is of a cell of a pthread_t array no pthread_create gave an instance of its own. */
function untrackedJoins(b: ThreadBuilder, s: ForStmt): boolean {
  const items = s.body.k === 'block' ? s.body.body : [s.body];
  return items.every((x) => {
    const h = x.k === 'expr' && x.e.k === 'call' ? x.e.args[0] : undefined;
    const arr = h?.k === 'index' && h.base.k === 'id' ? b.lookup(h.base.name, h.pos) : undefined;
    return arr?.k === 'array' && arr.elems.every((c) => c.k === 'handle' && !c.slot.inst && !c.slot.alternatives);
  });
}

/** The body of a loop that stays a loop (ends main's initial prefix: it may repeat). */
function loopBody(b: ThreadBuilder, body: Stmt, start: number, brk: number, cont: number): void {
  b.prefixOpen = false;
  b.cur = start;
  b.loops.push({ brk, cont });
  b.realLoops++;
  stmt(b, body);
  b.realLoops--;
  b.loops.pop();
}

function forLoop(b: ThreadBuilder, s: ForStmt): void {
  b.scopes.push(new Map());
  if (s.init) stmt(b, s.init);
  const unroll = unrollPlan(b, s);
  if (unroll) unrolledFor(b, s, unroll);
  else if (!templateLoop(b, s)) {
    if (cutLoop(b, s.body)) boundedLoop(b, { cond: s.cond, body: s.body, pos: s.pos, step: s.step, skipRest: creationOnly(b, s) });
    else realFor(b, s);
  }
  b.scopes.pop();
}

/**
 * One copy of the body per value, with the loop variable bound to the value; a copy
 * left by `break` gives the variable its value. With a final value the bounds are
 * constant, and the variable gets it after the last copy. Without one (a loop counting
 * through a thread array's cells, cellPlan) each copy first tests the condition, which
 * leaves with the copy's value; the last copy's iteration cannot complete.
 */
function unrolledFor(b: ThreadBuilder, s: ForStmt, unroll: UnrollPlan): void {
  const exit = b.cfg.newLoc(s.pos);
  const counter = b.lookup(unroll.name, s.pos);
  for (const v of unroll.values) {
    const start = b.cur;
    const brk = b.cfg.newLoc(s.pos);
    const next = b.cfg.newLoc(s.pos);
    b.scopes.push(new Map([[unroll.name, { k: 'const', value: v }]]));
    if (unroll.final === undefined && s.cond) {
      const body = b.cfg.newLoc(s.body.pos);
      branch(b, s.cond, body, brk);
      b.cur = body;
    }
    b.loops.push({ brk, cont: next });
    stmt(b, s.body);
    b.loops.pop();
    b.scopes.pop();
    b.goto(next, s.pos, '');
    // The exactness of cellPlan, checked: the last copy's iteration cannot complete.
    if (unroll.final === undefined && v === unroll.values[unroll.values.length - 1] && b.cfg.reaches(start, next))
      throw new Error(`${s.pos.file}:${s.pos.line}: internal error: the last copy of a loop through a pthread_t array can complete`);
    if (unroll.final === undefined || breaksOut(s.body)) {
      b.cur = brk;
      b.assign(counter, num(v), s.pos);
      b.goto(exit, s.pos, '');
    }
    b.cur = next;
  }
  if (unroll.final !== undefined) {
    b.assign(counter, num(unroll.final), s.pos);
    b.goto(exit, s.pos, '');
  }
  b.cur = exit;
}

function realFor(b: ThreadBuilder, s: ForStmt): void {
  const head = b.cfg.newLoc(s.pos);
  const body = b.cfg.newLoc(s.body.pos);
  const step = b.cfg.newLoc(s.pos);
  const exit = b.cfg.newLoc(s.pos);
  b.goto(head, s.pos, '');
  b.cur = head;
  if (s.cond) branch(b, s.cond, body, exit);
  else b.goto(body, s.pos, '');
  loopBody(b, s.body, body, exit, step);
  b.goto(step, s.pos, '');
  b.cur = step;
  if (s.step) b.effect(s.step);
  b.resetTemps(s.pos);
  b.goto(head, s.pos, '');
  b.cur = exit;
}

/** Whether a loop that is not unrolled is cut at LowerOptions.maxInstances iterations: it creates or joins threads. */
function cutLoop(b: ThreadBuilder, body: Stmt): boolean {
  if (b.L.maxInstances === undefined || !createsOrJoins(body)) return false;
  b.L.boundedLoops = true;
  return true;
}

/**
 * A loop cut at k = maxInstances iterations: k copies of the test and the body, then
 * only the exit — a run that would take another iteration stops there (blocks), so
 * every remaining run is a run of the original loop.
 */
function boundedLoop(b: ThreadBuilder, s: { cond?: Expr; body: Stmt; pos: Stmt['pos']; step?: Expr; firstUnchecked?: boolean; skipRest?: () => void }): void {
  const exit = b.cfg.newLoc(s.pos);
  b.prefixOpen = false;
  for (let k = 0; k <= b.L.maxInstances!; k++) {
    const body = b.cfg.newLoc(s.body.pos);
    if (k === 0 && s.firstUnchecked) b.goto(body, s.pos, '');
    // The last test only exits: the (k+1)-th iteration is cut. It blocks (as
    // __VERIFIER_assume does), so a block never drops the visible steps before it.
    else if (s.cond) {
      const at = b.cur;
      branch(b, s.cond, k === b.L.maxInstances ? -1 : body, exit, k === b.L.maxInstances);
      if (k === b.L.maxInstances && s.skipRest) {
        b.cur = at;
        s.skipRest();
        b.goto(exit, s.pos, '');
      }
    }
    else if (k < b.L.maxInstances!) b.goto(body, s.pos, '');
    if (k === b.L.maxInstances) break;
    const next = b.cfg.newLoc(s.pos);
    b.cur = body;
    b.loops.push({ brk: exit, cont: next });
    stmt(b, s.body);
    b.loops.pop();
    b.goto(next, s.pos, '');
    b.cur = next;
    if (s.step) b.effect(s.step);
    b.resetTemps(s.pos);
  }
  b.cur = exit;
}

/**
 * A `for (i = a; i < b; i++)` loop whose body creates or joins threads must have
 * constant bounds and is unrolled (threads are created statically). One that indexes
 * arrays by `i` is unrolled when it can be, so the cells become plain variables.
 */
function unrollPlan(b: ThreadBuilder, s: ForStmt): UnrollPlan | undefined {
  let name: string | undefined;
  let start: bigint | undefined;
  const init = s.init;
  if (init?.k === 'expr' && init.e.k === 'assign' && init.e.op === '=' && init.e.target.k === 'id') {
    name = init.e.target.name;
    start = b.L.constant(init.e.value);
  } else if (init?.k === 'decl' && init.decl.items.length === 1 && init.decl.items[0].init) {
    name = init.decl.items[0].decl.name;
    start = b.L.constant(init.decl.items[0].init);
  }
  const required = createsOrJoins(s.body);
  if (!required && !(name && indexesBy(s.body, name))) return undefined;
  const bound = s.cond?.k === 'binary' ? b.L.constant(s.cond.right) : undefined;
  const plan = unrollValues(s, name, start, bound);
  if (typeof plan !== 'string' && !(required && tooMany(b, plan))) return plan;
  if (!required) return undefined;
  const cells = cellPlan(b, s, name, start);
  if (typeof cells !== 'string' && !tooMany(b, cells)) return cells;
  // A join of a cell chosen at run time is a case split (builtins.ts): such a loop stays.
  if (!createsThreads(s.body)) return undefined;
  if (b.L.maxInstances !== undefined || b.L.templates) return undefined; // cut (boundedLoop), or a loop creating a template
  const why = typeof plan !== 'string' ? `${plan.values.length} iterations, more threads than rely instantiates (${b.L.maxThreads})` : `${plan}; as a loop through a pthread_t array: ${typeof cells === 'string' ? cells : 'too many cells'}`;
  return unboundedThreads(s.pos, `thread creation in a loop without constant bounds (${why}): unbounded thread creation`);
}

/**
 * A loop that would create more threads than the lowering instantiates is read as a
 * loop without constant bounds: its threads are a template (any number of instances,
 * which covers the loop's count for a proof) or its first instances (for a bug).
 */
const tooMany = (b: ThreadBuilder, plan: UnrollPlan): boolean => plan.values.length > b.L.maxThreads;

/**
 * A loop `for (i = c; cond; i++)` whose every iteration creates a thread into `&t[i]`
 * or joins `t[i]`, t an array of N pthread_t and i a local of this thread that only the
 * step changes: unrolled into one copy per cell from c on, each testing cond, and one
 * more. This is exact. While i < N the copies are the iterations themselves (i is a
 * constant in each). An iteration that completes has used t[i] (surelyUsedCell), so
 * the copy for the first i out of bounds cannot complete: its create or join is
 * undefined behaviour and reaches the error location (builtins.ts), as any index out of
 * bounds does. Hence no run takes more iterations than the copies, and each cell gets
 * one thread instance.
 */
function cellPlan(b: ThreadBuilder, s: ForStmt, name: string | undefined, start: bigint | undefined): UnrollPlan | string {
  if (!name || start === undefined) return 'no loop variable starting at a constant';
  const array = surelyUsedCell(s.body, name);
  if (!array) return `no pthread_create(&t[${name}], …) or pthread_join(t[${name}], …) that every iteration evaluates`;
  const t = b.lookup(array, s.pos);
  if (t.k !== 'array' || !t.elems.every((x) => x.k === 'handle')) return `'${array}' is not an array of pthread_t`;
  const i = b.lookup(name, s.pos);
  if (i.k !== 'var' || i.type.k !== 'int' || b.L.isGlobal(i.name)) return `'${name}' is not a local integer of this thread`;
  const plan = cellValues(s, name, start, t.elems.length);
  if (typeof plan === 'string') return plan;
  const last = plan.values[plan.values.length - 1];
  if ((i.type.lo !== undefined && i.type.lo > start) || (i.type.hi !== undefined && i.type.hi < last)) return `'${name}' cannot hold ${last}`;
  return plan;
}

// ---- switch

type Case = { stmt: Stmt; loc: number; value?: bigint };

/** A chain of tests on the value, one per case, then the body with each case label a location. */
function switchStmt(b: ThreadBuilder, s: StmtOf<'switch'>): void {
  const value = b.rvalue(s.e);
  const exit = b.cfg.newLoc(s.pos);
  const cases = switchCases(b, s.body);
  for (const c of cases) {
    if (c.value === undefined) continue;
    const next = b.cfg.newLoc(s.pos);
    b.assume(eq(value, num(c.value)), c.loc, c.stmt.pos, false);
    b.assume(lt(value, num(c.value)), next, c.stmt.pos, false);
    b.assume(gt(value, num(c.value)), next, c.stmt.pos, false);
    b.cur = next;
  }
  b.goto(cases.find((c) => c.value === undefined)?.loc ?? exit, s.pos, 'default');
  const locOf = new Map(cases.map((c) => [c.stmt, c.loc]));
  b.loops.push({ brk: exit });
  const walk = (x: Stmt): void => {
    const loc = locOf.get(x);
    if (loc !== undefined && (x.k === 'case' || x.k === 'default')) {
      b.goto(loc, x.pos, '');
      b.cur = loc;
      walk(x.body);
    } else if (x.k === 'block') {
      b.scopes.push(new Map());
      x.body.forEach(walk);
      b.scopes.pop();
    } else stmt(b, x);
  };
  walk(s.body);
  b.loops.pop();
  b.goto(exit, s.pos, '');
  b.cur = exit;
}

/** The case and default labels of a switch body in order, each with a fresh location (a nested switch keeps its own). */
function switchCases(b: ThreadBuilder, body: Stmt): Case[] {
  const cases: Case[] = [];
  const collect = (x: Stmt): void => {
    if (x.k === 'case' || x.k === 'default') {
      const v = x.k === 'case' ? b.L.constant(x.value) ?? fail(x.value.pos, 'case label is not a constant') : undefined;
      cases.push({ stmt: x, loc: b.cfg.newLoc(x.pos), value: v });
      collect(x.body);
    } else if (x.k === 'block') x.body.forEach(collect);
    else if (x.k === 'label') collect(x.body);
    else if (x.k === 'if') {
      collect(x.then);
      if (x.else) collect(x.else);
    } else if (x.k === 'while' || x.k === 'do' || x.k === 'for') collect(x.body);
  };
  collect(body);
  return cases;
}

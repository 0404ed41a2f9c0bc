/**
 * Questions about the syntax tree that need no lowering state: what a call names, whether
 * a loop body creates threads or indexes arrays by the loop variable, which values a
 * counting loop's variable takes. The builders ask them before emitting anything (to
 * choose between unrolling and a real loop, or between binding a parameter to a constant
 * and giving it a variable).
 */
import type { Expr, Stmt } from '../ast.js';

export type CallExpr = Extract<Expr, { k: 'call' }>;
export type ForStmt = Extract<Stmt, { k: 'for' }>;

/**
 * The values a loop variable takes, in order, and its value after the loop. Without a
 * final value the bound is not the condition but an array's cells (cellValues): each
 * copy of the body tests the condition, and the last cannot complete.
 */
export interface UnrollPlan {
  name: string;
  values: bigint[];
  final?: bigint;
}

/** The function a call names, or undefined for a call through a pointer (or a non-call). */
export function calleeName(e: Expr): string | undefined {
  if (e.k !== 'call') return undefined;
  const c = stripCasts(e.callee);
  return c.k === 'id' ? c.name : undefined;
}

/** The callee of a call with casts and `*` removed (`(*f)(x)` calls f; so does `(**f)(x)`). */
export function calleeOf(e: Expr): Expr {
  let c = e;
  while (c.k === 'cast' || (c.k === 'unary' && c.op === '*')) c = c.arg;
  return c;
}

export function stripCasts(e: Expr): Expr {
  return e.k === 'cast' ? stripCasts(e.arg) : e;
}

/** A literal or `NULL`, possibly cast: what a null pointer argument looks like. */
export function isNullish(e: Expr): boolean {
  const s = stripCasts(e);
  return s.k === 'num' || (s.k === 'id' && s.name === 'NULL');
}

/** Whether some expression in a statement tree (statement expressions included) satisfies `pred`. */
export function someNode(s: Stmt, pred: (e: Expr) => boolean): boolean {
  const ex = (e: Expr | undefined): boolean => e !== undefined && (pred(e) || subExprs(e).some(ex) || (e.k === 'stmtexpr' && st(e.body)));
  const st = (x: Stmt | undefined): boolean => x !== undefined && (stmtExprs(x).some(ex) || subStmts(x).some(st));
  return st(s);
}

/** The expressions in a statement tree that satisfy `pred`, in the order of the source. */
export function collectNodes(s: Stmt, pred: (e: Expr) => boolean): Expr[] {
  const out: Expr[] = [];
  someNode(s, (e) => (pred(e) && out.push(e), false));
  return out;
}

/** The direct subexpressions of an expression. */
function subExprs(e: Expr): Expr[] {
  switch (e.k) {
    case 'unary':
    case 'cast':
      return [e.arg];
    case 'binary':
      return [e.left, e.right];
    case 'assign':
      return [e.target, e.value];
    case 'incdec':
      return [e.target];
    case 'cond':
      return [e.test, e.then, e.else];
    case 'call':
      return [e.callee, ...e.args];
    case 'index':
      return [e.base, e.index];
    case 'member':
      return [e.base];
    case 'comma':
      return e.exprs;
    case 'init':
      return e.items;
    default:
      return [];
  }
}

/** The expressions a statement holds directly (not those of its nested statements). */
function stmtExprs(s: Stmt): (Expr | undefined)[] {
  switch (s.k) {
    case 'decl':
      return s.decl.items.map((i) => i.init);
    case 'expr':
    case 'return':
    case 'switch':
      return [s.e];
    case 'if':
    case 'while':
    case 'do':
      return [s.cond];
    case 'for':
      return [s.cond, s.step];
    case 'case':
      return [s.value];
    default:
      return [];
  }
}

/** The statements nested directly in a statement. */
function subStmts(s: Stmt): (Stmt | undefined)[] {
  switch (s.k) {
    case 'block':
      return s.body;
    case 'if':
      return [s.then, s.else];
    case 'while':
    case 'do':
    case 'label':
    case 'case':
    case 'default':
    case 'switch':
      return [s.body];
    case 'for':
      return [s.init, s.body];
    default:
      return [];
  }
}

/** The library calls that allocate an object (lower/pointers.ts allocation). */
export const ALLOCATORS: ReadonlySet<string> = new Set(['malloc', 'calloc', 'alloca', '__builtin_alloca']);

/**
 * Whether `body` creates a thread or allocates, itself or through the functions it
 * calls (`functionBody` gives a callee's body): each such step is one object of its
 * own (a thread instance, a heap object), so its function is inlined at every call.
 */
export function createsObjects(body: Stmt, functionBody: (name: string) => Stmt | undefined, seen = new Set<string>()): boolean {
  return someNode(body, (e) => {
    const callee = calleeName(e);
    if (!callee) return false;
    if (callee === 'pthread_create' || ALLOCATORS.has(callee)) return true;
    const calleeBody = seen.has(callee) ? undefined : functionBody(callee);
    seen.add(callee);
    return calleeBody !== undefined && createsObjects(calleeBody, functionBody, seen);
  });
}

export function createsThreads(body: Stmt): boolean {
  return someNode(body, (e) => calleeName(e) === 'pthread_create');
}

export function createsOrJoins(body: Stmt): boolean {
  return someNode(body, (e) => {
    const callee = calleeName(e);
    return callee === 'pthread_create' || callee === 'pthread_join';
  });
}

/** Whether some array index in `body` mentions variable `name`. */
export function indexesBy(body: Stmt, name: string): boolean {
  return someNode(body, (e) => e.k === 'index' && someNode({ k: 'expr', e: e.index, pos: e.pos }, (x) => x.k === 'id' && x.name === name));
}

export function takesAddress(body: Stmt, name: string): boolean {
  return someNode(body, (e) => e.k === 'unary' && e.op === '&' && e.arg.k === 'id' && e.arg.name === name);
}

/** Adds to `into` the variables `s` may change: assigned, incremented, or with their address taken (the variable an lvalue is part of). */
export function writtenNames(s: Stmt, into: Set<string>): void {
  const root = (e: Expr): string | undefined => {
    const x = stripCasts(e);
    return x.k === 'id' ? x.name : x.k === 'index' || x.k === 'member' ? root(x.base) : undefined;
  };
  someNode(s, (e) => {
    const lv = e.k === 'assign' || e.k === 'incdec' ? e.target : e.k === 'unary' && e.op === '&' ? e.arg : undefined;
    const name = lv && root(lv);
    if (name) into.add(name);
    return false;
  });
}

export function assigns(body: Stmt, name: string): boolean {
  return someNode(body, (e) => (e.k === 'assign' || e.k === 'incdec') && e.target.k === 'id' && e.target.name === name);
}

/** The values the loop variable takes, or why they are not known statically. */
export function unrollValues(s: ForStmt, name: string | undefined, start: bigint | undefined, bound: bigint | undefined): UnrollPlan | string {
  if (!name) return 'no loop variable';
  if (start === undefined) return 'start is not a constant';
  const c = s.cond;
  if (!c || c.k !== 'binary' || c.left.k !== 'id' || c.left.name !== name || bound === undefined)
    return `condition must compare '${name}' with a constant`;
  const step = stepOf(s.step, name);
  if (step === undefined) return `step must be ${name}++, ${name}--, or ${name} += constant`;
  if (assigns(s.body, name)) return `the body assigns '${name}'`;
  const test: Record<string, (a: bigint) => boolean> = {
    '<': (a) => a < bound,
    '<=': (a) => a <= bound,
    '>': (a) => a > bound,
    '>=': (a) => a >= bound,
    '!=': (a) => a !== bound,
  };
  const holds = test[c.op];
  if (!holds) return `unsupported comparison '${c.op}'`;
  const values: bigint[] = [];
  let v = start;
  while (holds(v)) {
    values.push(v);
    if (values.length > 4096) return 'more than 4096 iterations';
    v += step;
  }
  return { name, values, final: v };
}

/**
 * The values of a loop variable that counts up by one from `start` when each iteration
 * creates or joins the thread in cell `name` of an array of `cells` cells
 * (surelyUsedCell): the values in bounds, then the first one out of bounds, whose
 * iteration ends at the error location. Or why the loop is not of this shape.
 */
export function cellValues(s: ForStmt, name: string, start: bigint, cells: number): UnrollPlan | string {
  if (stepOf(s.step, name) !== 1n) return `step must be ${name}++ or ${name} += 1`;
  const parts: Stmt[] = s.cond ? [s.body, { k: 'expr', e: s.cond, pos: s.cond.pos }] : [s.body];
  if (parts.some((x) => assigns(x, name) || takesAddress(x, name))) return `the loop assigns '${name}' or takes its address`;
  const values = [start];
  for (let v = start; v >= 0n && v < BigInt(cells); ) values.push(++v);
  return { name, values };
}

/**
 * The array `a` of a `pthread_create(&a[name], …)` or `pthread_join(a[name], …)` that
 * every iteration of a loop body that completes has evaluated: a statement of the body
 * (or of a block in it) evaluates the call whatever the values (not under `&&`, `||`,
 * `?:`), no statement before it can jump (break, continue, return, goto, also in a
 * statement expression), and the body has no labels (a jump into it could skip the call).
 */
export function surelyUsedCell(body: Stmt, name: string): string | undefined {
  if (someStmt(body, (x) => x.k === 'label' || x.k === 'case' || x.k === 'default')) return undefined;
  const into = (e: Expr): string | undefined => {
    const callee = calleeName(e);
    const h = (callee === 'pthread_create' || callee === 'pthread_join') && e.k === 'call' && e.args.length > 0 ? stripCasts(e.args[0]) : undefined;
    const cell = callee === 'pthread_create' ? (h?.k === 'unary' && h.op === '&' ? h.arg : undefined) : h;
    return cell?.k === 'index' && cell.base.k === 'id' && cell.index.k === 'id' && cell.index.name === name ? cell.base.name : undefined;
  };
  // The array, null once a statement may jump, undefined if neither happened.
  const inSeq = (xs: readonly Stmt[]): string | null | undefined => {
    for (const x of xs) {
      const hit = x.k === 'block' ? inSeq(x.body) : SURE.includes(x.k) ? surelyEvaluated(stmtExprs(x), into) : undefined;
      if (hit !== undefined) return hit;
      if (mayJump(x)) return null;
    }
    return undefined;
  };
  return inSeq([body]) ?? undefined;
}

/** The statements whose expressions (stmtExprs) are all evaluated when the statement runs. */
const SURE: readonly Stmt['k'][] = ['expr', 'decl', 'if', 'switch', 'while', 'return'];

/** Whether a statement may leave its loop iteration early: break, continue, return or goto, also in a statement expression. */
function mayJump(s: Stmt): boolean {
  return someStmt(s, (x) => x.k === 'break' || x.k === 'continue' || x.k === 'return' || x.k === 'goto') || someNode(s, (e) => e.k === 'stmtexpr' && mayJump(e.body));
}

/** The first `find` answer in expressions that are evaluated whatever the values (in order; `if`, `switch`, declarations and expression statements hold such). */
function surelyEvaluated(es: readonly (Expr | undefined)[], find: (e: Expr) => string | undefined): string | undefined {
  const sure = (e: Expr): string | undefined => {
    const hit = find(e);
    if (hit) return hit;
    if (e.k === 'binary' && (e.op === '&&' || e.op === '||')) return sure(e.left);
    if (e.k === 'cond') return sure(e.test);
    if (e.k === 'stmtexpr') return undefined;
    for (const x of subExprs(e)) {
      const h = sure(x);
      if (h) return h;
    }
    return undefined;
  };
  for (const e of es) {
    const hit = e && sure(e);
    if (hit) return hit;
  }
  return undefined;
}

/** Whether a loop body has a `break` of its own loop (not of a loop or switch inside it). */
export function breaksOut(body: Stmt): boolean {
  const own = (x: Stmt): boolean => x.k === 'break' || (!['while', 'do', 'for', 'switch'].includes(x.k) && subStmts(x).some((y) => y !== undefined && own(y)));
  return own(body) || someNode(body, (e) => e.k === 'stmtexpr' && own(e.body));
}

/** Whether some statement in a statement tree satisfies `pred` (not looking into expressions). */
function someStmt(s: Stmt, pred: (x: Stmt) => boolean): boolean {
  return pred(s) || subStmts(s).some((x) => x !== undefined && someStmt(x, pred));
}

/** The constant a for-loop step adds to `name` (`i++`, `i--`, `i += k`, `i -= k`), or undefined. */
function stepOf(step: Expr | undefined, name: string): bigint | undefined {
  if (!step) return undefined;
  if (step.k === 'incdec' && step.target.k === 'id' && step.target.name === name) return step.op === '++' ? 1n : -1n;
  if (step.k === 'assign' && step.target.k === 'id' && step.target.name === name && step.value.k === 'num') {
    if (step.op === '+=') return step.value.value;
    if (step.op === '-=') return -step.value.value;
  }
  return undefined;
}

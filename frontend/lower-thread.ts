/**
 * Lowers the C statements one thread instance executes into its control-flow graph:
 * calls are inlined (so recursion is rejected), conditions become single-atom assume
 * edges (`!=` is split into `<` and `>`), thread creation loops with a constant bound
 * are unrolled, atomic functions and regions are bracketed by atomic markers, and
 * mutexes, joins and thread starts become guards on ghost globals.
 */
import type { Declaration, Expr, FunctionDef, Stmt } from './ast.js';
import { Cfg, actionVars, type Action } from './cfg.js';
import { fail, unsupported, type SourcePos } from './diagnostics.js';
import {
  FALSE,
  TRUE,
  add,
  cdiv,
  crem,
  eq,
  ge,
  gt,
  le,
  linearOf,
  lt,
  mkVar,
  mul,
  neg,
  num,
  show,
  sub,
  type Term,
} from '../solver/formula.js';
import { applyDeclarator, baseType, showType, type CType } from './types.js';
import type { Lowering } from './lower.js';

/** What an identifier denotes while lowering. */
export type Binding =
  | { k: 'var'; name: string; type: CType }
  | { k: 'array'; elems: Binding[]; type: CType }
  | { k: 'handle'; slot: { inst?: Instance } }
  | { k: 'alias'; target: Binding }
  | { k: 'const'; value: bigint }
  | { k: 'null' };

/** An lvalue: a fixed binding, or an array cell chosen by a run-time index. */
type Place = { k: 'static'; b: Binding } | { k: 'dynamic'; elems: Binding[]; index: Term; pos: SourcePos };

export interface Instance {
  index: number;
  name: string;
  fn: FunctionDef;
  /** What the thread function's parameter denotes (the pthread_create argument). */
  arg: Binding;
  startedAtInit: boolean;
  joined: boolean;
  /** Functions on the creation chain (to reject a thread that transitively creates itself). */
  chain: string[];
  pos: SourcePos;
}

/** A function lowered once per thread for kept calls: where it starts, its parameters and result. */
interface Proc {
  entry: number;
  params: string[];
  retVar?: string;
}

interface Frame {
  fn: string;
  prefix: string;
  retVar?: string;
  retLoc: number;
  labels: Map<string, { loc: number; defined: boolean; pos: SourcePos }>;
}

const ERROR_CALLS = new Set(['reach_error', '__VERIFIER_error', '__assert_fail', '__assert_perror_fail', '__assert', '__assert_rtn']);
const HALT_CALLS = new Set(['abort', 'exit', '_exit', '_Exit']);
const IGNORED_CALLS = new Set([
  'printf', 'puts', 'putchar', 'fprintf', 'fflush', 'sched_yield', 'pthread_yield', 'pthread_mutex_destroy',
  'pthread_mutexattr_init', 'pthread_mutexattr_destroy', 'pthread_mutexattr_settype', 'pthread_attr_init',
  'pthread_attr_destroy', 'pthread_attr_setdetachstate', '__VERIFIER_atomic_end_dummy',
]);
const NONDET_RANGES: Record<string, [bigint | undefined, bigint | undefined]> = {
  bool: [0n, 1n],
  char: [-128n, 127n],
  uchar: [0n, 255n],
  short: [-32768n, 32767n],
  ushort: [0n, 65535n],
  uint: [0n, undefined],
  ulong: [0n, undefined],
  ulonglong: [0n, undefined],
  unsigned: [0n, undefined],
  size_t: [0n, undefined],
};

/** Exposes the builder's current location; a fresh unreachable one after a jump. */
export class ThreadBuilder {
  readonly cfg = new Cfg();
  readonly entry: number;
  readonly preExit: number;
  readonly exit: number;
  readonly err: number;
  readonly halt: number;
  readonly locals: string[] = [];
  /** Constant initial values of locals hoisted into φ_init (threads started at init). */
  readonly initValues = new Map<string, bigint>();
  private cur: number;
  private scopes: Map<string, Binding>[] = [];
  private frames: Frame[] = [];
  private loops: { brk: number; cont?: number }[] = [];
  private realLoops = 0;
  private tempCount = 0;
  private liveTemps: string[] = [];
  private inlineCount = new Map<string, number>();
  private procs = new Map<string, Proc>();
  /** Open atomic sections (kept calls cannot be inside one). */
  private atomicDepth = 0;
  /** main only: creates before any visible step start their threads at init. */
  private prefixOpen: boolean;
  /** main has started a thread (so its global writes are visible from now on). */
  private startedThreads = false;

  constructor(
    private readonly L: Lowering,
    readonly inst: Instance,
  ) {
    const pos = inst.fn.pos;
    this.entry = this.cfg.newLoc(pos);
    this.preExit = this.cfg.newLoc();
    this.exit = this.cfg.newLoc();
    this.err = this.cfg.newLoc();
    this.halt = this.cfg.newLoc();
    this.cfg.terminal.set(this.exit, 'exit').set(this.err, 'error').set(this.halt, 'halt');
    this.cur = this.entry;
    this.prefixOpen = inst.index === 0;
  }

  /** Lowers the thread function's body. */
  build(): void {
    const { fn } = this.inst;
    const pos = fn.pos;
    if (!this.inst.startedAtInit) {
      const flag = this.L.ghost(`__started.${this.inst.name}`);
      this.emit({ kind: 'assume', cond: eq(mkVar(flag), num(1)), blocking: true }, pos, `start ${this.inst.name}`);
    }
    const frame: Frame = { fn: fn.decl.name!, prefix: this.inst.name, retLoc: this.preExit, labels: new Map() };
    this.frames.push(frame);
    this.scopes.push(new Map());
    const params = this.params(fn);
    if (this.inst.index === 0) params.forEach((p) => p.name && this.bind(p.name, { k: 'null' }));
    else {
      if (params.length > 1) unsupported(pos, `thread function '${frame.fn}' takes ${params.length} parameters (pthread_create passes one)`);
      if (params[0]?.name) this.bind(params[0].name, this.inst.arg);
    }
    const body = fn.body.k === 'block' ? fn.body.body : [fn.body];
    let hoisting = this.inst.startedAtInit;
    for (const s of body) {
      if (hoisting && s.k === 'decl' && this.hoistDecl(s.decl)) continue;
      hoisting = false;
      this.stmt(s);
    }
    this.goto(this.preExit, fn.pos);
    this.checkLabels(frame);
    this.scopes.pop();
    this.frames.pop();
  }

  // ---- locations and edges

  private emit(action: Action, pos: SourcePos, text: string, wrapRisk = false): void {
    const to = this.cfg.newLoc(pos);
    this.edge(this.cur, to, action, pos, text, wrapRisk);
    this.cur = to;
  }

  private edge(from: number, to: number, action: Action, pos: SourcePos, text: string, wrapRisk = false): void {
    if (this.prefixOpen && !(action.kind === 'assign' || action.kind === 'havoc' || action.kind === 'skip')) this.prefixOpen = false;
    if (this.prefixOpen && this.touchesGlobal(action)) this.prefixOpen = false;
    this.cfg.edge(from, to, action, pos, text, wrapRisk);
  }

  private touchesGlobal(a: Action): boolean {
    return [...actionVars(a)].some((v) => this.L.isGlobal(v));
  }

  /** if-then-else in the CFG: `split(t, f)` emits the branch edges, then both arms meet. */
  private diamond(split: (t: number, f: number) => void, pos: SourcePos, onTrue: () => void, onFalse: () => void): void {
    const t = this.cfg.newLoc(pos);
    const f = this.cfg.newLoc(pos);
    const join = this.cfg.newLoc(pos);
    split(t, f);
    this.cur = t;
    onTrue();
    this.goto(join, pos, '');
    this.cur = f;
    onFalse();
    this.goto(join, pos, '');
    this.cur = join;
  }

  private goto(to: number, pos: SourcePos, text = 'goto'): void {
    this.edge(this.cur, to, { kind: 'skip' }, pos, text);
    this.cur = this.cfg.newLoc(); // unreachable until something jumps here
  }

  private assume(cond: Term, to: number, pos: SourcePos, blocking: boolean): void {
    if (cond === FALSE) return;
    if (cond === TRUE) this.edge(this.cur, to, { kind: 'skip' }, pos, 'true');
    else this.edge(this.cur, to, { kind: 'assume', cond, blocking }, pos, `[${show(cond)}]`);
  }

  private assign(target: Binding, value: Term, pos: SourcePos, text?: string): void {
    // Before main starts any thread nobody can observe a global: `g = c` there is g's initial value.
    if (this.prefixOpen && !this.startedThreads && target.k === 'var' && this.L.isGlobal(target.name) && value.kind === 'int') {
      this.L.globalInit.set(target.name, target.type.k === 'int' && target.type.bool ? (value.value !== 0n ? 1n : 0n) : value.value);
      return;
    }
    if (target.k === 'null' || target.k === 'alias') unsupported(pos, 'assignment to a pointer (only &variable arguments of called functions are modelled)');
    if (target.k !== 'var' || target.type.k !== 'int') {
      if (target.k === 'var' && target.type.k === 'mutex') {
        this.emit({ kind: 'assign', target: target.name, value }, pos, text ?? `${target.name} = ${show(value)}`);
        return;
      }
      unsupported(pos, `assignment to a variable of type ${target.k === 'var' ? showType(target.type) : target.k}`);
      return;
    }
    const t = target.type;
    if (t.bool && !this.isBoolTerm(value)) {
      // _Bool b = v stores v != 0.
      const name = target.name;
      this.diamond(
        (one, zero) => {
          const from = this.cur;
          for (const c of [lt(value, num(0)), gt(value, num(0))]) {
            this.cur = from;
            this.assume(c, one, pos, false);
          }
          this.cur = from;
          this.assume(eq(value, num(0)), zero, pos, false);
        },
        pos,
        () => this.emit({ kind: 'assign', target: name, value: num(1) }, pos, text ?? `${this.L.cname(name)} = 1`),
        () => this.emit({ kind: 'assign', target: name, value: num(0) }, pos, text ?? `${this.L.cname(name)} = 0`),
      );
      return;
    }
    let risk = false;
    if (t.unsigned && !this.nonNegative(value)) {
      risk = true;
      this.L.warn(pos, `unsigned '${this.L.cname(target.name)}' may wrap around here; rely models mathematical integers, so a verdict that depends on it is not trusted`);
    }
    this.emit({ kind: 'assign', target: target.name, value }, pos, text ?? `${this.L.cname(target.name)} = ${show(value)}`, risk);
  }

  private isBoolTerm(t: Term): boolean {
    if (t.kind === 'int') return t.value === 0n || t.value === 1n;
    return t.kind === 'var' && this.L.isBoolVar(t.name);
  }

  /** Syntactically non-negative: a non-negative combination of unsigned variables. */
  private nonNegative(t: Term): boolean {
    const l = linearOf(t);
    if (!l || l.constant < 0n) return false;
    for (const [v, c] of l.coeffs) if (c < 0n || !this.L.isUnsignedVar(v)) return false;
    return true;
  }

  // ---- scopes and variables

  private bind(name: string, b: Binding): void {
    this.scopes[this.scopes.length - 1].set(name, b);
  }

  private lookup(name: string, pos: SourcePos): Binding {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const b = this.scopes[i].get(name);
      if (b) return b;
    }
    return this.L.global(name, pos) ?? fail(pos, `undeclared identifier '${name}'`);
  }

  private frame(): Frame {
    return this.frames[this.frames.length - 1];
  }

  /** Creates the IR variables for a local declaration of the given type. */
  private declareLocal(cname: string, type: CType, pos: SourcePos, temp = false): Binding {
    switch (type.k) {
      case 'int':
      case 'mutex': {
        const base = `${this.frame().prefix}.${cname}`;
        let name = base;
        for (let k = 2; this.L.hasVar(name); k++) name = `${base}#${k}`;
        this.L.addLocal(name, this.inst.index, type, cname, pos, temp);
        this.locals.push(name);
        return { k: 'var', name, type };
      }
      case 'thread':
        return { k: 'handle', slot: {} };
      case 'array': {
        if (type.size === undefined) return unsupported(pos, `array '${cname}' without a constant size`);
        if (type.size > 4096) return unsupported(pos, `array '${cname}' with ${type.size} elements (at most 4096)`);
        const elems = Array.from({ length: type.size }, (_, i) => this.declareLocal(`${cname}[${i}]`, type.of, pos));
        return { k: 'array', elems, type };
      }
      case 'ptr':
        return { k: 'null' };
      default:
        return unsupported(pos, `local variable '${cname}' of type ${showType(type)}`);
    }
  }

  private typeOf(d: Declaration, item: Declaration['items'][number]): CType {
    return applyDeclarator(baseType(d.spec, this.L.typeEnv), item.decl, this.L.typeEnv);
  }

  /** Hoists `int x = <constant>;` at the top of a thread started at init into φ_init. */
  private hoistDecl(d: Declaration): boolean {
    if (d.spec.storage.length) return false;
    const plans: [string, CType, bigint | undefined, SourcePos][] = [];
    for (const item of d.items) {
      const t = this.typeOf(d, item);
      if (t.k !== 'int' || !item.decl.name) return false;
      let v: bigint | undefined;
      if (item.init) {
        v = this.L.constant(item.init);
        if (v === undefined) return false;
        if (t.bool) v = v !== 0n ? 1n : 0n;
      }
      plans.push([item.decl.name, t, v, item.decl.pos]);
    }
    for (const [name, t, v, pos] of plans) {
      const b = this.declareLocal(name, t, pos);
      this.bind(name, b);
      if (v !== undefined && b.k === 'var') this.initValues.set(b.name, v);
    }
    return true;
  }

  private declaration(d: Declaration, pos: SourcePos): void {
    if (d.spec.storage.includes('typedef') || d.spec.storage.includes('extern')) {
      if (d.spec.storage.includes('typedef')) unsupported(pos, 'typedef inside a function');
      return;
    }
    for (const item of d.items) {
      const name = item.decl.name;
      if (!name) continue;
      const t = this.typeOf(d, item);
      if (t.k === 'func') continue; // local prototype
      if (d.spec.storage.includes('static')) {
        this.bind(name, this.L.staticLocal(this.frame().fn, name, t, item.init, item.decl.pos));
        continue;
      }
      const b = this.declareLocal(name, t, item.decl.pos);
      this.bind(name, b);
      const at = item.decl.pos;
      if (item.init) this.initialize(b, item.init, at, name);
      else if (b.k === 'var' && t.k === 'int') this.emit({ kind: 'havoc', target: b.name, lo: t.lo, hi: t.hi }, at, `${name} = <uninitialized>`);
      else if (b.k === 'array')
        for (const e of b.elems)
          if (e.k === 'var' && e.type.k === 'int') this.emit({ kind: 'havoc', target: e.name, lo: e.type.lo, hi: e.type.hi }, at, `${this.L.cname(e.name)} = <uninitialized>`);
    }
  }

  private initialize(b: Binding, init: Expr, pos: SourcePos, name: string): void {
    if (b.k === 'array') {
      const items = init.k === 'init' ? init.items : fail(init.pos, `array '${name}' needs a brace initializer`);
      b.elems.forEach((e, i) => (items[i] ? this.initialize(e, items[i], pos, name) : this.assign(e, num(0), pos)));
      return;
    }
    if (b.k === 'var' && b.type.k === 'mutex') {
      this.assign(b, num(0), pos, `${name} = PTHREAD_MUTEX_INITIALIZER`);
      return;
    }
    if (b.k === 'handle') return;
    if (b.k === 'null') {
      if (this.L.constant(stripCasts(init)) === 0n) return;
      unsupported(init.pos, `pointer variable '${name}' (only &variable arguments of called functions are modelled)`);
    }
    const e = init.k === 'init' ? (init.items[0] ?? { k: 'num' as const, value: 0n, pos }) : init;
    this.assignExpr(b, e, pos);
  }

  private fresh(hint: string, bool = false): Binding {
    const b = this.declareLocal(`__${hint}${++this.tempCount}`, { k: 'int', unsigned: bool, bool }, this.inst.fn.pos, true);
    this.liveTemps.push((b as { name: string }).name);
    return b;
  }

  /** Resets temporaries at the end of a statement: they are dead, and stale values only multiply states. */
  private resetTemps(pos: SourcePos): void {
    for (const t of this.liveTemps) this.emit({ kind: 'assign', target: t, value: num(0) }, pos, '');
    this.liveTemps = [];
  }

  private checkLabels(f: Frame): void {
    for (const [name, l] of f.labels) if (!l.defined) fail(l.pos, `goto to undefined label '${name}'`);
  }

  private label(name: string, pos: SourcePos): number {
    const f = this.frame();
    let l = f.labels.get(name);
    if (!l) {
      l = { loc: this.cfg.newLoc(pos), defined: false, pos };
      f.labels.set(name, l);
    }
    return l.loc;
  }

  // ---- statements

  private stmt(s: Stmt): void {
    switch (s.k) {
      case 'empty':
        return;
      case 'decl':
        this.declaration(s.decl, s.pos);
        this.resetTemps(s.pos);
        return;
      case 'expr':
        this.effect(s.e);
        this.resetTemps(s.pos);
        return;
      case 'block':
        this.scopes.push(new Map());
        s.body.forEach((b) => this.stmt(b));
        this.scopes.pop();
        return;
      case 'if':
        this.diamond(
          (t, f) => this.branch(s.cond, t, f),
          s.pos,
          () => this.stmt(s.then),
          () => s.else && this.stmt(s.else),
        );
        return;
      case 'while': {
        const head = this.cfg.newLoc(s.pos);
        const body = this.cfg.newLoc(s.body.pos);
        const exit = this.cfg.newLoc(s.pos);
        this.goto(head, s.pos, '');
        this.cur = head;
        this.branch(s.cond, body, exit);
        this.loopBody(s.body, body, exit, head);
        this.goto(head, s.pos, '');
        this.cur = exit;
        return;
      }
      case 'do': {
        const body = this.cfg.newLoc(s.body.pos);
        const cond = this.cfg.newLoc(s.cond.pos);
        const exit = this.cfg.newLoc(s.pos);
        this.goto(body, s.pos, '');
        this.loopBody(s.body, body, exit, cond);
        this.goto(cond, s.pos, '');
        this.cur = cond;
        this.branch(s.cond, body, exit);
        this.cur = exit;
        return;
      }
      case 'for':
        this.forLoop(s);
        return;
      case 'break': {
        const l = this.loops[this.loops.length - 1] ?? fail(s.pos, "'break' outside a loop or switch");
        this.goto(l.brk, s.pos, 'break');
        return;
      }
      case 'continue': {
        const l = [...this.loops].reverse().find((x) => x.cont !== undefined) ?? fail(s.pos, "'continue' outside a loop");
        this.goto(l.cont!, s.pos, 'continue');
        return;
      }
      case 'return': {
        const f = this.frame();
        if (s.e) {
          if (f.retVar) this.assignExpr(this.lookupVar(f.retVar), s.e, s.pos);
          else this.effect(s.e);
        }
        this.resetTemps(s.pos);
        this.goto(f.retLoc, s.pos, 'return');
        return;
      }
      case 'goto':
        this.goto(this.label(s.label, s.pos), s.pos, `goto ${s.label}`);
        return;
      case 'label': {
        if (s.name === 'ERROR') {
          this.goto(this.err, s.pos, 'ERROR:');
          this.stmt(s.body); // unreachable, but still checked
          return;
        }
        const loc = this.label(s.name, s.pos);
        const l = this.frame().labels.get(s.name)!;
        if (l.defined) fail(s.pos, `duplicate label '${s.name}'`);
        l.defined = true;
        this.prefixOpen = false;
        this.goto(loc, s.pos, '');
        this.cur = loc;
        this.stmt(s.body);
        return;
      }
      case 'switch':
        this.switchStmt(s);
        return;
      case 'case':
      case 'default':
        return fail(s.pos, `'${s.k}' outside a switch`);
      case 'asm':
        return unsupported(s.pos, 'inline assembly');
    }
  }

  private lookupVar(name: string): Binding {
    return { k: 'var', name, type: { k: 'int', unsigned: this.L.isUnsignedVar(name), bool: this.L.isBoolVar(name) } };
  }

  private loopBody(body: Stmt, start: number, brk: number, cont: number): void {
    this.prefixOpen = false;
    this.cur = start;
    this.loops.push({ brk, cont });
    this.realLoops++;
    this.stmt(body);
    this.realLoops--;
    this.loops.pop();
  }

  private forLoop(s: Extract<Stmt, { k: 'for' }>): void {
    this.scopes.push(new Map());
    const unroll = this.unrollPlan(s);
    if (s.init) this.stmt(s.init);
    if (unroll) {
      const exit = this.cfg.newLoc(s.pos);
      for (const v of unroll.values) {
        const next = this.cfg.newLoc(s.pos);
        this.scopes.push(new Map([[unroll.name, { k: 'const', value: v }]]));
        this.loops.push({ brk: exit, cont: next });
        this.stmt(s.body);
        this.loops.pop();
        this.scopes.pop();
        this.goto(next, s.pos, '');
        this.cur = next;
      }
      this.assign(this.lookup(unroll.name, s.pos), num(unroll.final), s.pos);
      this.goto(exit, s.pos, '');
      this.cur = exit;
    } else {
      const head = this.cfg.newLoc(s.pos);
      const body = this.cfg.newLoc(s.body.pos);
      const step = this.cfg.newLoc(s.pos);
      const exit = this.cfg.newLoc(s.pos);
      this.goto(head, s.pos, '');
      this.cur = head;
      if (s.cond) this.branch(s.cond, body, exit);
      else this.goto(body, s.pos, '');
      this.loopBody(s.body, body, exit, step);
      this.goto(step, s.pos, '');
      this.cur = step;
      if (s.step) this.effect(s.step);
      this.resetTemps(s.pos);
      this.goto(head, s.pos, '');
      this.cur = exit;
    }
    this.scopes.pop();
  }

  /**
   * A `for (i = a; i < b; i++)` loop whose body creates or joins threads must have
   * constant bounds and is unrolled (threads are created statically). One that indexes
   * arrays by `i` is unrolled when it can be, so the cells become plain variables.
   */
  private unrollPlan(s: Extract<Stmt, { k: 'for' }>): { name: string; values: bigint[]; final: bigint } | undefined {
    let name: string | undefined;
    let start: bigint | undefined;
    const init = s.init;
    if (init?.k === 'expr' && init.e.k === 'assign' && init.e.op === '=' && init.e.target.k === 'id') {
      name = init.e.target.name;
      start = this.L.constant(init.e.value);
    } else if (init?.k === 'decl' && init.decl.items.length === 1 && init.decl.items[0].init) {
      name = init.decl.items[0].decl.name;
      start = this.L.constant(init.decl.items[0].init);
    }
    const required = createsOrJoins(s.body);
    if (!required && !(name && indexesBy(s.body, name))) return undefined;
    const bound = s.cond?.k === 'binary' ? this.L.constant(s.cond.right) : undefined;
    const plan = unrollValues(s, name, start, bound);
    if (typeof plan !== 'string') return plan;
    if (required) unsupported(s.pos, `thread creation or join in a loop without constant bounds (${plan}): unbounded thread creation`);
    return undefined;
  }

  private switchStmt(s: Extract<Stmt, { k: 'switch' }>): void {
    const value = this.rvalue(s.e);
    const exit = this.cfg.newLoc(s.pos);
    const cases: { stmt: Stmt; loc: number; value?: bigint }[] = [];
    const collect = (x: Stmt): void => {
      if (x.k === 'case' || x.k === 'default') {
        const v = x.k === 'case' ? this.L.constant(x.value) ?? fail(x.value.pos, 'case label is not a constant') : undefined;
        cases.push({ stmt: x, loc: this.cfg.newLoc(x.pos), value: v });
        collect(x.body);
      } else if (x.k === 'block') x.body.forEach(collect);
      else if (x.k === 'label') collect(x.body);
      else if (x.k === 'if') {
        collect(x.then);
        if (x.else) collect(x.else);
      } else if (x.k === 'while' || x.k === 'do' || x.k === 'for') collect(x.body);
    };
    collect(s.body);
    // Dispatch: a chain of tests at one location each.
    for (const c of cases) {
      if (c.value === undefined) continue;
      const next = this.cfg.newLoc(s.pos);
      this.assume(eq(value, num(c.value)), c.loc, c.stmt.pos, false);
      this.assume(lt(value, num(c.value)), next, c.stmt.pos, false);
      this.assume(gt(value, num(c.value)), next, c.stmt.pos, false);
      this.cur = next;
    }
    this.goto(cases.find((c) => c.value === undefined)?.loc ?? exit, s.pos, 'default');
    const locOf = new Map(cases.map((c) => [c.stmt, c.loc]));
    this.loops.push({ brk: exit });
    const walk = (x: Stmt): void => {
      const loc = locOf.get(x);
      if (loc !== undefined && (x.k === 'case' || x.k === 'default')) {
        this.goto(loc, x.pos, '');
        this.cur = loc;
        walk(x.body);
      } else if (x.k === 'block') {
        this.scopes.push(new Map());
        x.body.forEach(walk);
        this.scopes.pop();
      } else this.stmt(x);
    };
    walk(s.body);
    this.loops.pop();
    this.goto(exit, s.pos, '');
    this.cur = exit;
  }

  // ---- conditions

  /** Emits edges from the current location to `t` when `e` holds and to `f` otherwise. */
  private branch(e: Expr, t: number, f: number, blocking = false): void {
    if (e.k === 'binary' && (e.op === '&&' || e.op === '||')) {
      const mid = this.cfg.newLoc(e.right.pos);
      if (e.op === '&&') this.branch(e.left, mid, f, blocking);
      else this.branch(e.left, t, mid, blocking);
      this.cur = mid;
      this.branch(e.right, t, f, blocking);
      return;
    }
    if (e.k === 'unary' && e.op === '!') return this.branch(e.arg, f, t, blocking);
    if (e.k === 'cast' && this.castType(e).k === 'int') return this.branch(e.arg, t, f, blocking);
    if (e.k === 'comma') {
      e.exprs.slice(0, -1).forEach((x) => this.effect(x));
      return this.branch(e.exprs[e.exprs.length - 1], t, f, blocking);
    }
    const rel = e.k === 'binary' ? REL[e.op] : undefined;
    let yes: Term[];
    let no: Term[];
    if (e.k === 'binary' && rel) {
      const a = this.rvalue(e.left);
      const b = this.rvalue(e.right);
      [yes, no] = rel(a, b);
    } else {
      const v = this.rvalue(e);
      [yes, no] = REL['!='](v, num(0));
    }
    const from = this.cur;
    for (const c of yes) {
      this.cur = from;
      this.assume(c, t, e.pos, blocking);
    }
    if (f >= 0)
      for (const c of no) {
        this.cur = from;
        this.assume(c, f, e.pos, blocking);
      }
    this.cur = this.cfg.newLoc();
  }

  // ---- expressions

  /** Evaluates an expression for its side effects only. */
  private effect(e: Expr): void {
    switch (e.k) {
      case 'assign':
        this.assignment(e);
        return;
      case 'incdec': {
        const step = e.op === '++' ? add : sub;
        this.atPlace(this.place(e.target), (lv) => this.assign(lv, step(this.read(lv, e.pos), num(1)), e.pos));
        return;
      }
      case 'call':
        this.call(e, false);
        return;
      case 'comma':
        e.exprs.forEach((x) => this.effect(x));
        return;
      case 'cast':
        this.effect(e.arg);
        return;
      case 'stmtexpr':
        this.stmt(e.body);
        return;
      case 'other':
        if (e.what === 'sizeof') return; // no side effects
        break;
      case 'cond':
        this.diamond(
          (t, f) => this.branch(e.test, t, f),
          e.pos,
          () => this.effect(e.then),
          () => this.effect(e.else),
        );
        return;
    }
    this.rvalue(e);
  }

  private assignment(e: Extract<Expr, { k: 'assign' }>): Place {
    const pl = this.place(e.target);
    if (e.op === '=') {
      if (pl.k === 'static') this.assignExpr(pl.b, e.value, e.pos);
      else {
        const rhs = this.rvalue(e.value);
        this.atPlace(pl, (lv) => this.assign(lv, rhs, e.pos));
      }
      return pl;
    }
    const arith = ARITH[e.op.slice(0, -1)] ?? unsupported(e.pos, `operator '${e.op}' (bit operations are not modelled)`);
    const rhs = this.rvalue(e.value);
    this.atPlace(pl, (lv) => this.assign(lv, arith(this.read(lv, e.pos), rhs, e.pos), e.pos));
    return pl;
  }

  /**
   * Where an lvalue expression points: one binding, or an array cell chosen by an
   * index only known at run time.
   */
  private place(e: Expr): Place {
    if (e.k !== 'index') return { k: 'static', b: this.lvalue(e) };
    const base = this.lvalue(e.base);
    const b = base.k === 'alias' ? base.target : base;
    if (b.k !== 'array') return unsupported(e.pos, 'indexing something that is not an array');
    const i = this.rvalue(e.index);
    if (i.kind !== 'int') return { k: 'dynamic', elems: b.elems, index: i, pos: e.pos };
    const k = Number(i.value);
    if (k < 0 || k >= b.elems.length) return fail(e.index.pos, `array index ${i.value} out of bounds [0, ${b.elems.length})`);
    return { k: 'static', b: b.elems[k] };
  }

  /**
   * Runs `fn` on the cell a place denotes. A run-time index becomes a case split
   * (index = k for each cell); an index out of bounds is undefined behaviour and
   * reaches the error location.
   */
  private atPlace(p: Place, fn: (b: Binding) => void): void {
    if (p.k === 'static') return fn(p.b);
    const from = this.cur;
    const join = this.cfg.newLoc(p.pos);
    p.elems.forEach((b, k) => {
      const loc = this.cfg.newLoc(p.pos);
      this.cur = from;
      this.assume(eq(p.index, num(k)), loc, p.pos, false);
      this.cur = loc;
      fn(b);
      this.goto(join, p.pos, '');
    });
    const oob = this.cfg.newLoc(p.pos);
    for (const c of [lt(p.index, num(0)), ge(p.index, num(p.elems.length))]) {
      this.cur = from;
      this.assume(c, oob, p.pos, false);
    }
    this.cur = oob;
    this.goto(this.err, p.pos, `array index out of bounds [0, ${p.elems.length})`);
    this.cur = join;
  }

  private readPlace(p: Place, pos: SourcePos): Term {
    if (p.k === 'static') return this.read(p.b, pos);
    const tmp = this.fresh('elem');
    this.atPlace(p, (b) => this.assign(tmp, this.read(b, pos), pos, ''));
    return this.read(tmp, pos);
  }

  /** `target = e`, with a nondet call assigned directly and conditions stored as 0/1. */
  private assignExpr(target: Binding, e: Expr, pos: SourcePos): void {
    const nondet = this.nondetRange(e);
    if (nondet && target.k === 'var' && target.type.k === 'int') {
      const t = target.type;
      const lo = maxOpt(nondet[0], t.lo);
      const hi = minOpt(nondet[1], t.hi);
      this.emit({ kind: 'havoc', target: target.name, lo, hi }, pos, `${this.L.cname(target.name)} = ${calleeName(e)}()`);
      return;
    }
    if (target.k === 'handle') unsupported(pos, 'assignment of pthread_t values');
    this.assign(target, this.rvalue(e), pos);
  }

  private nondetRange(e: Expr): [bigint | undefined, bigint | undefined] | undefined {
    const name = calleeName(e);
    if (!name?.startsWith('__VERIFIER_nondet_') || this.L.hasBody(name)) return undefined;
    const kind = name.slice('__VERIFIER_nondet_'.length);
    if (/float|double|pointer/.test(kind)) unsupported(e.pos, `${name} (only integer nondeterminism is modelled)`);
    return NONDET_RANGES[kind] ?? [undefined, undefined];
  }

  private read(b: Binding, pos: SourcePos): Term {
    switch (b.k) {
      case 'var':
        if (b.type.k !== 'int') return unsupported(pos, `use of a ${showType(b.type)} value`);
        return mkVar(b.name);
      case 'const':
        return num(b.value);
      case 'null':
        return num(0);
      case 'alias':
        return unsupported(pos, 'pointer values (only &variable arguments that are dereferenced are modelled)');
      case 'array':
        return unsupported(pos, 'array values');
      case 'handle':
        return unsupported(pos, 'pthread_t values other than in pthread_create/pthread_join');
    }
  }

  /** The binding an lvalue expression denotes. */
  private lvalue(e: Expr): Binding {
    switch (e.k) {
      case 'id': {
        const b = this.lookup(e.name, e.pos);
        return b;
      }
      case 'unary':
        if (e.op === '*') {
          const p = this.lvalue(stripCasts(e.arg));
          if (p.k === 'alias') return p.target;
          if (p.k === 'null') return fail(e.pos, 'dereference of a null pointer');
          return unsupported(e.pos, 'dereference of a pointer that is not a &variable argument');
        }
        break;
      case 'index': {
        const p = this.place(e);
        return p.k === 'static' ? p.b : unsupported(e.index.pos, 'an array cell chosen at run time here (only reads and writes of it are modelled)');
      }
      case 'cast':
        return this.lvalue(e.arg);
      case 'member':
        return unsupported(e.pos, 'struct and union members');
    }
    return fail(e.pos, 'expression is not assignable');
  }

  /** Value of an expression as a term, emitting the edges of its side effects first. */
  rvalue(e: Expr): Term {
    switch (e.k) {
      case 'num':
        return num(e.value);
      case 'id': {
        const enumValue = this.L.enumConstant(e.name);
        if (enumValue !== undefined && !this.scopes.some((s) => s.has(e.name))) return num(enumValue);
        return this.read(this.lookup(e.name, e.pos), e.pos);
      }
      case 'index':
        return this.readPlace(this.place(e), e.pos);
      case 'unary':
        switch (e.op) {
          case '-':
            return neg(this.rvalue(e.arg));
          case '+':
            return this.rvalue(e.arg);
          case '!':
            return this.boolValue(e);
          case '*':
            return this.read(this.lvalue(e), e.pos);
          case '&':
            return unsupported(e.pos, "address-of ('&') outside a function argument");
          case '~':
            return unsupported(e.pos, "bitwise complement ('~')");
        }
        break;
      case 'binary': {
        if (REL[e.op] || e.op === '&&' || e.op === '||') return this.boolValue(e);
        const arith = ARITH[e.op] ?? unsupported(e.pos, `operator '${e.op}' (bit operations and shifts are not modelled)`);
        const a = this.rvalue(e.left);
        const b = this.rvalue(e.right);
        return arith(a, b, e.pos);
      }
      case 'assign':
        return this.readPlace(this.assignment(e), e.pos);
      case 'incdec': {
        const pl = this.place(e.target);
        const step = e.op === '++' ? add : sub;
        const tmp = this.fresh(e.prefix ? 'new' : 'old');
        this.atPlace(pl, (lv) => {
          const old = this.read(lv, e.pos);
          this.assign(tmp, e.prefix ? step(old, num(1)) : old, e.pos, '');
          this.assign(lv, step(old, num(1)), e.pos);
        });
        return this.read(tmp, e.pos);
      }
      case 'cond': {
        const tmp = this.fresh('cond');
        this.diamond(
          (t, f) => this.branch(e.test, t, f),
          e.pos,
          () => this.assign(tmp, this.rvalue(e.then), e.pos, ''),
          () => this.assign(tmp, this.rvalue(e.else), e.pos, ''),
        );
        return this.read(tmp, e.pos);
      }
      case 'call':
        return this.call(e, true) ?? fail(e.pos, `'${calleeName(e) ?? 'function'}' returns no value`);
      case 'cast': {
        const t = this.castType(e);
        if (t.k === 'int' && t.bool) return this.boolValue(e.arg);
        if (t.k === 'int' || t.k === 'ptr' || t.k === 'void') return this.rvalue(e.arg);
        return unsupported(e.pos, `cast to ${showType(t)}`);
      }
      case 'comma':
        e.exprs.slice(0, -1).forEach((x) => this.effect(x));
        return this.rvalue(e.exprs[e.exprs.length - 1]);
      case 'float':
        return unsupported(e.pos, `floating-point literal '${e.text}'`);
      case 'str':
        return unsupported(e.pos, 'string values');
      case 'member':
        return unsupported(e.pos, 'struct and union members');
      case 'init':
        return unsupported(e.pos, 'brace initializer here');
      case 'stmtexpr':
        return unsupported(e.pos, 'the value of a statement expression');
      case 'other':
        return unsupported(e.pos, e.what);
    }
    return fail((e as Expr).pos, 'unexpected expression');
  }

  private castType(e: Extract<Expr, { k: 'cast' }>): CType {
    return applyDeclarator(baseType(e.type.spec, this.L.typeEnv), e.type.decl, this.L.typeEnv);
  }

  /** The 0/1 value of a condition, through a temporary. */
  private boolValue(e: Expr): Term {
    const c = this.L.constant(e);
    if (c !== undefined) return num(c !== 0n ? 1n : 0n);
    const tmp = this.fresh('bool', true);
    this.diamond(
      (t, f) => this.branch(e, t, f),
      e.pos,
      () => this.assign(tmp, num(1), e.pos, ''),
      () => this.assign(tmp, num(0), e.pos, ''),
    );
    return this.read(tmp, e.pos);
  }

  // ---- calls

  private call(e: Extract<Expr, { k: 'call' }>, wantValue: boolean): Term | undefined {
    const name = calleeName(e) ?? unsupported(e.pos, 'call through a function pointer');
    const pos = e.pos;
    const args = e.args;
    const user = this.L.hasBody(name);
    if (ERROR_CALLS.has(name)) {
      this.goto(this.err, pos, `${name}()`);
      return undefined;
    }
    if (HALT_CALLS.has(name)) {
      this.emit({ kind: 'assign', target: this.L.haltFlag(), value: num(1) }, pos, `${name}()`);
      this.goto(this.halt, pos, '');
      return undefined;
    }
    if (name === '__VERIFIER_assume' || (name === 'assume_abort_if_not' && !user)) {
      this.arity(e, 1);
      const ok = this.cfg.newLoc(pos);
      if (name === '__VERIFIER_assume') this.branch(args[0], ok, -1, true);
      else {
        const stop = this.cfg.newLoc(pos);
        this.branch(args[0], ok, stop);
        this.cur = stop;
        this.emit({ kind: 'assign', target: this.L.haltFlag(), value: num(1) }, pos, 'abort()');
        this.goto(this.halt, pos, '');
      }
      this.cur = ok;
      return undefined;
    }
    if (name === 'assert' || (name === '__VERIFIER_assert' && !user)) {
      this.arity(e, 1);
      const ok = this.cfg.newLoc(pos);
      const bad = this.cfg.newLoc(pos);
      this.branch(args[0], ok, bad);
      this.cur = bad;
      this.goto(this.err, pos, `${name} failed`);
      this.cur = ok;
      return undefined;
    }
    if (name.startsWith('__VERIFIER_nondet_') && !user) {
      const range = this.nondetRange(e)!;
      const tmp = this.fresh('nondet');
      if (tmp.k === 'var') this.emit({ kind: 'havoc', target: tmp.name, lo: range[0], hi: range[1] }, pos, `${name}()`);
      return this.read(tmp, pos);
    }
    if (name === '__VERIFIER_atomic_begin' || name === '__VERIFIER_atomic_end') {
      this.atomicDepth += name.endsWith('begin') ? 1 : -1;
      this.emit({ kind: name.endsWith('begin') ? 'atomicBegin' : 'atomicEnd' }, pos, `${name}()`);
      return undefined;
    }
    if (name === 'pthread_create') return this.create(e);
    if (name === 'pthread_join') {
      const inst = this.handle(args[0]).slot.inst ?? fail(args[0].pos, 'pthread_join of a thread that was not created');
      inst.joined = true;
      const done = this.L.ghost(`__done.${inst.name}`);
      this.emit({ kind: 'assume', cond: eq(mkVar(done), num(1)), blocking: true }, pos, `pthread_join(${inst.name})`);
      return wantValue ? num(0) : undefined;
    }
    if (name === 'pthread_exit') {
      this.goto(this.frames[0].retLoc, pos, 'pthread_exit');
      return undefined;
    }
    if (name === 'pthread_mutex_lock' || name === 'pthread_mutex_unlock' || name === 'pthread_mutex_init') {
      const m = this.mutex(args[0]);
      if (name === 'pthread_mutex_lock') {
        const owner = num(this.inst.index + 1);
        this.emit({ kind: 'atomicBegin' }, pos, '');
        this.emit({ kind: 'assume', cond: eq(mkVar(m), num(0)), blocking: true }, pos, `pthread_mutex_lock(${this.L.cname(m)})`);
        this.emit({ kind: 'assign', target: m, value: owner }, pos, '');
        this.emit({ kind: 'atomicEnd' }, pos, '');
      } else this.assign({ k: 'var', name: m, type: { k: 'mutex' } }, num(0), pos, `${name}(${this.L.cname(m)})`);
      return wantValue ? num(0) : undefined;
    }
    if (IGNORED_CALLS.has(name) && !user) return wantValue ? num(0) : undefined;
    if (user) return this.keptCall(name) ? this.callKept(name, e, wantValue) : this.inline(name, e, wantValue);
    if (name.startsWith('pthread_')) return unsupported(pos, `${name}`);
    if (this.L.isDeclaredFunction(name)) return unsupported(pos, `call of '${name}', which has no body`);
    return fail(pos, `call of undeclared function '${name}'`);
  }

  private arity(e: Extract<Expr, { k: 'call' }>, n: number): void {
    if (e.args.length !== n) fail(e.pos, `'${calleeName(e)}' takes ${n} argument(s), given ${e.args.length}`);
  }

  private mutex(arg: Expr): string {
    const a = stripCasts(arg);
    if (a.k !== 'unary' || a.op !== '&') {
      const p = this.lvalue(a);
      if (p.k === 'alias' && p.target.k === 'var' && p.target.type.k === 'mutex') return p.target.name;
      return unsupported(arg.pos, 'mutex argument must be &mutex');
    }
    const b = this.lvalue(a.arg);
    if (b.k !== 'var' || b.type.k !== 'mutex') return fail(arg.pos, 'argument is not a pthread_mutex_t');
    return b.name;
  }

  private handle(arg: Expr): Extract<Binding, { k: 'handle' }> {
    let a = stripCasts(arg);
    if (a.k === 'unary' && a.op === '&') a = a.arg;
    let b = this.lvalue(a);
    if (b.k === 'alias') b = b.target;
    return b.k === 'handle' ? b : fail(arg.pos, 'argument is not a pthread_t');
  }

  private create(e: Extract<Expr, { k: 'call' }>): Term {
    this.arity(e, 4);
    const [h, , fnExpr, argExpr] = e.args;
    const slot = this.handle(h);
    const fnName = stripCasts(fnExpr).k === 'id' ? (stripCasts(fnExpr) as { name: string }).name : undefined;
    if (!fnName) return unsupported(fnExpr.pos, 'thread function must be named directly');
    const fn = this.L.functionDef(fnName) ?? fail(fnExpr.pos, `unknown thread function '${fnName}'`);
    if (this.realLoops > 0) unsupported(e.pos, 'thread creation inside a loop without constant bounds (unbounded thread creation)');
    if (this.inst.chain.includes(fnName) || this.inst.fn.decl.name === fnName)
      unsupported(e.pos, `unbounded thread creation: '${fnName}' (transitively) creates itself`);
    const arg = this.threadArg(argExpr);
    const atInit = this.prefixOpen;
    const inst = this.L.newInstance(fn, arg, atInit, [...this.inst.chain, this.inst.fn.decl.name!], e.pos);
    this.startedThreads = true;
    slot.slot.inst = inst;
    if (!atInit) {
      const flag = this.L.ghost(`__started.${inst.name}`);
      this.emit({ kind: 'assign', target: flag, value: num(1) }, e.pos, `pthread_create(${inst.name})`);
    }
    return num(0);
  }

  private threadArg(e: Expr): Binding {
    const a = stripCasts(e);
    if (a.k === 'unary' && a.op === '&') {
      const target = this.lvalue(a.arg);
      if (target.k === 'var' && !this.L.isGlobal(target.name))
        unsupported(e.pos, `passing the address of local '${this.L.cname(target.name)}' to a thread (make it a global)`);
      return { k: 'alias', target };
    }
    const c = this.L.constant(a) ?? this.constantBinding(a);
    if (c === undefined) return unsupported(e.pos, 'thread argument must be a constant, NULL, or &global');
    return c === 0n && isNullish(e) ? { k: 'null' } : { k: 'const', value: c };
  }

  private constantBinding(e: Expr): bigint | undefined {
    if (e.k !== 'id') return undefined;
    const b = this.lookup(e.name, e.pos);
    return b.k === 'const' ? b.value : undefined;
  }

  private params(fn: FunctionDef): { name?: string; type: CType; pos: SourcePos }[] {
    const f = fn.decl.derived[0];
    if (f?.k !== 'func') return [];
    return (f.params ?? []).map((p) => ({
      name: p.decl.name,
      type: applyDeclarator(baseType(p.spec, this.L.typeEnv), p.decl, this.L.typeEnv),
      pos: p.decl.pos,
    }));
  }

  /** Inlines a call of a function with a body (fresh locals per call site). */
  private inline(name: string, e: Extract<Expr, { k: 'call' }>, wantValue: boolean): Term | undefined {
    const fn = this.L.functionDef(name)!;
    if (this.frames.some((f) => f.fn === name)) {
      const chain = [...this.frames.map((f) => f.fn), name].join(' → ');
      unsupported(
        e.pos,
        `recursion (${chain}): calls are inlined for this engine; --engine explicit-modular or explicit-global keep calls of functions with int parameters as calls`,
      );
    }
    const params = this.params(fn);
    if (params.length !== e.args.length) fail(e.pos, `'${name}' takes ${params.length} argument(s), given ${e.args.length}`);
    // Arguments are evaluated in the caller's scope.
    const bindings: Binding[] = params.map((p, i) => {
      const a = e.args[i];
      if (p.type.k === 'ptr' || p.type.k === 'array') {
        const s = stripCasts(a);
        if (s.k === 'unary' && s.op === '&') return { k: 'alias', target: this.lvalue(s.arg) };
        if (s.k === 'id') {
          const b = this.lookup(s.name, s.pos);
          if (b.k === 'alias' || b.k === 'null') return b;
          if (b.k === 'array') return { k: 'alias', target: b };
        }
        if (this.L.constant(s) === 0n) return { k: 'null' };
        return unsupported(a.pos, `pointer argument to '${name}' must be &variable`);
      }
      if (p.type.k === 'thread' || p.type.k === 'mutex') return unsupported(a.pos, `${showType(p.type)} parameter passed by value`);
      return { k: 'const', value: 0n }; // placeholder, replaced below
    });
    const values = params.map((p, i) => (bindings[i].k === 'const' && p.type.k === 'int' ? this.rvalue(e.args[i]) : undefined));
    const atomic = name.startsWith('__VERIFIER_atomic_');
    if (atomic) {
      this.emit({ kind: 'atomicBegin' }, e.pos, `${name}(…) {`);
      this.atomicDepth++;
    }
    const n = (this.inlineCount.get(name) ?? 0) + 1;
    this.inlineCount.set(name, n);
    const prefix = `${this.inst.name}.${name}${n > 1 ? `#${n}` : ''}`;
    const retType = this.returnType(fn);
    const retLoc = this.cfg.newLoc(e.pos);
    const frame: Frame = { fn: name, prefix, retLoc, labels: new Map() };
    const savedTemps = this.liveTemps;
    this.inFrame(frame, () => {
      if (retType.k === 'int' && wantValue) frame.retVar = (this.declareLocal('return', retType, e.pos) as { name: string }).name;
      const firstLocal = this.locals.length;
      params.forEach((p, i) => {
        if (!p.name) return;
        const v = values[i];
        if (v?.kind === 'int' && !assigns(fn.body, p.name) && !takesAddress(fn.body, p.name)) {
          this.bind(p.name, { k: 'const', value: v.value });
        } else if (v !== undefined) {
          const b = this.declareLocal(p.name, p.type, p.pos);
          this.bind(p.name, b);
          this.assign(b, v, e.pos, `${p.name} = ${show(v)}`);
        } else this.bind(p.name, bindings[i]);
      });
      this.stmt(fn.body);
      this.goto(retLoc, fn.pos, '');
      this.cur = retLoc;
      // The callee's locals are dead after the return: reset them so stale values do not multiply states.
      for (const v of this.locals.slice(firstLocal)) if (v !== frame.retVar) this.emit({ kind: 'assign', target: v, value: num(0) }, e.pos, '');
    });
    this.liveTemps = [...savedTemps, ...(frame.retVar ? [frame.retVar] : [])];
    if (atomic) {
      this.atomicDepth--;
      this.emit({ kind: 'atomicEnd' }, e.pos, '}');
    }
    if (!wantValue) return undefined;
    return frame.retVar ? mkVar(frame.retVar) : undefined;
  }

  /** Lowers a function body in its own frame: fresh scopes, loops and temporaries, restored after. */
  private inFrame(frame: Frame, body: () => void): void {
    const saved = { scopes: this.scopes, loops: this.loops, realLoops: this.realLoops, liveTemps: this.liveTemps };
    this.frames.push(frame);
    this.scopes = [new Map()];
    this.loops = [];
    this.liveTemps = [];
    body();
    this.checkLabels(frame);
    this.frames.pop();
    Object.assign(this, saved);
  }

  /** Whether a call of user function `name` stays a call: see LowerOptions.calls. */
  private keptCall(name: string): boolean {
    if (!this.L.keepCalls || this.atomicDepth > 0 || name.startsWith('__VERIFIER_atomic_')) return false;
    const fn = this.L.functionDef(name)!;
    return this.params(fn).every((p) => p.type.k === 'int') && ['int', 'void'].includes(this.returnType(fn).k);
  }

  private returnType(fn: FunctionDef): CType {
    return applyDeclarator(baseType(fn.spec, this.L.typeEnv), { ...fn.decl, derived: fn.decl.derived.slice(1) }, this.L.typeEnv);
  }

  /**
   * A kept call: arguments are evaluated in the caller, then a call edge pushes the
   * caller's locals and enters the callee (lowered once per thread, so recursion is
   * fine); after the return the result is copied into a temporary, since the next
   * call of the same function overwrites its result variable.
   */
  private callKept(name: string, e: Extract<Expr, { k: 'call' }>, wantValue: boolean): Term | undefined {
    const fn = this.L.functionDef(name)!;
    const params = this.params(fn);
    if (params.length !== e.args.length) fail(e.pos, `'${name}' takes ${params.length} argument(s), given ${e.args.length}`);
    const args = e.args.map((a) => this.rvalue(a));
    const proc = this.procs.get(name) ?? this.lowerProc(name, fn);
    // The call site must have the call as its only edge.
    if (this.cfg.out[this.cur].length) this.emit({ kind: 'skip' }, e.pos, '');
    const cont = this.cfg.newLoc(e.pos);
    const call = { kind: 'call' as const, fn: name, entry: proc.entry, args: proc.params.map((param, i) => ({ param, value: args[i] })) };
    this.edge(this.cur, cont, call, e.pos, `${name}(${args.map(show).join(', ')})`);
    this.cur = cont;
    if (!wantValue || !proc.retVar) return undefined;
    const tmp = this.fresh('ret');
    this.assign(tmp, mkVar(proc.retVar), e.pos, '');
    return this.read(tmp, e.pos);
  }

  /** The body of a kept function, once per thread: from its entry to a return edge. */
  private lowerProc(name: string, fn: FunctionDef): Proc {
    const entry = this.cfg.newLoc(fn.pos);
    const retLoc = this.cfg.newLoc(fn.pos);
    const proc: Proc = { entry, params: [] };
    this.procs.set(name, proc); // before the body, so that recursive calls find it
    const frame: Frame = { fn: name, prefix: `${this.inst.name}.${name}`, retLoc, labels: new Map() };
    const cur = this.cur;
    this.inFrame(frame, () => {
      const retType = this.returnType(fn);
      if (retType.k === 'int') frame.retVar = proc.retVar = (this.declareLocal('return', retType, fn.pos) as { name: string }).name;
      this.params(fn).forEach((p, i) => {
        const b = this.declareLocal(p.name ?? `__param${i}`, p.type, p.pos);
        if (p.name) this.bind(p.name, b);
        proc.params.push((b as { name: string }).name);
      });
      this.cur = entry;
      this.stmt(fn.body);
      this.goto(retLoc, fn.pos, '');
    });
    this.cfg.edge(retLoc, this.cfg.newLoc(), { kind: 'return', fn: name, keep: proc.retVar ? [proc.retVar] : [] }, fn.pos, `return from ${name}`);
    this.cur = cur;
    return proc;
  }
}

type Rel = (a: Term, b: Term) => [Term[], Term[]];
const REL: Record<string, Rel> = {
  '==': (a, b) => [[eq(a, b)], [lt(a, b), gt(a, b)]],
  '!=': (a, b) => [[lt(a, b), gt(a, b)], [eq(a, b)]],
  '<': (a, b) => [[lt(a, b)], [ge(a, b)]],
  '<=': (a, b) => [[le(a, b)], [gt(a, b)]],
  '>': (a, b) => [[gt(a, b)], [le(a, b)]],
  '>=': (a, b) => [[ge(a, b)], [lt(a, b)]],
};

const ARITH: Record<string, (a: Term, b: Term, pos: SourcePos) => Term> = {
  '+': (a, b) => add(a, b),
  '-': (a, b) => sub(a, b),
  '*': (a, b) => mul(a, b),
  '/': (a, b, pos) => (b.kind === 'int' && b.value === 0n ? fail(pos, 'division by zero') : cdiv(a, b)),
  '%': (a, b, pos) => (b.kind === 'int' && b.value === 0n ? fail(pos, 'remainder by zero') : crem(a, b)),
};

export function calleeName(e: Expr): string | undefined {
  if (e.k !== 'call') return undefined;
  const c = stripCasts(e.callee);
  return c.k === 'id' ? c.name : undefined;
}

export function stripCasts(e: Expr): Expr {
  return e.k === 'cast' ? stripCasts(e.arg) : e;
}

const isNullish = (e: Expr): boolean => {
  const s = stripCasts(e);
  return s.k === 'num' || (s.k === 'id' && s.name === 'NULL');
};

const maxOpt = (a?: bigint, b?: bigint): bigint | undefined => (a === undefined ? b : b === undefined ? a : a > b ? a : b);
const minOpt = (a?: bigint, b?: bigint): bigint | undefined => (a === undefined ? b : b === undefined ? a : a < b ? a : b);

function stepOf(step: Expr | undefined, name: string): bigint | undefined {
  if (!step) return undefined;
  if (step.k === 'incdec' && step.target.k === 'id' && step.target.name === name) return step.op === '++' ? 1n : -1n;
  if (step.k === 'assign' && step.target.k === 'id' && step.target.name === name && step.value.k === 'num') {
    if (step.op === '+=') return step.value.value;
    if (step.op === '-=') return -step.value.value;
  }
  return undefined;
}

/** Walks every expression and statement of a statement tree. */
function someNode(s: Stmt, pred: (e: Expr) => boolean): boolean {
  const ex = (e: Expr | undefined): boolean => {
    if (!e) return false;
    if (pred(e)) return true;
    switch (e.k) {
      case 'unary':
        return ex(e.arg);
      case 'binary':
        return ex(e.left) || ex(e.right);
      case 'assign':
        return ex(e.target) || ex(e.value);
      case 'incdec':
        return ex(e.target);
      case 'cond':
        return ex(e.test) || ex(e.then) || ex(e.else);
      case 'call':
        return ex(e.callee) || e.args.some(ex);
      case 'index':
        return ex(e.base) || ex(e.index);
      case 'member':
        return ex(e.base);
      case 'cast':
        return ex(e.arg);
      case 'comma':
        return e.exprs.some(ex);
      case 'init':
        return e.items.some(ex);
      case 'stmtexpr':
        return st(e.body);
      default:
        return false;
    }
  };
  const st = (x: Stmt | undefined): boolean => {
    if (!x) return false;
    switch (x.k) {
      case 'decl':
        return x.decl.items.some((i) => ex(i.init));
      case 'expr':
        return ex(x.e);
      case 'block':
        return x.body.some(st);
      case 'if':
        return ex(x.cond) || st(x.then) || st(x.else);
      case 'while':
      case 'do':
        return ex(x.cond) || st(x.body);
      case 'for':
        return st(x.init) || ex(x.cond) || ex(x.step) || st(x.body);
      case 'return':
        return ex(x.e);
      case 'label':
      case 'case':
      case 'default':
        return st(x.body) || (x.k === 'case' && ex(x.value));
      case 'switch':
        return ex(x.e) || st(x.body);
      default:
        return false;
    }
  };
  return st(s);
}

function createsOrJoins(body: Stmt): boolean {
  return someNode(body, (e) => {
    const callee = calleeName(e);
    return callee === 'pthread_create' || callee === 'pthread_join';
  });
}

function indexesBy(body: Stmt, name: string): boolean {
  return someNode(body, (e) => e.k === 'index' && someNode({ k: 'expr', e: e.index, pos: e.pos }, (x) => x.k === 'id' && x.name === name));
}

/** The values the loop variable takes, or why they are not known statically. */
function unrollValues(
  s: Extract<Stmt, { k: 'for' }>,
  name: string | undefined,
  start: bigint | undefined,
  bound: bigint | undefined,
): { name: string; values: bigint[]; final: bigint } | string {
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

function takesAddress(body: Stmt, name: string): boolean {
  return someNode(body, (e) => e.k === 'unary' && e.op === '&' && e.arg.k === 'id' && e.arg.name === name);
}

function assigns(body: Stmt, name: string): boolean {
  return someNode(
    body,
    (e) => (e.k === 'assign' || e.k === 'incdec') && e.target.k === 'id' && e.target.name === name,
  );
}


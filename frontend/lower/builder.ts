/**
 * The state of lowering one thread instance, and the primitives every other part of the
 * lowering emits through: the CFG under construction and its current location, edges
 * and branches, loads and stores of bindings, scopes, call frames, break/continue
 * targets and temporaries. What each statement, expression and call becomes lives in
 * the sibling modules, as functions taking the builder first; thread.ts wires them up.
 */
import type { Expr, Stmt } from '../ast.js';
import { Cfg, actionVars, type Action } from '../../program/cfg.js';
import { fail, unsupported, type SourcePos } from '../../program/diagnostics.js';
import { FALSE, TRUE, add, eq, ge, gt, ite, le, lt, mkVar, not, num, select, show, store, type Term } from '../../solver/formula.js';
import { convertConstant, INT, maxCells, showType, structMembers, unmodelledPointer, type CType, type IntType } from '../types.js';
import { conversion, conversionRange } from './conversion.js';
import type { CallExpr } from './ast-queries.js';
import { HANDLE_VALUES, type Binding, type FileScope, type Instance } from './file-scope.js';

/** A function lowered once per thread for kept calls: where it starts, its parameters and result. */
export interface Proc {
  entry: number;
  params: string[];
  retVar?: string;
}

/** A function body being lowered: the thread function, or an inlined or kept callee. */
export interface Frame {
  fn: string;
  /** Prefix of the IR names of its locals. */
  prefix: string;
  retVar?: string;
  retLoc: number;
  labels: Map<string, { loc: number; defined: boolean; pos: SourcePos }>;
  /** A function kept as a call: its locals live in stack frames, so they have no address. */
  kept?: boolean;
}

/**
 * The lowering steps that recurse into one another across modules: a statement holds
 * expressions, an expression can be a call or a statement expression, a call inlines a
 * function body, an array index or a condition is an expression again, a pointer
 * stored in memory is read through the lvalue it is in. Outside the module that
 * defines them, these are called through the builder (`b.stmt(…)`,
 * `b.rvalue(…)`) and everything else is imported, which keeps the import graph acyclic.
 */
/** Memoized static types of expressions: the integer type (integers.ts) and the C type where pointers matter (pointers.ts). */
export interface TypeMemo {
  readonly int: WeakMap<Expr, IntType>;
  readonly c: WeakMap<Expr, CType | undefined>;
}

const newTypeMemo = (): TypeMemo => ({ int: new WeakMap(), c: new WeakMap() });

export interface Recursion {
  /** statements.ts */
  stmt(b: ThreadBuilder, s: Stmt): void;
  /** expressions.ts: evaluates for side effects only. */
  effect(b: ThreadBuilder, e: Expr): void;
  /** expressions.ts: the value as a term, after emitting the side effects. */
  rvalue(b: ThreadBuilder, e: Expr): Term;
  /** calls.ts: a builtin, an inlined call or a kept call. */
  call(b: ThreadBuilder, e: CallExpr, wantValue: boolean): Term | undefined;
  /** places.ts: runs `fn` on each cell an lvalue may denote (a case split where a run-time value chooses it). */
  atLvalue(b: ThreadBuilder, e: Expr, fn: (cell: Binding) => void): void;
}

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
  /** The C labels of the thread function's own body (not of inlined callees), by name: where `at(thread, label)` points. */
  readonly labelLocs = new Map<string, number>();
  /** Where the next edge starts; a fresh unreachable location after a jump. */
  cur: number;
  /** Block scopes of the current frame, innermost last. */
  scopes: Map<string, Binding>[] = [];
  readonly frames: Frame[] = [];
  /** Targets of break and continue, innermost last (a switch has no continue target). */
  loops: { brk: number; cont?: number }[] = [];
  /** Enclosing loops that are not unrolled (thread creation in one is unbounded). */
  realLoops = 0;
  private tempCount = 0;
  /** Temporaries of the current statement, reset when it ends. */
  liveTemps: string[] = [];
  /**
   * The static types of the current statement's expressions, by node. Lowering asks for
   * an operand's type at every level of an operator chain: computed anew each time, a
   * chain of n operands cost n². Kept for one statement of one frame only, for a name's
   * binding (so its type) may differ between calls and between unrolled iterations.
   */
  typeMemo = newTypeMemo();
  /** How often each function was inlined, so that each call site gets its own locals. */
  readonly inlineCount = new Map<string, number>();
  /** Locals declared inside a kept call's body (pointers.ts gives them no address). */
  readonly keptLocals = new Set<string>();
  /** Functions already lowered for kept calls in this thread. */
  readonly procs = new Map<string, Proc>();
  /** Open atomic sections (kept calls cannot be inside one). */
  atomicDepth = 0;
  /** main only: creates before any visible step start their threads at init. */
  prefixOpen: boolean;
  /** Where main's straight-line start has got to: code after a jump (dead until a label) is not part of it. */
  private prefixEnd: number;
  /** main has started a thread (so its global writes are visible from now on). */
  startedThreads = false;
  /** Objects this thread's lowering introduced (heap objects, thread arguments): numbers their names. */
  objectCount = 0;
  /** Variable-length arrays: pointers to their regions, which `sizeof` and `&` must not take for pointers (pointers.ts variableLengthArray). */
  readonly vlas = new Set<string>();
  /** Steps modelled by one thing of their own (a thread instance, a heap object): checkOnce refuses any that may run twice. */
  private readonly onceSites: { loc: number; pos: SourcePos; what: string }[] = [];

  constructor(
    readonly L: FileScope,
    readonly inst: Instance,
    private readonly rec: Recursion,
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
    this.prefixEnd = this.entry;
  }

  /** Whether the current location is on main's start before any visible step (a store there is an initial value; a thread created there runs from the start). */
  atPrefix(): boolean {
    return this.prefixOpen && this.cur === this.prefixEnd;
  }

  /**
   * Records that the step about to be emitted at the current location is modelled by
   * one thing of its own (`what`: its thread instance, its heap object), so it must run
   * at most once in this thread. Loops that are not unrolled and kept calls are refused
   * here; a cycle made of gotos is only known once the thread is built (checkOnce).
   */
  once(pos: SourcePos, what: string): void {
    if (this.realLoops > 0) unsupported(pos, `${what} inside a loop without constant bounds (it is modelled by one object, so it may run only once)`);
    if (this.frames.some((f) => f.kept)) unsupported(pos, `${what} in a function kept as a call (it is modelled by one object, so it may run only once)`);
    if (this.inst.replicated) unsupported(pos, `${what} in a thread created in a loop without constant bounds (its instances would share one object)`);
    this.onceSites.push({ loc: this.cur, pos, what });
  }

  /** Refuses a step recorded by `once` whose location lies on a cycle of the finished graph (a backward goto). */
  checkOnce(): void {
    for (const { loc, pos, what } of this.onceSites)
      if (this.cfg.reaches(loc, loc)) unsupported(pos, `${what} on a cycle of gotos (it is modelled by one object, so it may run only once)`);
  }

  // ---- the steps that recurse into each other (see Recursion)

  stmt(s: Stmt): void {
    this.rec.stmt(this, s);
  }

  effect(e: Expr): void {
    this.rec.effect(this, e);
  }

  rvalue(e: Expr): Term {
    return this.rec.rvalue(this, e);
  }

  call(e: CallExpr, wantValue: boolean): Term | undefined {
    return this.rec.call(this, e, wantValue);
  }

  atLvalue(e: Expr, fn: (cell: Binding) => void): void {
    this.rec.atLvalue(this, e, fn);
  }

  // ---- locations and edges

  /** An edge from the current location to a new one, which becomes current. */
  emit(action: Action, pos: SourcePos, text: string): void {
    const to = this.cfg.newLoc(pos);
    this.edge(this.cur, to, action, pos, text);
    this.cur = to;
  }

  edge(from: number, to: number, action: Action, pos: SourcePos, text: string): void {
    if (from === this.prefixEnd) this.prefixEnd = to;
    if (this.prefixOpen && !(action.kind === 'assign' || action.kind === 'havoc' || action.kind === 'skip')) this.prefixOpen = false;
    if (this.prefixOpen && this.touchesGlobal(action)) this.prefixOpen = false;
    this.cfg.edge(from, to, action, pos, text);
  }

  private touchesGlobal(a: Action): boolean {
    return [...actionVars(a)].some((v) => this.L.isGlobal(v));
  }

  /** if-then-else in the CFG: `split(t, f)` emits the branch edges, then both arms meet. */
  diamond(split: (t: number, f: number) => void, pos: SourcePos, onTrue: () => void, onFalse: () => void): void {
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

  goto(to: number, pos: SourcePos, text = 'goto'): void {
    this.edge(this.cur, to, { kind: 'skip' }, pos, text);
    this.cur = this.cfg.newLoc(); // unreachable until something jumps here
  }

  /** An edge to `to` guarded by `cond`; the current location stays where it is. */
  assume(cond: Term, to: number, pos: SourcePos, blocking: boolean): void {
    if (cond === FALSE) return;
    if (cond === TRUE) this.edge(this.cur, to, { kind: 'skip' }, pos, 'true');
    else this.edge(this.cur, to, { kind: 'assume', cond, blocking }, pos, `[${show(cond)}]`);
  }

  // ---- loads and stores

  /** Stores a term into a binding: `_Bool` keeps v != 0, a type with a range converts as C does (integers.ts). */
  assign(target: Binding, value: Term, pos: SourcePos, text?: string): void {
    // Before main starts any thread nobody can observe a global: `g = c` there is g's initial value.
    if (this.atPrefix() && !this.startedThreads && target.k === 'var' && this.L.isGlobal(target.name) && value.kind === 'int') {
      this.L.globalInit.set(target.name, convertConstant(value.value, target.type));
      return;
    }
    if (target.k === 'null' || target.k === 'alias') unsupported(pos, 'assignment to a pointer parameter bound to its argument');
    if (target.k === 'elem') {
      // Region elements have types without a range (pointers.ts, regionAllocation): no conversion.
      const label = text ?? `${this.L.cname(target.array)}[${show(target.index)}] = ${show(value)}`;
      return this.emit({ kind: 'assign', target: target.array, value: store(mkVar(target.array), target.index, value) }, pos, label);
    }
    if (target.k !== 'var' || target.type.k !== 'int') {
      // A pointer holds an address (pointers.ts), a mutex its owner: no conversion.
      if (target.k === 'var' && (target.type.k === 'mutex' || target.type.k === 'ptr')) {
        this.emit({ kind: 'assign', target: target.name, value }, pos, text ?? `${target.name} = ${show(value)}`);
        return;
      }
      unsupported(pos, `assignment to a variable of type ${target.k === 'var' ? showType(target.type) : target.k}`);
      return;
    }
    const t = target.type;
    // Inside an atomic section `b = v` stores v != 0 as one term, not a branch (conditions.ts, pureValue).
    if (t.bool && !this.isBoolTerm(value) && this.atomicDepth > 0) value = ite(not(eq(value, num(0))), num(1), num(0));
    if (t.bool && !this.isBoolTerm(value)) return this.assignBool(target.name, value, pos, text);
    const label = text ?? `${this.L.cname(target.name)} = ${show(value)}`;
    const into = conversionRange(this.L.varType.bind(this.L), t, value);
    if (!into) return this.emit({ kind: 'assign', target: target.name, value }, pos, label);
    const c = conversion(this.L.varType.bind(this.L), value, into);
    if ('exact' in c && c.exact === value) return this.emit({ kind: 'assign', target: target.name, value }, pos, label);
    if (!t.unsigned)
      this.L.warn(pos, `'${this.L.cname(target.name)}' (${showType(t)}) may get a value outside its range here: C leaves the conversion to the implementation; rely converts as gcc does (modulo 2^${t.bits})`);
    if ('exact' in c) return this.emit({ kind: 'assign', target: target.name, value: c.exact }, pos, label);
    // One branch per multiple of the modulus the value can be off by.
    const from = this.cur;
    const join = this.cfg.newLoc(pos);
    const m = into.hi - into.lo + 1n;
    for (const { j, lo, hi } of c.cases) {
      this.cur = from;
      for (const cond of [lo === undefined ? TRUE : ge(value, num(lo)), hi === undefined ? TRUE : le(value, num(hi))]) {
        const next = this.cfg.newLoc(pos);
        this.assume(cond, next, pos, false);
        this.cur = next;
      }
      this.emit({ kind: 'assign', target: target.name, value: add(value, num(-j * m)) }, pos, label);
      this.goto(join, pos, '');
    }
    this.cur = join;
  }

  /** `_Bool b = v` stores v != 0. */
  private assignBool(name: string, value: Term, pos: SourcePos, text?: string): void {
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
  }

  private isBoolTerm(t: Term): boolean {
    if (t.kind === 'int') return t.value === 0n || t.value === 1n;
    if (t.kind === 'app' && t.op === 'ite') return this.isBoolTerm(t.args[1]) && this.isBoolTerm(t.args[2]);
    return t.kind === 'var' && this.L.isBoolVar(t.name);
  }

  /** The value of a binding as a term (only integers have one). */
  read(b: Binding, pos: SourcePos): Term {
    switch (b.k) {
      case 'var':
        if (b.type.k !== 'int') return unsupported(pos, `use of a ${showType(b.type)} value`);
        return mkVar(b.name);
      case 'const':
        return num(b.value);
      case 'elem':
        return select(mkVar(b.array), b.index);
      case 'null':
        return num(0);
      case 'alias':
        return unsupported(pos, 'pointer values (only &variable arguments that are dereferenced are modelled)');
      case 'array':
        return unsupported(pos, 'array values');
      case 'handle':
        return unsupported(pos, HANDLE_VALUES);
    }
  }

  // ---- scopes, frames and variables

  bind(name: string, b: Binding): void {
    this.scopes[this.scopes.length - 1].set(name, b);
  }

  lookup(name: string, pos: SourcePos): Binding {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const b = this.scopes[i].get(name);
      if (b) return b;
    }
    return this.L.threadLocal(name, this.inst, pos) ?? this.L.global(name, pos) ?? fail(pos, `undeclared identifier '${name}'`);
  }

  /** The binding of an integer or pointer IR variable known by name (a frame's result variable). */
  lookupVar(name: string): Binding {
    return { k: 'var', name, type: this.L.varType(name) ?? this.L.pointerVarType(name) ?? INT };
  }

  frame(): Frame {
    return this.frames[this.frames.length - 1];
  }

  /** Lowers a function body in its own frame: fresh scopes, loops and temporaries, restored after. */
  inFrame(frame: Frame, body: () => void): void {
    const saved = { scopes: this.scopes, loops: this.loops, realLoops: this.realLoops, liveTemps: this.liveTemps, typeMemo: this.typeMemo };
    this.frames.push(frame);
    this.scopes = [new Map()];
    this.loops = [];
    this.liveTemps = [];
    this.typeMemo = newTypeMemo();
    body();
    this.checkLabels(frame);
    this.frames.pop();
    Object.assign(this, saved);
  }

  /** Creates the IR variables for a local declaration of the given type (a local whose address escapes is a global: ../points-to.ts). */
  declareLocal(cname: string, type: CType, pos: SourcePos, temp = false): Binding {
    const unmodelled = unmodelledPointer(type);
    if (unmodelled) return unsupported(pos, `'${cname}': ${unmodelled} are not modelled`);
    switch (type.k) {
      case 'int':
      case 'mutex':
      case 'ptr': {
        const base = `${this.frame().prefix}.${cname}`;
        let name = base;
        for (let k = 2; this.L.hasVar(name); k++) name = `${base}#${k}`;
        this.L.addLocal(name, this.inst.index, type, cname, pos, temp);
        if (!this.L.isGlobal(name)) this.locals.push(name);
        if (this.frames.some((f) => f.kept)) this.keptLocals.add(name);
        return { k: 'var', name, type };
      }
      case 'thread':
        return this.L.threadIds ? { k: 'handle', slot: {}, id: this.declareLocal(cname, INT, pos) as Extract<Binding, { k: 'var' }> } : { k: 'handle', slot: {} };
      case 'array': {
        if (type.size === undefined) return unsupported(pos, `array '${cname}' without a constant size`);
        if (type.size > maxCells(type, this.L.threadIds)) return unsupported(pos, `array '${cname}' with ${type.size} elements (at most ${maxCells(type, this.L.threadIds)})`);
        const elems = Array.from({ length: type.size }, (_, i) => this.declareLocal(`${cname}[${i}]`, type.of, pos));
        return this.L.registerArray({ k: 'array', elems, type });
      }
      case 'struct': {
        const elems = structMembers(type).map((f) => this.declareLocal(`${cname}.${f.name}`, f.type, pos));
        return this.L.registerArray({ k: 'array', elems, type });
      }
      default:
        return unsupported(pos, `local variable '${cname}' of type ${showType(type)}`);
    }
  }

  /** A temporary of the current statement (of type int unless told). */
  fresh(hint: string, type: IntType = INT): Binding {
    const b = this.declareLocal(`__${hint}${++this.tempCount}`, type, this.inst.fn.pos, true);
    this.liveTemps.push((b as { name: string }).name);
    return b;
  }

  /** Resets temporaries at the end of a statement: they are dead, and stale values only multiply states. */
  resetTemps(pos: SourcePos): void {
    for (const t of this.liveTemps) this.emit({ kind: 'assign', target: t, value: num(0) }, pos, '');
    this.liveTemps = [];
    this.typeMemo = newTypeMemo();
  }

  /** The location of a label of the current frame, created at its first mention (a goto may come first). */
  label(name: string, pos: SourcePos): number {
    const f = this.frame();
    let l = f.labels.get(name);
    if (!l) {
      l = { loc: this.cfg.newLoc(pos), defined: false, pos };
      f.labels.set(name, l);
    }
    return l.loc;
  }

  checkLabels(f: Frame): void {
    for (const [name, l] of f.labels) if (!l.defined) fail(l.pos, `goto to undefined label '${name}'`);
  }
}

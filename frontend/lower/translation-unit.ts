/**
 * Lowering of a translation unit: its file-scope symbols, the thread instances (main
 * is thread 0; each pthread_create is its own thread) and their CFGs (lower/thread.ts);
 * assemble.ts folds them into the `Program`.
 */
import type { Declaration, Declarator, Expr, Field, FunctionDef, InitDeclarator, Specifiers, TranslationUnit } from '../ast.js';
import { checkDeadline, fail, unsupported, type DeadlineOption, type SourcePos, type Warning } from '../../program/diagnostics.js';
import type { VarInfo } from '../../program/program.js';
import { PointsTo } from '../points-to.js';
import type { ThreadBuilder } from './builder.js';
import { castType, declaredType } from './declared-types.js';
import { sizeOf } from '../sizes.js';
import { commonType, literalType, promote } from './integers.js';
import { aggregateItems, leaves, type Binding, type FileScope, type Instance } from './file-scope.js';
import { buildThread } from './thread.js';
import { calleeName, collectNodes, isNullish, stripCasts, writtenNames } from './ast-queries.js';
import { checkAttributes, isThreadLocal } from '../specifiers.js';
import { applyDeclarator, baseType, structMembers, convertConstant, longBits, showType, sizeType, type CType, type DataModel, type IntType, type TypeEnv, INT, maxCells, unmodelledPointer } from '../types.js';

export interface LowerOptions extends DeadlineOption {
  /** Fold thread-local steps into large blocks (default true); false gives one transition per statement. */
  largeBlocks?: boolean;
  /** At most this many threads (thread creation is unrolled statically). */
  maxThreads?: number;
  /**
   * inline (default): calls are inlined, recursion is unsupported. keep: calls of
   * functions with int parameters stay calls, with push and pop transitions (only the
   * explicit engines read those); atomic functions and calls in atomic sections are
   * still inlined.
   */
  calls?: 'inline' | 'keep';
  /**
   * A loop that creates or joins threads without constant bounds runs at most this
   * many times, and a run that would go on stops there: the program has only the runs
   * of the original that create that few threads (a bounded search for bugs; without
   * it such a loop is unsupported).
   */
  maxInstances?: number;
  /**
   * A thread created in a loop without constant bounds becomes one template thread
   * (Thread.replicated): it stands for any number of instances, each started by the
   * loop; a join of such an instance is not awaited (an over-approximation). Only
   * engines that read templates may take the program.
   */
  templates?: boolean;
  /** Keep every C label of a thread function as a location (Thread.labels), for properties that name them. */
  keepLabels?: boolean;
  /** File-scope variables to keep as program variables though no thread may use them (a property reads them). */
  observe?: readonly string[];
  /** Widths of `long` and `size_t` (default ILP32, as SV-COMP's 32-bit tasks). */
  dataModel?: DataModel;
  /** `malloc` and `calloc` may return NULL (default: they never fail, as SV-COMP assumes). */
  mallocMayFail?: boolean;
  /** A use of a freed heap object, a second free and a free of anything else than an allocation's address reach the error location (default: free has no effect). */
  checkFree?: boolean;
  /**
   * Misuse of the synchronisation library that the models can see (an unlock by a
   * thread that does not hold the lock, a destroy of a held object: lower/sync.ts)
   * reaches the error location (default: unchecked, as before).
   */
  checkMisuse?: boolean;
}

const BINARY: Record<string, (a: bigint, b: bigint) => bigint | undefined> = {
  '+': (a, b) => a + b,
  '-': (a, b) => a - b,
  '*': (a, b) => a * b,
  '/': (a, b) => (b === 0n ? undefined : a / b),
  '%': (a, b) => (b === 0n ? undefined : a % b),
  '<<': (a, b) => a << b,
  '>>': (a, b) => a >> b,
  '&': (a, b) => a & b,
  '|': (a, b) => a | b,
  '^': (a, b) => a ^ b,
  '==': (a, b) => (a === b ? 1n : 0n),
  '!=': (a, b) => (a !== b ? 1n : 0n),
  '<': (a, b) => (a < b ? 1n : 0n),
  '<=': (a, b) => (a <= b ? 1n : 0n),
  '>': (a, b) => (a > b ? 1n : 0n),
  '>=': (a, b) => (a >= b ? 1n : 0n),
  '&&': (a, b) => (a && b ? 1n : 0n),
  '||': (a, b) => (a || b ? 1n : 0n),
};

/** What a variable's C type says of its values. */
function intInfo(t: CType): Pick<VarInfo, 'unsigned' | 'bool' | 'range' | 'mutex'> {
  if (t.k === 'mutex') return { unsigned: false, bool: false, mutex: true };
  if (t.k !== 'int') return { unsigned: false, bool: false };
  return { unsigned: t.unsigned, bool: t.bool, range: t.lo !== undefined && t.hi !== undefined ? [t.lo, t.hi] : undefined };
}

/** File-scope state shared by the thread builders. */
export class Lowering implements FileScope {
  private readonly functions = new Map<string, FunctionDef>();
  /** Function declarations without a body, by name (their attributes are checked where a body exists). */
  private readonly prototypeDecls = new Map<string, { spec: Specifiers; decl: Declarator }[]>();
  private readonly globalDecls = new Map<string, { spec: Specifiers; item: InitDeclarator; pos: SourcePos }>();
  private readonly typedefs = new Map<string, { spec: Specifiers; decl: Declarator }>();
  private readonly enums = new Map<string, bigint>();
  /** Struct and union definitions by `struct NAME` / `union NAME`. */
  private readonly tags = new Map<string, Field[]>();
  private readonly globalBindings = new Map<string, Binding>();
  readonly vars = new Map<string, VarInfo>();
  /** The C type of each integer variable (ghosts and pcs have none). */
  private readonly intTypes = new Map<string, IntType>();
  private readonly pointerTypes = new Map<string, CType>();
  private readonly cells = new Map<string, { array: Binding; index: number }>();
  readonly pointers: PointsTo;
  readonly globals: string[] = [];
  readonly globalInit = new Map<string, bigint>();
  readonly instances: Instance[] = [];
  readonly warnings: Warning[] = [];
  private readonly warned = new Set<string>();
  private halt?: string;
  readonly typeEnv: TypeEnv;

  /** `analysis`: the points-to analysis of a first run over the same program (lowerProgram). */
  constructor(
    readonly tu: TranslationUnit,
    readonly opts: LowerOptions,
    analysis?: PointsTo,
  ) {
    this.pointers = new PointsTo(analysis);
    this.typeEnv = { typedef: (n) => this.typedefs.get(n), tag: (k, n) => this.tags.get(`${k} ${n}`), constant: (e) => this.constant(e), longBits: longBits(opts.dataModel) };
    for (const { item } of tu.items) {
      if (item.k === 'func') {
        const name = item.def.decl.name!;
        if (this.functions.has(name) && !item.def.spec.storage.includes('static'))
          fail(item.def.pos, `redefinition of function '${name}'`);
        this.functions.set(name, item.def);
      } else if (item.k === 'decl') this.declare(item.decl);
    }
    // A function's attributes act even if nobody calls it (`constructor` runs it before main).
    for (const [name, def] of this.functions) {
      checkAttributes([...def.spec.attributes, ...(def.decl.attributes ?? [])]);
      for (const proto of this.prototypeDecls.get(name) ?? []) checkAttributes([...proto.spec.attributes, ...(proto.decl.attributes ?? [])]);
    }
  }

  /** Records the struct and union definitions in a specifier, those nested in its members included. */
  private defineTags(spec: Specifiers): void {
    if (!spec.fields) return;
    if (spec.tag?.name && spec.tag.kind !== 'enum') this.tags.set(`${spec.tag.kind} ${spec.tag.name}`, spec.fields);
    for (const f of spec.fields) this.defineTags(f.spec);
  }

  private declare(d: Declaration): void {
    this.defineTags(d.spec);
    if (d.spec.enumerators) {
      let next = 0n;
      for (const en of d.spec.enumerators) {
        if (en.value) next = this.constant(en.value) ?? fail(en.pos, `enumerator '${en.name}' is not a constant`);
        this.enums.set(en.name, next);
        next++;
      }
    }
    for (const item of d.items) {
      const name = item.decl.name;
      if (!name) continue;
      if (d.spec.storage.includes('typedef')) {
        this.typedefs.set(name, { spec: d.spec, decl: item.decl });
        continue;
      }
      if (item.decl.derived[0]?.k === 'func') {
        this.prototypeDecls.set(name, [...(this.prototypeDecls.get(name) ?? []), { spec: d.spec, decl: item.decl }]);
        continue;
      }
      const prev = this.globalDecls.get(name);
      // A definition wins over an `extern` declaration.
      if (!prev || (prev.spec.storage.includes('extern') && !d.spec.storage.includes('extern')))
        this.globalDecls.set(name, { spec: d.spec, item, pos: item.decl.pos });
    }
  }

  // ---- queries used by the thread builders

  get keepCalls(): boolean {
    return this.opts.calls === 'keep';
  }
  get maxThreads(): number {
    return this.opts.maxThreads ?? 512;
  }
  get maxInstances(): number | undefined {
    return this.opts.maxInstances;
  }
  get templates(): boolean {
    return this.opts.templates ?? false;
  }
  get mallocMayFail(): boolean {
    return this.opts.mallocMayFail ?? false;
  }
  get checkFree(): boolean {
    return this.opts.checkFree ?? false;
  }
  get checkMisuse(): boolean {
    return this.opts.checkMisuse ?? false;
  }
  /** Set when some loop was cut at maxInstances iterations. */
  boundedLoops = false;
  private readonly callSites = new Map<string, Extract<Expr, { k: 'call' }>[]>();
  /** The calls of the library function `name` in the file's bodies, in the order of the file (the models that depend on the whole file ask). */
  private callsOf(name: string): Extract<Expr, { k: 'call' }>[] {
    let c = this.callSites.get(name);
    if (!c) this.callSites.set(name, (c = [...this.functions.values()].flatMap((f) => collectNodes(f.body, (x) => x.k === 'call' && calleeName(x) === name)) as Extract<Expr, { k: 'call' }>[]));
    return c;
  }
  private readonly keyUsers = new Map<number, string>();
  keySite(e: Expr, inst: Instance, pos: SourcePos): number {
    const i = this.callsOf('pthread_key_create').indexOf(e as Extract<Expr, { k: 'call' }>);
    if (i < 0) fail(pos, 'pthread_key_create outside the file');
    const user = this.keyUsers.get(i + 1);
    if (user !== undefined && user !== inst.name) unsupported(pos, `pthread_key_create at one place run by two threads (${user}, ${inst.name}): each would make a key of its own`);
    this.keyUsers.set(i + 1, inst.name);
    return i + 1;
  }
  keyDestructors(): { key: number; fn: Expr }[] {
    return this.callsOf('pthread_key_create').flatMap((e, i) => (e.args[1] && !isNullish(e.args[1]) ? [{ key: i + 1, fn: e.args[1] }] : []));
  }
  get keyCount(): number {
    return this.callsOf('pthread_key_create').length;
  }
  get mutexKinds(): boolean {
    return this.callsOf('pthread_mutexattr_settype').length > 0;
  }
  calls(name: string): boolean {
    return this.callsOf(name).length > 0;
  }
  private ids?: boolean;
  get threadIds(): boolean {
    if (this.ids === undefined) {
      // `pthread_detach(pthread_self())` names the thread statically: no id needed.
      const detached = new Set(this.callsOf('pthread_detach').map((e) => e.args[0] && stripCasts(e.args[0])));
      this.ids = this.calls('pthread_equal') || this.callsOf('pthread_self').some((e) => !detached.has(e));
    }
    return this.ids;
  }
  get joinResults(): boolean {
    return this.callsOf('pthread_join').some((e) => e.args.length === 2 && !isNullish(e.args[1]));
  }
  hasBody(name: string): boolean {
    return this.functions.has(name);
  }
  functionDef(name: string): FunctionDef | undefined {
    return this.functions.get(name);
  }
  isDeclaredFunction(name: string): boolean {
    return this.prototypeDecls.has(name);
  }
  enumConstant(name: string): bigint | undefined {
    return this.enums.get(name);
  }
  hasVar(name: string): boolean {
    return this.vars.has(name);
  }
  isGlobal(name: string): boolean {
    return this.vars.get(name)?.owner === null;
  }
  isBoolVar(name: string): boolean {
    return this.vars.get(name)?.bool ?? false;
  }
  varType(name: string): IntType | undefined {
    return this.intTypes.get(name);
  }
  pointerVarType(name: string): CType | undefined {
    return this.pointerTypes.get(name);
  }
  registerArray(array: Binding & { k: 'array' }): Binding {
    leaves(array).forEach((c, index) => c.k === 'var' && this.cells.set(c.name, { array, index }));
    return array;
  }
  cellOf(name: string): { array: Binding; index: number } | undefined {
    return this.cells.get(name);
  }
  cname(name: string): string {
    return this.vars.get(name)?.cname ?? name;
  }

  warn(pos: SourcePos, message: string): void {
    const key = `${pos.file}:${pos.line}:${pos.col}:${message}`;
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.warnings.push({ pos, message });
  }

  /** Folds a constant expression (literals, enum constants, operators), or undefined. */
  constant(e: Expr): bigint | undefined {
    return this.typedConstant(e)?.v;
  }

  /** A constant's value and C type: each operator computes in its operands' common type (integers.ts). */
  private typedConstant(e: Expr): { v: bigint; t: IntType } | undefined {
    switch (e.k) {
      case 'num':
        return { v: e.value, t: e.literal ? literalType(e.value, e.literal, this.typeEnv.longBits) : INT };
      case 'id': {
        const v = this.enums.get(e.name);
        return v === undefined ? undefined : { v, t: INT };
      }
      case 'sizeof': {
        // A type's size is a constant everywhere; an expression's needs its scope (lower/integers.ts sizeofValue).
        const n = 'type' in e.of ? sizeOf(declaredType(this.typeEnv, e.of.type.spec, e.of.type.decl), this.typeEnv.longBits) : undefined;
        return n === undefined ? undefined : { v: n, t: sizeType(this.typeEnv.longBits) };
      }
      case 'cast': {
        const c = this.typedConstant(e.arg);
        const t = castType(this.typeEnv, e);
        return c && (t.k === 'int' ? { v: convertConstant(c.v, t), t } : c);
      }
      case 'unary': {
        const c = this.typedConstant(e.arg);
        if (!c) return undefined;
        if (e.op === '!') return { v: c.v ? 0n : 1n, t: INT };
        const t = promote(c.t);
        const v = e.op === '-' ? -c.v : e.op === '+' ? c.v : e.op === '~' ? ~c.v : undefined;
        return v === undefined ? undefined : { v: convertConstant(v, t), t };
      }
      case 'binary': {
        const a = this.typedConstant(e.left);
        const b = this.typedConstant(e.right);
        if (!a || !b) return undefined;
        const logical = e.op === '&&' || e.op === '||';
        const shift = e.op === '<<' || e.op === '>>';
        const t = logical ? INT : shift ? promote(a.t) : commonType(a.t, b.t);
        const v = BINARY[e.op]?.(convertConstant(a.v, t), shift || logical ? b.v : convertConstant(b.v, t));
        if (v === undefined) return undefined;
        return ['==', '!=', '<', '<=', '>', '>=', '&&', '||'].includes(e.op) ? { v, t: INT } : { v: convertConstant(v, t), t };
      }
      case 'cond': {
        const c = this.typedConstant(e.test);
        const x = this.typedConstant(e.then);
        const y = this.typedConstant(e.else);
        if (!c || !x || !y) return c && (c.v ? x : y);
        const t = commonType(x.t, y.t);
        return { v: convertConstant(c.v ? x.v : y.v, t), t };
      }
      default:
        return undefined;
    }
  }

  addVar(info: VarInfo): void {
    if (info.owner === null && this.opts.observe?.includes(info.cname.replace(/[.[].*$/, ''))) info = { ...info, observed: true };
    this.vars.set(info.name, info);
    if (info.owner === null) this.globals.push(info.name);
  }

  /** What a variable's C type says of its values; a pointer holds 0 or an address (../points-to.ts). */
  private info(name: string, type: CType): Pick<VarInfo, 'unsigned' | 'bool' | 'range' | 'mutex'> {
    if (type.k !== 'ptr') return intInfo(type);
    this.pointerTypes.set(name, type);
    this.pointers.used = true;
    return { unsigned: false, bool: false, range: this.pointers.range(name) };
  }

  /** A local of thread `owner`, or a global if its address escapes (the points-to analysis says so). */
  addLocal(name: string, owner: number, type: CType, cname: string, pos: SourcePos, temp = false): void {
    this.addVar({ name, owner: this.pointers.promoted(name) ? null : owner, role: temp ? 'temp' : 'user', ...this.info(name, type), cname, pos });
    if (type.k === 'int') this.intTypes.set(name, type);
  }

  /** A ghost global (thread start/termination flags, halt flag), zero initially. */
  ghost(name: string): string {
    if (!this.vars.has(name)) {
      this.addVar({ name, owner: null, role: 'ghost', unsigned: true, bool: true, cname: name });
      this.globalInit.set(name, 0n);
    }
    return name;
  }

  /** `__halted`: set by abort()/exit(); every transition requires it to be 0. */
  /** The halt flag, when some statement halts the whole program (haltFlag made it). */
  get halting(): string | undefined {
    return this.halt;
  }

  haltFlag(): string {
    this.halt ??= this.ghost('__halted');
    return this.halt;
  }

  /**
   * File-scope pointers initialized with an address (`int *p = &x;`): main stores them
   * first, before any visible step, so they become initial values (builder.ts).
   */
  pointerInitializers(): { name: string; init: Expr }[] {
    return [...this.globalDecls].flatMap(([name, d]) => {
      const init = d.item.init?.k === 'init' ? d.item.init.items[0] : d.item.init;
      const pointer = applyDeclarator(baseType(d.spec, this.typeEnv), d.item.decl, this.typeEnv).k === 'ptr';
      return pointer && init && this.constant(init) !== 0n ? [{ name, init }] : [];
    });
  }

  /** The binding of a file-scope variable, created on first use. */
  global(name: string, pos: SourcePos): Binding | undefined {
    const hit = this.globalBindings.get(name);
    if (hit) return hit;
    const d = this.globalDecls.get(name);
    if (!d) return undefined;
    if (isThreadLocal(d.spec)) return unsupported(pos, `thread-local variable '${name}' here (each thread has its own copy; it is read in a thread's code only)`);
    const type = applyDeclarator(baseType(d.spec, this.typeEnv), d.item.decl, this.typeEnv);
    const b = this.constantGlobal(name, type, d) ?? this.globalVar(name, name, type, d.item.init, d.pos, pos);
    this.globalBindings.set(name, b);
    return b;
  }

  threadLocal(name: string, inst: Instance, pos: SourcePos): Binding | undefined {
    const d = this.globalDecls.get(name);
    if (!d || !isThreadLocal(d.spec)) return undefined;
    if (inst.replicated) return unsupported(pos, `thread-local variable '${name}' in a thread created in a loop without constant bounds (its copies would be one variable)`);
    const type = applyDeclarator(baseType(d.spec, this.typeEnv), d.item.decl, this.typeEnv);
    if (type.k !== 'int') return unsupported(d.pos, `thread-local variable '${name}' of type ${showType(type)} (only integer thread-local variables are modelled)`);
    const irName = `${name}@${inst.name}`;
    const fresh = !this.vars.has(irName);
    const copy = this.newGlobal(irName, irName, type, d.pos);
    if (fresh && d.item.init) {
      const e = d.item.init.k === 'init' ? d.item.init.items[0] : d.item.init;
      this.globalInit.set(irName, convertConstant(this.constant(e) ?? fail(e.pos, `initializer of thread-local '${name}' is not a constant`), type));
    }
    return copy;
  }

  /**
   * An integer global that nothing writes (no assignment, `++`, or address taken
   * anywhere in the file) keeps its constant initial value: it is that constant, so
   * `quantum * qset` of two such globals is linear. A property that reads it by name
   * (LowerOptions.observe) keeps it a variable; an `extern` without a definition has
   * no known value.
   */
  private constantGlobal(name: string, type: CType, d: { spec: Specifiers; item: InitDeclarator }): Binding | undefined {
    if (type.k !== 'int' || d.spec.storage.includes('extern') || d.spec.qualifiers.includes('volatile') || this.opts.observe?.includes(name)) return undefined;
    if (!this.written) {
      this.written = new Set();
      for (const f of this.functions.values()) writtenNames(f.body, this.written);
      for (const g of this.globalDecls.values()) if (g.item.init) writtenNames({ k: 'expr', e: g.item.init, pos: g.pos }, this.written);
    }
    if (this.written.has(name)) return undefined;
    const init = d.item.init?.k === 'init' ? d.item.init.items[0] : d.item.init;
    const v = init ? this.constant(init) : 0n;
    return v === undefined ? undefined : { k: 'const', value: convertConstant(v, type), type };
  }
  private written?: Set<string>;

  /**
   * A mutex starts free from PTHREAD_MUTEX_INITIALIZER, whose fields are all zero;
   * glibc's recursive and error-checking initializers set the kind field, and those
   * mutexes behave differently (a second lock by the owner succeeds or fails at once).
   * The other synchronisation objects' static initializers (PTHREAD_COND_INITIALIZER,
   * PTHREAD_RWLOCK_INITIALIZER, PTHREAD_ONCE_INIT) are all zero too; any other is a
   * state rely's model (types.ts SYNC) does not read.
   */
  checkSyncInitializer(init: Expr, name: string, type: CType): void {
    const scalars = (e: Expr): Expr[] => (e.k === 'init' ? e.items.flatMap(scalars) : [e]);
    const kind = scalars(init).find((e) => this.constant(e) !== 0n);
    if (!kind) return;
    if (type.k === 'mutex' && !type.spin) unsupported(kind.pos, `mutex '${name}' initialized as other than PTHREAD_MUTEX_INITIALIZER (a recursive or error-checking kind is modelled when set through pthread_mutexattr_settype, not by a static initializer)`);
    unsupported(kind.pos, `${showType(type)} '${name}' initialized other than by its static initializer (all zero)`);
  }

  /** `static` locals live for the whole run: they are globals named after their function. */
  staticLocal(fn: string, name: string, type: CType, init: Expr | undefined, pos: SourcePos): Binding {
    if (type.k === 'ptr' && init && this.constant(init) !== 0n) unsupported(pos, `static local pointer '${name}' with an initializer other than NULL`);
    const key = `${fn}::${name}@${pos.line}:${pos.col}`;
    let b = this.globalBindings.get(key);
    if (!b) {
      b = this.globalVar(`${fn}.${name}`, name, type, init, pos, pos);
      this.globalBindings.set(key, b);
    }
    return b;
  }

  newGlobal(irName: string, cname: string, type: CType, pos: SourcePos): Binding {
    const key = `new:${irName}`;
    let b = this.globalBindings.get(key);
    if (!b) {
      b = this.globalVar(irName, cname, type, undefined, pos, pos);
      this.globalBindings.set(key, b);
    }
    return b;
  }

  newArray(irName: string, cname: string, pos: SourcePos): void {
    if (!this.vars.has(irName)) this.addVar({ name: irName, owner: null, role: 'user', unsigned: false, bool: false, cname, pos });
  }

  private globalVar(irName: string, cname: string, type: CType, init: Expr | undefined, declPos: SourcePos, usePos: SourcePos): Binding {
    const unmodelled = unmodelledPointer(type);
    if (unmodelled) return unsupported(usePos, `global '${cname}' of type ${showType(type)} (${unmodelled} are not modelled)`);
    switch (type.k) {
      case 'int':
      case 'mutex':
      case 'ptr': {
        let v = 0n;
        const e = init?.k === 'init' ? init.items[0] : init;
        if (e?.k === 'other') unsupported(e.pos, e.what);
        if (init && type.k === 'mutex') this.checkSyncInitializer(init, cname, type);
        if (e && type.k === 'int') v = convertConstant(this.constant(e) ?? fail(e.pos, `initializer of global '${cname}' is not a constant`), type);
        // A pointer starts NULL; main stores an address initializer before anything else (pointerInitializers).
        this.addVar({ name: irName, owner: null, role: 'user', ...this.info(irName, type), cname, pos: declPos });
        if (type.k === 'int') this.intTypes.set(irName, type);
        this.globalInit.set(irName, v);
        return { k: 'var', name: irName, type };
      }
      case 'thread': {
        if (!this.threadIds) return { k: 'handle', slot: {} };
        // A thread id other than pthread_create's or pthread_self's would be an id no thread has (or one some thread has).
        if (init) unsupported(init.pos, `an initializer of pthread_t '${cname}'`);
        return { k: 'handle', slot: {}, id: this.globalVar(irName, cname, INT, undefined, declPos, usePos) as Extract<Binding, { k: 'var' }> };
      }
      case 'array': {
        if (type.size === undefined) return unsupported(declPos, `array '${cname}' without a constant size`);
        if (type.size > maxCells(type, this.threadIds)) return unsupported(declPos, `array '${cname}' with ${type.size} elements (at most ${maxCells(type, this.threadIds)})`);
        const items = aggregateItems(init, type.size, cname);
        const elems = Array.from({ length: type.size }, (_, i) =>
          this.globalVar(`${irName}[${i}]`, `${cname}[${i}]`, type.of, items[i], declPos, usePos),
        );
        return this.registerArray({ k: 'array', elems, type });
      }
      case 'struct': {
        if (init && type.sync) this.checkSyncInitializer(init, cname, type);
        const items = type.sync ? [] : aggregateItems(init, type.fields.length, cname);
        const elems = structMembers(type).map((f, i) => this.globalVar(`${irName}.${f.name}`, `${cname}.${f.name}`, f.type, items[i], declPos, usePos));
        return this.registerArray({ k: 'array', elems, type });
      }
      default:
        return unsupported(usePos, `global '${cname}' of type ${showType(type)}`);
    }
  }

  newInstance(fn: FunctionDef, arg: Binding, startedAtInit: boolean, chain: string[], pos: SourcePos, replicated = false): Instance {
    if (this.instances.length >= this.maxThreads) unsupported(pos, `more than ${this.maxThreads} threads`);
    const fname = fn.decl.name!;
    const same = this.instances.filter((i) => i.fn === fn).length;
    const name = same === 0 ? fname : `${fname}#${same + 1}`;
    const inst: Instance = { index: this.instances.length, name, fn, arg, startedAtInit, joined: false, replicated, chain, pos };
    this.instances.push(inst);
    return inst;
  }

  // ---- the whole program

  /** Every thread's CFG: main, and each thread it creates (which may create more). */
  buildThreads(): ThreadBuilder[] {
    const main = this.functions.get('main') ?? fail({ file: this.tu.file, line: 1, col: 1 }, "no 'main' function");
    const root = this.newInstance(main, { k: 'null' }, true, [], main.pos);
    root.name = 'main';
    const builders: ThreadBuilder[] = [];
    // Globals a property reads are variables of the program even if no thread uses them.
    for (const name of this.opts.observe ?? []) if (this.globalDecls.has(name)) this.global(name, main.pos);
    for (let i = 0; i < this.instances.length; i++) {
      checkDeadline(this.opts.deadline);
      builders.push(buildThread(this, this.instances[i]));
    }
    return builders;
  }
}

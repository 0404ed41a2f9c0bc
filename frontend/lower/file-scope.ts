/**
 * The contract between file-scope lowering (`Lowering` in ../lower.ts) and the
 * per-thread builders in this folder: what a name denotes (Binding), a thread instance,
 * and the file-scope services a builder calls. It has a module of its own so that
 * lower.ts and the builders both import it rather than each other.
 */
import type { Expr, FunctionDef } from '../ast.js';
import { unsupported, type SourcePos } from '../../program/diagnostics.js';
import type { PointsTo } from '../points-to.js';
import type { CType, IntType, TypeEnv } from '../types.js';
import type { Term } from '../../solver/formula.js';

/** What an identifier denotes while lowering. */
export type Binding =
  | { k: 'var'; name: string; type: CType }
  /** An aggregate: an array's cells, or a struct's members (`type` says which), in order. */
  | { k: 'array'; elems: Binding[]; type: CType }
  /**
   * A pthread_t: the instance it names, or (started through a function pointer) the
   * instances one of which it names; `stored` where an assignment gave it a value
   * instead (then it names no instance known statically). In a file that reads thread
   * ids (FileScope.threadIds) `id` is its value: the variable holding the id of the
   * thread it names (thread-ids.ts).
   */
  | { k: 'handle'; slot: { inst?: Instance; alternatives?: Instance[]; stored?: SourcePos }; id?: Extract<Binding, { k: 'var' }> }
  | { k: 'alias'; target: Binding }
  /** A constant: an unrolled loop's variable, or a global nothing writes (with its C type). */
  | { k: 'const'; value: bigint; type?: IntType }
  /** A cell of a region (an object of a size known only at run time, ../points-to.ts): array variable `array` at `index`. */
  | { k: 'elem'; array: string; index: Term; type: IntType }
  | { k: 'null' };

/** The message for a pthread_t's value read where the model has none (thread-ids.ts reads the rest). */
export const HANDLE_VALUES = 'pthread_t values other than in pthread_create, pthread_join, pthread_detach, pthread_equal, == and != of two pthread_t, and stores into a pthread_t';

/** The variables of a binding, arrays and structs flattened in order (C's layout of their cells). */
export function leaves(x: Binding): Binding[] {
  return x.k === 'array' ? x.elems.flatMap(leaves) : [x];
}

/**
 * The items of an aggregate's brace initializer, in order (positional). An aggregate
 * member initialized without its own braces (C's brace elision) is refused rather
 * than read one level off.
 */
export function aggregateItems(init: Expr | undefined, size: number, cname: string): Expr[] {
  if (!init) return [];
  if (init.k !== 'init') return unsupported(init.pos, `initializer of '${cname}' without braces (brace elision is not modelled)`);
  // More items than elements is C's brace elision (or an error): either way, not read.
  if (init.items.length > size) unsupported(init.items[size].pos, `more initializers than elements of '${cname}' (brace elision is not modelled)`);
  return init.items;
}

export interface Instance {
  index: number;
  name: string;
  fn: FunctionDef;
  /** What the thread function's parameter denotes (the pthread_create argument). */
  arg: Binding;
  startedAtInit: boolean;
  joined: boolean;
  /** A template (LowerOptions.templates): any number of copies of this thread run. */
  replicated: boolean;
  /** Functions on the creation chain (to reject a thread that transitively creates itself). */
  chain: string[];
  pos: SourcePos;
  /** Where a `pthread_detach` of it is: a join of it would be undefined behaviour. */
  detached?: SourcePos;
}

/** File-scope symbols and variables, as a thread builder reads and extends them. */
export interface FileScope {
  readonly typeEnv: TypeEnv;
  /** Constant initial values of globals; a builder adds the constant writes main makes before any thread starts. */
  readonly globalInit: Map<string, bigint>;
  /** Whether calls of functions with int parameters stay calls (LowerOptions.calls). */
  readonly keepCalls: boolean;
  hasBody(name: string): boolean;
  functionDef(name: string): FunctionDef | undefined;
  /** A prototype without a body. */
  isDeclaredFunction(name: string): boolean;
  enumConstant(name: string): bigint | undefined;
  hasVar(name: string): boolean;
  /** LowerOptions.maxInstances: the iterations a thread-creating loop without constant bounds gets. */
  readonly maxInstances: number | undefined;
  /** LowerOptions.maxThreads: the thread instances a program may have. */
  readonly maxThreads: number;
  /** Set when such a loop was cut. */
  boundedLoops: boolean;
  isGlobal(name: string): boolean;
  isBoolVar(name: string): boolean;
  /** The C type of an integer variable of the program (not of a ghost or pc). */
  varType(name: string): IntType | undefined;
  /** The C name of an IR variable, for messages and edge texts. */
  cname(name: string): string;
  warn(pos: SourcePos, message: string): void;
  /** Folds a constant expression, or undefined. */
  constant(e: Expr): bigint | undefined;
  addLocal(name: string, owner: number, type: CType, cname: string, pos: SourcePos, temp?: boolean): void;
  /** A ghost global, zero initially (thread start and termination flags). */
  ghost(name: string): string;
  /** The ghost set by abort()/exit(). */
  haltFlag(): string;
  /**
   * Thread `inst`'s copy of a file-scope `__thread`/`_Thread_local` variable (a global
   * of its own, initialised from the declaration), or undefined if `name` is no such variable.
   */
  threadLocal(name: string, inst: Instance, pos: SourcePos): Binding | undefined;
  /** The binding of a file-scope variable, or undefined if there is none. */
  global(name: string, pos: SourcePos): Binding | undefined;
  staticLocal(fn: string, name: string, type: CType, init: Expr | undefined, pos: SourcePos): Binding;
  /** Refuses an initializer of a mutex or another synchronisation object other than its static initializer. */
  checkSyncInitializer(init: Expr, name: string, type: CType): void;
  newInstance(fn: FunctionDef, arg: Binding, startedAtInit: boolean, chain: string[], pos: SourcePos, replicated?: boolean): Instance;
  /**
   * Whether some `pthread_join` of the file takes a thread's result: then each thread
   * keeps the value it returns (or passes to `pthread_exit`) in a global of its own,
   * `__result.<instance>` (builtins.ts).
   */
  readonly joinResults: boolean;
  /** The key a `pthread_key_create` call makes (1, 2, …: one per call in the file, which one thread may run once). */
  keySite(e: Expr, inst: Instance, pos: SourcePos): number;
  /** Whether the file sets a mutex kind (`pthread_mutexattr_settype`): its mutexes then have kinds (mutex-kinds.ts). */
  readonly mutexKinds: boolean;
  /** The keys made with a destructor, and the destructor (a function's name). */
  keyDestructors(): { key: number; fn: Expr }[];
  /** How many `pthread_key_create` calls the file has. */
  readonly keyCount: number;
  /** LowerOptions.templates. */
  readonly templates: boolean;
  /** Whether some body of the file calls the library function `name`. */
  calls(name: string): boolean;
  /**
   * Whether the file reads thread ids (calls `pthread_equal`, or `pthread_self` other
   * than as `pthread_detach(pthread_self())`): then every pthread_t holds the id of the
   * thread it names in a variable (thread-ids.ts).
   */
  readonly threadIds: boolean;
  /** LowerOptions.mallocMayFail. */
  readonly mallocMayFail: boolean;
  /** LowerOptions.checkFree. */
  readonly checkFree: boolean;
  /** LowerOptions.checkMisuse. */
  readonly checkMisuse: boolean;
  /** A global variable (scalar, array or struct, zero initially) the lowering introduces: a heap object, a thread's argument; the same binding for the same name in one lowering. */
  newGlobal(irName: string, cname: string, type: CType, pos: SourcePos): Binding;
  /** A global array variable (a region's cells: ../points-to.ts), of any contents initially; `irName` contains `[]` (formula.ts). */
  newArray(irName: string, cname: string, pos: SourcePos): void;
  /** The address space and points-to analysis (../points-to.ts). */
  readonly pointers: PointsTo;
  /** The type of a pointer variable of the program. */
  pointerVarType(name: string): CType | undefined;
  /** Records an array's cells (pointers.ts finds the array a cell is in); returns it. */
  registerArray(array: Binding & { k: 'array' }): Binding;
  /** File-scope pointers initialized with an address, which main stores first. */
  pointerInitializers(): { name: string; init: Expr }[];
  /** The outermost array a variable is a cell of, and its index there (arrays flattened). */
  cellOf(name: string): { array: Binding; index: number } | undefined;
}

/** C types as far as rely models them, resolved from specifiers and declarators. */
import type { Attribute, Declarator, Field, Param, Specifiers } from './ast.js';
import { checkAttributes, modeBits } from './specifiers.js';

export type CType =
  /**
   * An integer type of `bits` bits. `lo`/`hi` is its range where rely models C's
   * conversion into it (unsigned types wrap modulo 2^bits, `char` and `short` as gcc
   * converts); plain signed `int` and `long` have none: their arithmetic is
   * mathematical, as signed overflow is undefined behaviour. `atomic`: `_Atomic` (a
   * compound assignment or `++` of it is one step, lower/expressions.ts).
   */
  | { k: 'int'; unsigned: boolean; bool: boolean; bits: number; lo?: bigint; hi?: bigint; atomic?: true }
  | { k: 'void' }
  /** A mutex (0 free, else its owner's thread index + 1); `spin` for pthread_spinlock_t, which differs only in size. */
  | { k: 'mutex'; spin?: true }
  | { k: 'thread' }
  | { k: 'ptr'; to: CType }
  | { k: 'array'; of: CType; size?: number }
  /** A function type; `params` as declared (null for `f()` without a prototype), resolved where compared (function-pointers.ts). */
  | { k: 'func'; ret: CType; params: readonly Param[] | null; variadic: boolean }
  /**
   * A struct: its members in order (each scalar member is a variable of its own, as an
   * array's cells). A union (`union`) whose members all have one integer type: they
   * are one variable, as C's store through one member and read through another is then.
   * `sync`: a POSIX synchronisation object rely models by the integer members of SYNC
   * (the library's own layout is not read; lower/sync.ts).
   */
  | { k: 'struct'; name: string; def: readonly Field[]; fields: StructField[]; union?: true; sync?: SyncKind }
  | { k: 'other'; what: string };

export interface StructField {
  name: string;
  type: CType;
}

export type IntType = Extract<CType, { k: 'int' }>;

/** The integer type of that signedness and width, with its range where it has one. */
export function intType(unsigned: boolean, bits: number): IntType {
  if (unsigned) return { k: 'int', unsigned, bool: false, bits, lo: 0n, hi: (1n << BigInt(bits)) - 1n };
  if (bits < 32) return { k: 'int', unsigned, bool: false, bits, lo: -(1n << BigInt(bits - 1)), hi: (1n << BigInt(bits - 1)) - 1n };
  return { k: 'int', unsigned, bool: false, bits };
}

export const INT: IntType = intType(false, 32);
/** size_t, `sizeof`'s type: as wide as `long`. */
export const sizeType = (longBits: number): IntType => intType(true, longBits);

export const BOOL: IntType = { k: 'int', unsigned: true, bool: true, bits: 1, lo: 0n, hi: 1n };

/** C's conversion of a value into a type: `_Bool` is v ≠ 0, a type with a range wraps into it. */
export function convertConstant(v: bigint, t: CType): bigint {
  if (t.k !== 'int') return v;
  if (t.bool) return v !== 0n ? 1n : 0n;
  if (t.lo === undefined || t.hi === undefined) return v;
  const m = t.hi - t.lo + 1n;
  return ((((v - t.lo) % m) + m) % m) + t.lo;
}

/** Widths of `long` and of pointers: SV-COMP's 32-bit tasks are ILP32, its 64-bit ones LP64. */
export type DataModel = 'ILP32' | 'LP64';
export const longBits = (m: DataModel | undefined): number => (m === 'LP64' ? 64 : 32);

/**
 * The synchronisation objects rely models as structs of integers: a condition variable
 * has no state (POSIX allows spurious wakeups, lower/sync.ts), a read-write lock counts
 * readers and holds its writer, a barrier its count, arrivals and a phase bit, a
 * semaphore its value, a `pthread_once_t` whether its function has not run (0), runs
 * (1) or has run (2), a mutex attribute object its kind (lower/mutex-kinds.ts). Every
 * member is zero in a zero-initialised object.
 */
export type SyncKind = 'cond' | 'rwlock' | 'barrier' | 'sem' | 'once' | 'mutexattr';

export const SYNC: Record<SyncKind, { typedef: string; members: readonly string[] }> = {
  cond: { typedef: 'pthread_cond_t', members: ['__unused'] },
  rwlock: { typedef: 'pthread_rwlock_t', members: ['__readers', '__writer'] },
  barrier: { typedef: 'pthread_barrier_t', members: ['__count', '__arrived', '__phase'] },
  sem: { typedef: 'sem_t', members: ['__value'] },
  once: { typedef: 'pthread_once_t', members: ['__state'] },
  mutexattr: { typedef: 'pthread_mutexattr_t', members: ['__kind'] },
};

const syncType = (sync: SyncKind): CType => ({ k: 'struct', name: SYNC[sync].typedef, def: [], fields: SYNC[sync].members.map((name) => ({ name, type: INT })), sync });

/** Typedef names with a meaning of their own, whatever a header defines them as. */
const SPECIAL: Record<string, CType> = {
  pthread_t: { k: 'thread' },
  pthread_mutex_t: { k: 'mutex' },
  pthread_spinlock_t: { k: 'mutex', spin: true },
  pthread_key_t: intType(true, 32),
  ...Object.fromEntries(Object.entries(SYNC).map(([kind, { typedef }]) => [typedef, syncType(kind as SyncKind)])),
  pthread_attr_t: { k: 'other', what: 'pthread_attr_t' },
  pthread_condattr_t: { k: 'other', what: 'pthread_condattr_t' },
  pthread_rwlockattr_t: { k: 'other', what: 'pthread_rwlockattr_t' },
  pthread_barrierattr_t: { k: 'other', what: 'pthread_barrierattr_t' },
  FILE: { k: 'other', what: 'FILE' },
};

export interface TypeEnv {
  typedef(name: string): { spec: Specifiers; decl: Declarator } | undefined;
  /** The members of the struct or union with this tag, where the file defines it. */
  tag(kind: 'struct' | 'union', name: string): Field[] | undefined;
  /** The width of `long` (and of size_t, intptr_t …) in the data model. */
  readonly longBits: number;
  /** Evaluates an array size expression to a constant, or undefined. */
  constant(e: import('./ast.js').Expr): bigint | undefined;
}

/** The base type named by declaration specifiers. */
export function baseType(spec: Specifiers, env: TypeEnv, depth = 0): CType {
  checkAttributes(spec.attributes);
  const t = withMode(namedType(spec, env, depth), spec.attributes, env);
  return spec.qualifiers.includes('_Atomic') ? atomicType(t) : t;
}

/** `_Atomic T`: modelled for integers; any other type is refused where used. */
function atomicType(t: CType): CType {
  return t.k === 'int' ? { ...t, atomic: true } : { k: 'other', what: `_Atomic ${showType(t)} (only atomic integers are modelled)` };
}

/** `<stdatomic.h>`'s integer typedefs (atomic_int, atomic_ullong, …), known even when the header is not read. */
const ATOMIC_TYPEDEF = /^atomic_(bool|char|schar|uchar|short|ushort|int|uint|long|ulong|llong|ullong|flag)$/;

function atomicTypedef(name: string, longBits: number): CType | undefined {
  const m = ATOMIC_TYPEDEF.exec(name)?.[1];
  if (!m) return undefined;
  const unsigned = m.startsWith('u') || m === 'bool' || m === 'flag';
  const word = m.replace(/^u|^s(?=char)/, '');
  const t = m === 'bool' || m === 'flag' ? BOOL : intType(unsigned, { char: 8, short: 16, int: 32, long: longBits, llong: 64 }[word]!);
  return atomicType(t);
}

/** An integer type resized by `__attribute__((mode(…)))`, if the attributes have one. */
function withMode(t: CType, attrs: readonly Attribute[] | undefined, env: TypeEnv): CType {
  const bits = modeBits(attrs, env.longBits);
  if (bits === undefined) return t;
  if (t.k !== 'int' || t.bool) return { k: 'other', what: `mode(${bits} bits) of ${showType(t)}` };
  return intType(t.unsigned, bits);
}

/** Integer type words; any other word names a type rely does not model. */
const INT_WORDS = new Set(['char', 'short', 'int', 'long', 'signed', '__signed__', 'unsigned']);

function namedType(spec: Specifiers, env: TypeEnv, depth: number): CType {
  if (spec.typedefName) {
    const special = SPECIAL[spec.typedefName];
    if (special) return special;
    const td = env.typedef(spec.typedefName);
    if (td && depth < 64) return applyDeclarator(baseType(td.spec, env, depth + 1), td.decl, env);
    const atomic = atomicTypedef(spec.typedefName, env.longBits);
    if (atomic) return atomic;
    const fixed = /^(u?)int(8|16|32|64|ptr)_t$/.exec(spec.typedefName);
    if (fixed) return intType(fixed[1] === 'u', fixed[2] === 'ptr' ? env.longBits : Number(fixed[2]));
    if (/^s?size_t$|^ptrdiff_t$/.test(spec.typedefName)) return intType(spec.typedefName === 'size_t', env.longBits);
    return { k: 'other', what: spec.typedefName };
  }
  if (spec.tag) {
    if (spec.tag.kind === 'enum') return INT;
    const name = `${spec.tag.kind} ${spec.tag.name ?? '(anonymous)'}`;
    const fields = spec.fields ?? (spec.tag.name === undefined ? undefined : env.tag(spec.tag.kind, spec.tag.name));
    if (!fields || depth >= 64) return { k: 'other', what: name };
    // One type per definition and depth: structs that point to each other (glibc's FILE) would otherwise expand as a tree, doubling at each level.
    let byDepth = expanded.get(env)?.get(fields);
    if (!byDepth) {
      if (!expanded.has(env)) expanded.set(env, new WeakMap());
      expanded.get(env)!.set(fields, (byDepth = new Map()));
    }
    let t = byDepth.get(depth);
    if (!t) byDepth.set(depth, (t = structType(spec.tag.kind, name, fields, env, depth)));
    return t;
  }
  const w = spec.words;
  if (w.includes('void')) return { k: 'void' };
  if (w.includes('float') || w.includes('double')) return { k: 'other', what: 'floating-point types' };
  if (w.includes('__typeof__')) return { k: 'other', what: '__typeof__' };
  if (w.includes('__int128')) return { k: 'other', what: '__int128' };
  if (w.includes('_Bool')) return BOOL;
  const other = w.find((x) => !INT_WORDS.has(x));
  if (other) return { k: 'other', what: other };
  const unsigned = w.includes('unsigned');
  const longs = w.filter((x) => x === 'long').length;
  const bits = w.includes('char') ? 8 : w.includes('short') ? 16 : longs >= 2 ? 64 : longs === 1 ? env.longBits : 32;
  return intType(unsigned, bits);
}

/** Per type environment and struct definition: its type at each depth of expansion. */
const expanded = new WeakMap<TypeEnv, WeakMap<readonly Field[], Map<number, CType>>>();

function structType(kind: 'struct' | 'union', name: string, fields: Field[], env: TypeEnv, depth: number): CType {
  const members = fields.map((f) => structField(f, env, depth));
  if (kind === 'struct') return { k: 'struct', name, def: fields, fields: members };
  // A union is modelled only where its members share one representation.
  const [first] = members.map((m) => m.type);
  const same = (t: CType): boolean => t.k === 'int' && first?.k === 'int' && t.bits === first.bits && t.unsigned === first.unsigned && t.bool === first.bool;
  if (!members.every((m) => same(m.type))) return { k: 'other', what: `${name} (a union whose members are not all of one integer type)` };
  return { k: 'struct', name, def: fields, fields: members, union: true };
}

/** The members that have variables of their own: a union's members share its first one's. */
export function structMembers(t: Extract<CType, { k: 'struct' }>): StructField[] {
  return t.union ? t.fields.slice(0, 1) : t.fields;
}

/** A struct member's type; bit-fields and unnamed members are not modelled. */
function structField(f: Field, env: TypeEnv, depth: number): StructField {
  const name = f.decl.name ?? '(unnamed)';
  if (f.bitField) return { name, type: { k: 'other', what: `bit-field '${name}'` } };
  if (!f.decl.name) return { name, type: { k: 'other', what: 'unnamed struct member' } };
  return { name, type: applyDeclarator(baseType(f.spec, env, depth + 1), f.decl, env) };
}

/** Applies the declarator's pointer/array/function derivations to a base type. */
export function applyDeclarator(base: CType, decl: Declarator, env: TypeEnv): CType {
  checkAttributes(decl.attributes);
  if (decl.derived.length && modeBits(decl.attributes, env.longBits) !== undefined) return { k: 'other', what: 'mode(…) of a derived type' };
  let t = withMode(base, decl.attributes, env);
  for (let i = decl.derived.length - 1; i >= 0; i--) {
    const d = decl.derived[i];
    if (d.k === 'ptr') t = { k: 'ptr', to: t };
    else if (d.k === 'func') t = { k: 'func', ret: t, params: d.params, variadic: d.variadic };
    else {
      const n = d.size ? env.constant(d.size) : undefined;
      t = { k: 'array', of: t, size: n === undefined ? undefined : Number(n) };
    }
  }
  return t;
}


/**
 * The most cells an array may have: 4096 of variables, or 100,000 `pthread_t` (a handle has
 * no variable unless the file reads thread ids, `handleVars`; goblint's tasks create 10,000
 * threads into one array).
 */
export const maxCells = (t: Extract<CType, { k: 'array' }>, handleVars = false): number => (t.of.k === 'thread' && !handleVars ? 100_000 : 4096);

/** What kind of pointer rely does not model, if t is one: a pointer is an address of a cell or a function's number (points-to.ts). */
export function unmodelledPointer(t: CType): string | undefined {
  if (t.k !== 'ptr') return undefined;
  return t.to.k === 'ptr' ? 'pointers to pointers' : undefined;
}

export function showType(t: CType): string {
  switch (t.k) {
    case 'int':
      return t.bool ? '_Bool' : `${t.unsigned ? 'unsigned ' : ''}${{ 8: 'char', 16: 'short', 32: 'int', 64: 'long long' }[t.bits] ?? 'int'}`;
    case 'ptr':
      return `${showType(t.to)} *`;
    case 'array':
      return `${showType(t.of)}[${t.size ?? ''}]`;
    case 'func':
      return `function returning ${showType(t.ret)}`;
    case 'struct':
    case 'other':
      return t.k === 'struct' ? t.name : t.what;
    case 'mutex':
      return t.spin ? 'pthread_spinlock_t' : 'pthread_mutex_t';
    case 'thread':
      return 'pthread_t';
    case 'void':
      return 'void';
  }
}

/**
 * Formula IR shared by every engine: terms over Int, Bool and arrays from Int to Int,
 * hash-consed so that structurally equal terms are the same object (cheap equality,
 * sharing, caching).
 *
 * Integers are mathematical integers (bigint). `cdiv`/`crem` are C's truncating
 * division and remainder; they are linear only with a constant divisor.
 *
 * Arrays (SMT's `(Array Int Int)`: `select`, `store`, `const`) hold objects whose size
 * is known only at run time. An array variable's name contains `[]` (`isArrayName`):
 * its sort is part of its name, so every place that rebuilds a variable by name (a
 * frame `x' = x`, a renaming, a solver's answer) gets the sort right.
 */

import { FALSE, TRUE, app, isArrayName, mkVar, num, type AppTerm, type IntTerm, type Op, type Sort, type Term, type VarTerm } from './terms.js';
import { arrayValue, constArrayValue, intValue, selectValue, storeValue, valuesEqual, type Value } from './values.js';

// The terms and the values are this module's too: every user of the IR imports it alone.
export { FALSE, TRUE, isArrayName, mkVar, num, reintern, type AppTerm, type BoolTerm, type IntTerm, type Op, type Sort, type Term, type VarTerm } from './terms.js';
export { constArrayValue, intValue, selectValue, showValue, storeValue, valuesEqual, type ArrayValue, type Value } from './values.js';

// ---------------------------------------------------------------------------
// Linear forms: sum of coefficient * variable + constant. Used to normalise
// arithmetic so that equal linear expressions become the same term.

export interface Linear {
  readonly coeffs: ReadonlyMap<string, bigint>;
  readonly constant: bigint;
}

/** The linear form of an integer term, or null when it is not linear. */
export function linearOf(t: Term): Linear | null {
  const coeffs = new Map<string, bigint>();
  let constant = 0n;
  const add = (term: Term, k: bigint): boolean => {
    if (k === 0n) return true;
    switch (term.kind) {
      case 'int':
        constant += k * term.value;
        return true;
      case 'var':
        coeffs.set(term.name, (coeffs.get(term.name) ?? 0n) + k);
        return true;
      case 'app':
        if (term.op === '+') return term.args.every((a) => add(a, k));
        if (term.op === '*') {
          const [a, b] = term.args;
          if (a.kind === 'int') return add(b, k * a.value);
          if (b.kind === 'int') return add(a, k * b.value);
        }
        return false;
      default:
        return false;
    }
  };
  if (!add(t, 1n)) return null;
  for (const [v, c] of coeffs) if (c === 0n) coeffs.delete(v);
  return { coeffs, constant };
}

/** Builds the canonical term of a linear form (variables sorted by name). */
export function fromLinear(l: Linear): Term {
  const names = [...l.coeffs.keys()].sort();
  const parts: Term[] = names.map((n) => {
    const c = l.coeffs.get(n)!;
    const v = varTermOf(n);
    return c === 1n ? v : app('*', [num(c), v], 'int');
  });
  if (l.constant !== 0n || parts.length === 0) parts.push(num(l.constant));
  return parts.length === 1 ? parts[0] : app('+', parts, 'int');
}

const intVars = new Map<string, VarTerm>();
function varTermOf(name: string): VarTerm {
  let v = intVars.get(name);
  if (!v) {
    v = mkVar(name, 'int');
    intVars.set(name, v);
  }
  return v;
}

function linearCombine(a: Term, b: Term, kb: bigint): Linear | null {
  const la = linearOf(a);
  const lb = linearOf(b);
  if (!la || !lb) return null;
  const coeffs = new Map(la.coeffs);
  for (const [v, c] of lb.coeffs) coeffs.set(v, (coeffs.get(v) ?? 0n) + kb * c);
  for (const [v, c] of coeffs) if (c === 0n) coeffs.delete(v);
  return { coeffs, constant: la.constant + kb * lb.constant };
}

// ---------------------------------------------------------------------------
// Arithmetic builders (normalising).

export function add(...ts: Term[]): Term {
  const l = ts.reduce<Linear | null>(
    (acc, t) => (acc === null ? null : linearCombine(fromLinear(acc), t, 1n)),
    { coeffs: new Map(), constant: 0n },
  );
  return l ? fromLinear(l) : app('+', ts, 'int');
}
export function sub(a: Term, b: Term): Term {
  const l = linearCombine(a, b, -1n);
  return l ? fromLinear(l) : app('+', [a, app('*', [num(-1), b], 'int')], 'int');
}
export function neg(a: Term): Term {
  return sub(num(0), a);
}
export function mul(a: Term, b: Term): Term {
  if (a.kind === 'int' || b.kind === 'int') {
    const [k, t] = a.kind === 'int' ? [a.value, b] : [(b as IntTerm).value, a];
    const l = linearOf(t);
    if (l) {
      const coeffs = new Map<string, bigint>();
      if (k !== 0n) for (const [v, c] of l.coeffs) coeffs.set(v, c * k);
      return fromLinear({ coeffs, constant: l.constant * k });
    }
  }
  return app('*', [a, b], 'int');
}
/** C division (truncates toward zero). */
export function cdiv(a: Term, b: Term): Term {
  if (a.kind === 'int' && b.kind === 'int' && b.value !== 0n) return num(a.value / b.value);
  if (b.kind === 'int' && b.value === 1n) return a;
  // A linear term every coefficient of which k divides: the quotient is exact, so truncation changes nothing.
  const l = b.kind === 'int' && b.value !== 0n ? linearOf(a) : null;
  if (l && l.constant % (b as IntTerm).value === 0n && [...l.coeffs.values()].every((c) => c % (b as IntTerm).value === 0n)) {
    const k = (b as IntTerm).value;
    return fromLinear({ coeffs: new Map([...l.coeffs].map(([v, c]) => [v, c / k])), constant: l.constant / k });
  }
  return app('cdiv', [a, b], 'int');
}
/** C remainder (sign of the dividend). */
export function crem(a: Term, b: Term): Term {
  if (a.kind === 'int' && b.kind === 'int' && b.value !== 0n) return num(a.value % b.value);
  return app('crem', [a, b], 'int');
}
export function ite(c: Term, a: Term, b: Term): Term {
  if (c === TRUE) return a;
  if (c === FALSE) return b;
  if (a === b) return a;
  return app('ite', [c, a, b], a.sort);
}

/** `a[i]`: through stores at other constant indices, down to the value that decides it. */
export function select(a: Term, i: Term): Term {
  if (a.kind === 'app' && a.op === 'const') return a.args[0];
  if (a.kind === 'app' && a.op === 'store') {
    const [inner, j, v] = a.args;
    if (j === i) return v;
    if (j.kind === 'int' && i.kind === 'int') return select(inner, i);
  }
  return app('select', [a, i], 'int');
}
/** The array `a` with `v` at index `i`. */
export function store(a: Term, i: Term, v: Term): Term {
  return app('store', [a, i, v], 'array');
}
/** The array with `v` at every index. */
export function constArray(v: Term): Term {
  return app('const', [v], 'array');
}

// ---------------------------------------------------------------------------
// Atoms. Linear comparisons are normalised to `lhs <op> constant` with the
// variables on the left, divided by the gcd, so equal atoms are the same term.

function gcd(a: bigint, b: bigint): bigint {
  a = a < 0n ? -a : a;
  b = b < 0n ? -b : b;
  while (b) [a, b] = [b, a % b];
  return a;
}
function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return q * b !== a && a < 0n !== b < 0n ? q - 1n : q;
}

/** Normalised atom for `l op 0` where op is '=' or '<=' (integers: '<' becomes '<= -1'). */
function atomOf(l: Linear, op: '=' | '<='): Term {
  if (l.coeffs.size === 0) {
    const c = l.constant;
    return (op === '=' ? c === 0n : c <= 0n) ? TRUE : FALSE;
  }
  let g = 0n;
  for (const c of l.coeffs.values()) g = gcd(g, c);
  const coeffs = new Map<string, bigint>();
  // Equalities get a positive leading coefficient so `x = y` and `y = x` coincide.
  const names = [...l.coeffs.keys()].sort();
  const sign = op === '=' && l.coeffs.get(names[0])! < 0n ? -1n : 1n;
  for (const [v, c] of l.coeffs) coeffs.set(v, (sign * c) / g);
  let rhs: bigint;
  if (op === '=') {
    if (l.constant % g !== 0n) return FALSE;
    rhs = (-sign * l.constant) / g;
  } else {
    rhs = floorDiv(-l.constant, g); // sum c x <= -constant, tightened over the integers
  }
  return app(op, [fromLinear({ coeffs, constant: 0n }), num(rhs)], 'bool');
}

function compare(op: '=' | '<=' | '<', a: Term, b: Term): Term {
  const l = linearCombine(a, b, -1n);
  if (l) {
    if (op === '<') return atomOf({ coeffs: l.coeffs, constant: l.constant + 1n }, '<=');
    return atomOf(l, op);
  }
  return app(op, [a, b], 'bool');
}
export const eq = (a: Term, b: Term): Term =>
  a.sort === 'bool' || b.sort === 'bool' || a.sort === 'array' ? iff(a, b) : compare('=', a, b);
export const le = (a: Term, b: Term): Term => compare('<=', a, b);
export const lt = (a: Term, b: Term): Term => compare('<', a, b);
export const ge = (a: Term, b: Term): Term => compare('<=', b, a);
export const gt = (a: Term, b: Term): Term => compare('<', b, a);

function iff(a: Term, b: Term): Term {
  if (a === b) return TRUE;
  return app('=', [a, b], 'bool');
}

export function not(a: Term): Term {
  if (a === TRUE) return FALSE;
  if (a === FALSE) return TRUE;
  if (a.kind === 'app') {
    if (a.op === 'not') return a.args[0];
    // Over the integers ¬(l <= c) is l >= c + 1: stays a single linear atom.
    if (a.op === '<=' && a.args[1].kind === 'int') return gt(a.args[0], a.args[1]);
  }
  return app('not', [a], 'bool');
}
export function and(...ts: Term[]): Term {
  return junction('and', ts);
}
export function or(...ts: Term[]): Term {
  return junction('or', ts);
}

/** A conjunction or disjunction of `ts`, flattened, without repeats or units; its absorbing element if one of `ts` is. */
function junction(op: 'and' | 'or', ts: Term[]): Term {
  const [unit, absorbing] = op === 'and' ? [TRUE, FALSE] : [FALSE, TRUE];
  const out: Term[] = [];
  const seen = new Set<Term>();
  const push = (t: Term): boolean => {
    if (t === absorbing) return false;
    if (t === unit) return true;
    if (t.kind === 'app' && t.op === op) return t.args.every(push);
    if (!seen.has(t)) {
      seen.add(t);
      out.push(t);
    }
    return true;
  };
  if (!ts.every(push)) return absorbing;
  if (out.length === 0) return unit;
  return out.length === 1 ? out[0] : app(op, out, 'bool');
}

/** The conjuncts of a formula (itself when it is not a conjunction). */
export function conjuncts(t: Term): readonly Term[] {
  if (t === TRUE) return [];
  return t.kind === 'app' && t.op === 'and' ? t.args : [t];
}

// ---------------------------------------------------------------------------
// Traversals.

/** The variables of each term varsOf was asked about, in the order of its walk (terms are immutable and hash-consed). */
const varsMemo = new WeakMap<Term, readonly string[]>();

export function varsOf(t: Term, out: Set<string> = new Set()): Set<string> {
  let vs = varsMemo.get(t);
  if (!vs) varsMemo.set(t, (vs = walkVars(t)));
  for (const v of vs) out.add(v);
  return out;
}

function walkVars(t: Term): string[] {
  const out = new Set<string>();
  const seen = new Set<number>();
  const walk = (u: Term): void => {
    if (seen.has(u.id)) return;
    seen.add(u.id);
    if (u.kind === 'var') out.add(u.name);
    else if (u.kind === 'app') u.args.forEach(walk);
  };
  walk(t);
  return [...out];
}

/** Rebuilds a term bottom-up through the normalising builders. */
export function rebuild(op: Op, args: Term[]): Term {
  switch (op) {
    case '+':
      return add(...args);
    case '*':
      return mul(args[0], args[1]);
    case 'cdiv':
      return cdiv(args[0], args[1]);
    case 'crem':
      return crem(args[0], args[1]);
    case 'ite':
      return ite(args[0], args[1], args[2]);
    case '=':
      return eq(args[0], args[1]);
    case '<=':
      return le(args[0], args[1]);
    case '<':
      return lt(args[0], args[1]);
    case 'and':
      return and(...args);
    case 'or':
      return or(...args);
    case 'not':
      return not(args[0]);
    case 'select':
      return select(args[0], args[1]);
    case 'store':
      return store(args[0], args[1], args[2]);
    case 'const':
      return constArray(args[0]);
  }
}

/** Simultaneous substitution of variables by terms. */
export function substitute(t: Term, map: ReadonlyMap<string, Term>): Term {
  if (map.size === 0) return t;
  const memo = new Map<number, Term>();
  const walk = (u: Term): Term => {
    const hit = memo.get(u.id);
    if (hit) return hit;
    let r: Term = u;
    if (u.kind === 'var') r = map.get(u.name) ?? u;
    else if (u.kind === 'app') {
      const args = u.args.map(walk);
      r = args.every((a, i) => a === u.args[i]) ? u : rebuild(u.op, args);
    }
    memo.set(u.id, r);
    return r;
  };
  return walk(t);
}

/** Renames variables (a substitution by variables). */
export function rename(t: Term, f: (name: string) => string): Term {
  const map = new Map<string, Term>();
  for (const v of varsOf(t)) {
    const n = f(v);
    if (n !== v) map.set(v, mkVar(n, sortOfVar(t, v)));
  }
  return substitute(t, map);
}

function sortOfVar(t: Term, name: string): Sort {
  let sort: Sort = 'int';
  const walk = (u: Term): void => {
    if (u.kind === 'var' && u.name === name) sort = u.sort;
    else if (u.kind === 'app') u.args.forEach(walk);
  };
  walk(t);
  return sort;
}

export const PRIME = "'";
export const primed = (name: string): string => name + PRIME;
export const isPrimed = (name: string): boolean => name.endsWith(PRIME);
export const unprimed = (name: string): string => (isPrimed(name) ? name.slice(0, -1) : name);
export const prime = (t: Term): Term => rename(t, (n) => (isPrimed(n) ? n : primed(n)));

/** True when the term uses only linear arithmetic (arrays' select and store are in the fragment: Spacer reads them). */
export function isLinear(t: Term): boolean {
  if (t.kind !== 'app') return true;
  if (t.op === '*') return (t.args[0].kind === 'int' || t.args[1].kind === 'int') && t.args.every(isLinear);
  if (t.op === 'cdiv' || t.op === 'crem') return t.args[1].kind === 'int' && isLinear(t.args[0]);
  return t.args.every(isLinear);
}

// ---------------------------------------------------------------------------
// Evaluation over concrete values.

export type Valuation = (name: string) => Value;

/** The value of `t` where variables have the values `val` gives. */
export function evaluate(t: Term, val: Valuation): Value | boolean {
  switch (t.kind) {
    case 'int':
      return t.value;
    case 'bool':
      return t.value;
    case 'var': {
      const v = val(t.name);
      return t.sort === 'bool' ? v !== 0n : v;
    }
    case 'app': {
      const a = t.args.map((x) => evaluate(x, val));
      const n = (k: number): bigint => intValue(a[k]);
      switch (t.op) {
        case '+':
          return a.reduce<bigint>((x, y) => x + intValue(y), 0n);
        case '*':
          return n(0) * n(1);
        case 'cdiv':
          if (n(1) === 0n) throw new RangeError('division by zero');
          return n(0) / n(1);
        case 'crem':
          if (n(1) === 0n) throw new RangeError('remainder by zero');
          return n(0) % n(1);
        case 'ite':
          return a[0] ? a[1] : a[2];
        case '=':
          return valuesEqual(a[0], a[1]);
        case '<=':
          return n(0) <= n(1);
        case '<':
          return n(0) < n(1);
        case 'and':
          return a.every(Boolean);
        case 'or':
          return a.some(Boolean);
        case 'not':
          return !a[0];
        case 'select':
          return selectValue(arrayValue(a[0]), n(1));
        case 'store':
          return storeValue(arrayValue(a[0]), n(1), n(2));
        case 'const':
          return constArrayValue(n(0));
      }
    }
  }
}

// ---------------------------------------------------------------------------
// Printing.

const INFIX: Partial<Record<Op, string>> = { '=': '=', '<=': '<=', '<': '<', cdiv: '/', crem: '%' };

/** Human-readable infix form, e.g. `lock' = 1 && pc1 = 0`. */
export function show(t: Term): string {
  switch (t.kind) {
    case 'int':
      return t.value.toString();
    case 'bool':
      return t.value ? 'true' : 'false';
    case 'var':
      return t.name;
    case 'app': {
      const p = (u: Term): string => (u.kind === 'app' && u.op !== '*' ? `(${show(u)})` : show(u));
      switch (t.op) {
        case '+':
          return t.args
            .map((a, i) => {
              const s = show(a);
              if (i > 0 && s.startsWith('-')) return ` - ${s.slice(1)}`;
              return i > 0 ? ` + ${s}` : s;
            })
            .join('');
        case '*': {
          const [a, b] = t.args;
          if (a.kind === 'int' && a.value === -1n) return `-${p(b)}`;
          return `${p(a)}*${p(b)}`;
        }
        case 'ite':
          return `(${show(t.args[0])} ? ${show(t.args[1])} : ${show(t.args[2])})`;
        case 'select':
          return `${p(t.args[0])}[${show(t.args[1])}]`;
        case 'store':
          return `${p(t.args[0])}[${show(t.args[1])} := ${show(t.args[2])}]`;
        case 'const':
          return `[…: ${show(t.args[0])}]`;
        case 'and':
          return t.args.map(p).join(' && ');
        case 'or':
          return t.args.map(p).join(' || ');
        case 'not':
          return `!${p(t.args[0])}`;
        case 'cdiv':
        case 'crem':
          // Same precedence as *, left-associative: only a product may stand bare on the left.
          return `${p(t.args[0])} ${INFIX[t.op]} ${t.args[1].kind === 'app' ? `(${show(t.args[1])})` : show(t.args[1])}`;
        default:
          return showAtom(t) ?? `${show(t.args[0])} ${INFIX[t.op]} ${show(t.args[1])}`;
      }
    }
  }
}

/**
 * Normalised linear atoms read better solved for their primed variable
 * (`x' = x + 1` rather than `x - x' = -1`) and with positive leading terms.
 */
function showAtom(t: AppTerm): string | undefined {
  if ((t.op !== '=' && t.op !== '<=') || t.args[1].kind !== 'int') return undefined;
  const l = linearOf(t.args[0]);
  if (!l) return undefined;
  const rhs = t.args[1].value;
  if (t.op === '=') {
    const target = [...l.coeffs].find(([v, c]) => isPrimed(v) && (c === 1n || c === -1n));
    if (!target) return undefined;
    const [v, c] = target;
    // v = (rhs - rest) / c
    const coeffs = new Map<string, bigint>();
    for (const [u, d] of l.coeffs) if (u !== v) coeffs.set(u, -d * c);
    return `${v} = ${show(fromLinear({ coeffs, constant: rhs * c }))}`;
  }
  if ([...l.coeffs.values()].every((c) => c < 0n)) {
    const coeffs = new Map([...l.coeffs].map(([u, d]) => [u, -d] as const));
    return `${show(fromLinear({ coeffs, constant: 0n }))} >= ${-rhs}`;
  }
  return undefined;
}

/** SMT-LIB 2 symbol for a variable name (quoted when it is not a simple symbol). */
/** Names of SMT-LIB's and z3's own functions and keywords: a C variable so named (`select`) is quoted. */
const SMT_RESERVED = new Set(
  'select store div mod rem abs and or not xor ite distinct true false let forall exists to_real to_int is_int par as'.split(' '),
);

export function smtSymbol(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_.$]*$/.test(name) && !SMT_RESERVED.has(name) ? name : `|${name.replace(/[|\\]/g, '_')}|`;
}

/** SMT-LIB 2 name of a sort. */
export const smtSort = (s: Sort): string => (s === 'int' ? 'Int' : s === 'bool' ? 'Bool' : '(Array Int Int)');
/** SMT-LIB 2 sort of a variable by its name (a Horn parameter, a declaration): Int unless it is an array's. */
export const smtSortOfName = (name: string): string => smtSort(isArrayName(name) ? 'array' : 'int');

/** SMT-LIB 2 term; C division/remainder are encoded with truncation semantics. */
export function toSmt(t: Term): string {
  switch (t.kind) {
    case 'int':
      return t.value < 0n ? `(- ${-t.value})` : t.value.toString();
    case 'bool':
      return t.value ? 'true' : 'false';
    case 'var':
      return smtSymbol(t.name);
    case 'app': {
      const a = t.args.map(toSmt);
      switch (t.op) {
        case 'cdiv':
          return `(ite (>= ${a[0]} 0) (div ${a[0]} ${a[1]}) (- (div (- ${a[0]}) ${a[1]})))`;
        case 'crem':
          return `(ite (>= ${a[0]} 0) (mod ${a[0]} ${a[1]}) (- (mod (- ${a[0]}) ${a[1]})))`;
        case 'const':
          return `((as const ${smtSort('array')}) ${a[0]})`;
        default:
          return `(${t.op} ${a.join(' ')})`;
      }
    }
  }
}

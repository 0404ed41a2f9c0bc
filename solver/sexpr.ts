/**
 * Reading SMT-LIB 2 answers (models, Horn solutions, get-value) back into the
 * formula IR: an s-expression parser and a translator for the quantifier-free
 * linear-integer fragment with arrays z3 answers with (`let`, `!` annotations
 * included). SMT-LIB's Euclidean div/mod are not C's, so they are rejected rather
 * than guessed; so are quantifiers, lambdas and `as-array`, which the IR has no term
 * for. Every rejection is a SyntaxError, which callers take as "unknown".
 */
import {
  FALSE,
  TRUE,
  add,
  and,
  cdiv,
  constArray,
  crem,
  eq,
  evaluate,
  ge,
  gt,
  ite,
  le,
  lt,
  mkVar,
  mul,
  neg,
  not,
  num,
  or,
  select,
  smtSort,
  smtSymbol,
  store,
  sub,
  type Term,
  type Value,
} from './formula.js';

export type SExpr = string | SExpr[];

/** Parses every s-expression in `text`. */
export function parseSExprs(text: string): SExpr[] {
  const out: SExpr[] = [];
  const stack: SExpr[][] = [];
  let i = 0;
  const push = (x: SExpr): void => {
    if (stack.length) stack[stack.length - 1].push(x);
    else out.push(x);
  };
  while (i < text.length) {
    const c = text[i];
    if (c === '(') {
      stack.push([]);
      i++;
    } else if (c === ')') {
      const done = stack.pop();
      if (!done) throw new SyntaxError(`unbalanced ')' in solver output at ${i}`);
      push(done);
      i++;
    } else if (/\s/.test(c)) i++;
    else if (c === ';') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '|') {
      const end = text.indexOf('|', i + 1);
      if (end < 0) throw new SyntaxError('unterminated |symbol| in solver output');
      push(text.slice(i + 1, end));
      i = end + 1;
    } else if (c === '"') {
      let j = i + 1;
      while (j < text.length && !(text[j] === '"' && text[j + 1] !== '"')) j += text[j] === '"' ? 2 : 1;
      push(text.slice(i, j + 1));
      i = j + 1;
    } else {
      let j = i;
      while (j < text.length && !/[\s()|";]/.test(text[j])) j++;
      push(text.slice(i, j));
      i = j;
    }
  }
  if (stack.length) throw new SyntaxError('unbalanced "(" in solver output');
  return out;
}

/** Translates an SMT-LIB term; `names` maps bound symbols (parameters) to terms. */
export function sexprToTerm(e: SExpr, names: ReadonlyMap<string, Term> = new Map()): Term {
  if (typeof e === 'string') {
    if (e === 'true') return TRUE;
    if (e === 'false') return FALSE;
    if (/^\d+$/.test(e)) return num(BigInt(e));
    return names.get(e) ?? mkVar(e);
  }
  const [head, ...args] = e;
  const t = (x: SExpr): Term => sexprToTerm(x, names);
  // `((as const (Array Int Int)) v)`: the array with v everywhere.
  if (Array.isArray(head) && showSExpr(head) === `(as const ${smtSort('array')})` && args.length === 1) return constArray(t(args[0]));
  if (typeof head !== 'string') throw new SyntaxError(`unexpected term ${showSExpr(e).slice(0, 80)}`);
  switch (head) {
    case 'let': {
      const bound = new Map(names);
      for (const b of args[0] as SExpr[]) {
        const [n, v] = b as [string, SExpr];
        bound.set(n, t(v));
      }
      return sexprToTerm(args[1], bound);
    }
    case '!':
      return t(args[0]);
    case 'and':
      return and(...args.map(t));
    case 'or':
      return or(...args.map(t));
    case 'not':
      return not(t(args[0]));
    case '=>':
      return or(not(t(args[0])), t(args[1]));
    case 'ite':
      return ite(t(args[0]), t(args[1]), t(args[2]));
    case '=':
      return args.length === 2 ? eq(t(args[0]), t(args[1])) : and(...args.slice(1).map((a, i) => eq(t(args[i]), t(a))));
    case 'distinct':
      return not(eq(t(args[0]), t(args[1])));
    case '<=':
      return le(t(args[0]), t(args[1]));
    case '<':
      return lt(t(args[0]), t(args[1]));
    case '>=':
      return ge(t(args[0]), t(args[1]));
    case '>':
      return gt(t(args[0]), t(args[1]));
    case '+':
      return add(...args.map(t));
    case '-':
      return args.length === 1 ? neg(t(args[0])) : args.slice(1).reduce<Term>((acc, a) => sub(acc, t(a)), t(args[0]));
    case '*':
      return args.map(t).reduce((a, b) => mul(a, b));
    case 'mod':
      return euclideanMod(t(args[0]), t(args[1]));
    case 'select':
      return select(t(args[0]), t(args[1]));
    case 'store':
      return store(t(args[0]), t(args[1]), t(args[2]));
    case 'exists':
    case 'forall':
    case 'lambda':
      throw new SyntaxError(`unsupported: a quantified term ('${head}') in solver output`);
    case '_':
      // `(_ as-array f)`: an array given by a function's definition elsewhere.
      throw new SyntaxError(`unsupported: '${showSExpr(e).slice(0, 80)}' in solver output`);
    case 'div': {
      // Exact: a − mod(a, k) is a multiple of k, so C's truncation changes nothing.
      const [a, k] = [t(args[0]), t(args[1])];
      return cdiv(sub(a, euclideanMod(a, k)), k);
    }
    default:
      throw new SyntaxError(`unsupported function '${head}' in solver output`);
  }
}

/**
 * A closed term of a model (`get-value`, a model's eval) as a concrete value: an
 * integer, or an array written as stores over a constant array.
 */
export function sexprToValue(e: SExpr): Value {
  const v = evaluate(sexprToTerm(e), (n) => {
    throw new SyntaxError(`unexpected symbol '${n}' in a value from the solver`);
  });
  if (typeof v === 'boolean') throw new SyntaxError(`a Boolean where a value was expected from the solver: ${showSExpr(e).slice(0, 80)}`);
  return v;
}

/**
 * `∃X. A = store(…store(X, i1, v1)…, ik, vk) ∧ φ` with X an array met nowhere else:
 * Spacer's lemmas over arrays say "A is some array with these stores", which z3's `qe`
 * answers with new quantified integers. Exactly that, without a quantifier: A[ij] = vj
 * for each store that no later store's index overwrites. Every `exists` over arrays
 * only that has this form is replaced; the others stay (for `qe`, or the caller's UNKNOWN).
 */
export function withoutArrayExists(e: SExpr): SExpr {
  if (typeof e === 'string') return e;
  const inner = e.map(withoutArrayExists);
  if (inner[0] !== 'exists' || !Array.isArray(inner[1])) return inner;
  const binders = inner[1];
  if (!binders.every((b) => Array.isArray(b) && typeof b[0] === 'string' && showSExpr(b[1]) === smtSort('array'))) return inner;
  let left = binders.map((b) => (b as string[])[0]);
  let conjuncts = conjunctsOf(withoutLets(inner[2]));
  const ints: string[] = [];
  // One binder at a time, any order: eliminating one may leave another with a single use.
  for (let progress = true; progress && left.length; ) {
    progress = false;
    for (const x of left) {
      const facts = storeFacts(conjuncts, x, () => {
        const y = `${x}!read`;
        ints.push(y);
        return y;
      });
      if (!facts) continue;
      conjuncts = facts;
      left = left.filter((y) => y !== x);
      progress = true;
    }
  }
  if (left.length) return inner;
  const body: SExpr = ['and', ...conjuncts];
  return ints.length ? ['exists', ints.map((y) => [y, 'Int']), body] : body;
}

/**
 * The conjuncts with array X eliminated, if X is used once, in `A = store(…X…)`; else
 * undefined. A single store may read X at its own index (`A = store(X, i, X[i] + 1)`):
 * that read becomes a fresh integer (`fresh`), as X[i] may be any value: ∃y. A[i] = y + 1.
 */
function storeFacts(conjuncts: readonly SExpr[], x: string, fresh: () => string): SExpr[] | undefined {
  const uses = conjuncts.filter((c) => mentions(c, x));
  const use = uses[0];
  if (uses.length !== 1 || !Array.isArray(use) || use[0] !== '=' || use.length !== 3) return undefined;
  const [chain, whole] = mentions(use[1], x) ? [use[1], use[2]] : [use[2], use[1]];
  if (mentions(whole, x)) return undefined;
  // The stores on X, innermost first.
  const stores: [SExpr, SExpr][] = [];
  let at = chain;
  while (at !== x) {
    if (!Array.isArray(at) || at[0] !== 'store' || at.length !== 4 || mentions(at[2], x)) return undefined;
    stores.unshift([at[2], at[3]]);
    at = at[1];
  }
  const same = (a: SExpr, b: SExpr): boolean => showSExpr(a) === showSExpr(b);
  if (stores.length === 1 && mentions(stores[0][1], x)) {
    const [i, v] = stores[0];
    const y = fresh();
    const read = showSExpr(['select', x, i]);
    const replaced = (e: SExpr): SExpr => (typeof e === 'string' ? e : showSExpr(e) === read ? y : e.map(replaced));
    stores[0] = [i, replaced(v)];
  }
  if (stores.some(([, v]) => mentions(v, x))) return undefined;
  const facts = stores.flatMap(([i, v], j): SExpr[] => {
    // whole[i] itself, where whole is a store at i (the chains Spacer writes on both sides).
    const value = Array.isArray(whole) && whole[0] === 'store' && same(whole[2], i) ? whole[3] : ['select', whole, i];
    if (same(value, v)) return [];
    const later = stores.slice(j + 1).map(([k]): SExpr => ['distinct', i, k]);
    const fact: SExpr = ['=', value, v];
    return [later.length ? ['=>', ['and', ...later], fact] : fact];
  });
  return conjuncts.flatMap((c) => (c === use ? facts : [c]));
}

/** The term with every `let` replaced by its bindings (parallel, as SMT-LIB's). */
function withoutLets(e: SExpr, bound: ReadonlyMap<string, SExpr> = new Map()): SExpr {
  if (typeof e === 'string') return bound.get(e) ?? e;
  if (e[0] === 'let' && Array.isArray(e[1])) {
    const inner = new Map(bound);
    for (const b of e[1]) if (Array.isArray(b) && typeof b[0] === 'string') inner.set(b[0], withoutLets(b[1], bound));
    return withoutLets(e[2], inner);
  }
  return e.map((x) => withoutLets(x, bound));
}

function conjunctsOf(e: SExpr): SExpr[] {
  if (Array.isArray(e) && e[0] === '!') return conjunctsOf(e[1]);
  return Array.isArray(e) && e[0] === 'and' ? e.slice(1).flatMap(conjunctsOf) : [e];
}

const mentions = (e: SExpr, x: string): boolean => (typeof e === 'string' ? e === x : e.some((y) => mentions(y, x)));

/**
 * SMT-LIB's `mod` is Euclidean (0 ≤ mod(a, k) < |k|), the IR's `crem` is C's (the sign
 * of the dividend). By a constant k ≠ 0: mod(a, k) = crem(crem(a, |k|) + |k|, |k|), as
 * crem(a, |k|) lies strictly between −|k| and |k|. A divisor that is not a constant
 * stays outside the IR.
 */
function euclideanMod(a: Term, k: Term): Term {
  if (k.kind !== 'int' || k.value === 0n) throw new SyntaxError(`unsupported: 'mod' or 'div' by ${k.kind === 'int' ? 'zero' : 'a non-constant'} in solver output`);
  const m = num(k.value < 0n ? -k.value : k.value);
  return crem(add(crem(a, m), m), m);
}

/** Prints an S-expression back as SMT-LIB text. */
export function showSExpr(e: SExpr): string {
  return typeof e === 'string' ? e : `(${e.map(showSExpr).join(' ')})`;
}

/**
 * A term read from the solver, printed back as SMT-LIB: the parser drops the quotes of
 * `|select|` or `|a[0]|`, so every symbol that is not an operator (the head of a list)
 * is quoted again where SMT-LIB needs it, binders of quantifiers and `let` included.
 */
export function showSmt(e: SExpr): string {
  if (typeof e === 'string') return /^(-?\d+|true|false)$|^[:"]/.test(e) ? e : smtSymbol(e);
  const [head, ...args] = e;
  // An indexed identifier (`(_ as-array k!0)`) names no variable.
  if (head === '_') return showSExpr(e);
  if ((head === 'exists' || head === 'forall' || head === 'let') && Array.isArray(args[0])) {
    const binders = args[0].map((b) => (Array.isArray(b) ? `(${smtSymbol(String(b[0]))} ${b.slice(1).map(head === 'let' ? showSmt : showSExpr).join(' ')})` : showSmt(b)));
    return `(${head} (${binders.join(' ')}) ${args.slice(1).map(showSmt).join(' ')})`;
  }
  return `(${[typeof head === 'string' ? head : showSmt(head), ...args.map(showSmt)].join(' ')})`;
}

/** A relation's definition in a Horn answer: `(R params) = body`. */
export interface RelationDef {
  readonly params: readonly string[];
  readonly body: SExpr;
}

/**
 * Spacer may define one relation through another (`R(x) = (and (S x) …)`). Every
 * application of a relation in a body is replaced by that relation's own body, its
 * parameters bound by a `let` (parallel, so no capture); a relation without a
 * definition is false. Each result then mentions only its own parameters.
 */
export function inlineRelations(defs: ReadonlyMap<string, RelationDef>, relations: ReadonlySet<string>): Map<string, SExpr> {
  const done = new Map<string, SExpr>();
  const active = new Set<string>();
  const resolve = (name: string): SExpr => {
    const hit = done.get(name);
    if (hit !== undefined) return hit;
    const d = defs.get(name);
    if (!d) return 'false';
    if (active.has(name)) throw new SyntaxError(`relation '${name}' is defined through itself in the solver's answer`);
    active.add(name);
    const body = expand(d.body);
    active.delete(name);
    done.set(name, body);
    return body;
  };
  const expand = (e: SExpr): SExpr => {
    if (typeof e === 'string') return relations.has(e) ? resolve(e) : e;
    const [head, ...args] = e;
    if (typeof head === 'string' && relations.has(head)) {
      const body = resolve(head);
      const params = defs.get(head)?.params ?? [];
      return params.length ? ['let', params.map((p, i) => [p, expand(args[i])]), body] : body;
    }
    return e.map(expand);
  };
  for (const name of defs.keys()) resolve(name);
  return done;
}

/**
 * Linear temporal logic over atoms: the formulas of `rely verify --ltl`,
 * their parser with located errors, negation normal form, and their meaning on an
 * ultimately periodic word u·v^ω (a lasso) — the reference the Büchi automata of
 * buchi.ts are tested against.
 *
 * Syntax: `G`, `F`, `X` (prefix), `U`, `R` (infix, right-associative, binding tighter
 * than `&&`), `!`, `&&`, `||`, `->` (right-associative, loosest), `true`, `false`,
 * parentheses, and atoms. An atom is a C condition over program variables
 * (`x == 0`, `turn != 1 && flag`… as far as it has no LTL connective at its top) or
 * `at(thread, label)`; its text is kept as written, for the frontend to read in the
 * program's scope. The single capitals G F X U R are operators, never C names.
 */

export type Ltl =
  | { readonly op: 'true' | 'false' }
  | { readonly op: 'atom'; readonly text: string; readonly col: number }
  | { readonly op: '!' | 'X' | 'F' | 'G'; readonly arg: Ltl }
  | { readonly op: '&&' | '||' | '->' | 'U' | 'R'; readonly left: Ltl; readonly right: Ltl };

/** A malformed formula: the message and its 1-based column in the formula. */
export class LtlSyntaxError extends Error {
  constructor(
    readonly col: number,
    message: string,
  ) {
    super(message);
  }
}

interface Token {
  readonly text: string;
  readonly col: number;
}

const CONNECTIVES = new Set(['&&', '||', '->', '!', '(', ')', 'G', 'F', 'X', 'U', 'R', 'true', 'false']);
/** A token that is a whole operand (a name or a number): two in a row are not C. */
const OPERAND = /^[A-Za-z_0-9]/;
/** C operators after which a `(` belongs to the atom (a C sub-expression), not to the formula. */
const C_OPERATORS = new Set(['==', '!=', '<', '<=', '>', '>=', '+', '-', '*', '/', '%', ',']);

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  const re = /\s*(->|&&|\|\||==|!=|<=|>=|[A-Za-z_][A-Za-z0-9_#.]*|\d+|[()!<>+\-*/%,])/y;
  let at = 0;
  while (at < src.length) {
    if (/^\s*$/.test(src.slice(at))) break;
    re.lastIndex = at;
    const m = re.exec(src);
    if (!m) throw new LtlSyntaxError(at + 1 + (src.slice(at).length - src.slice(at).trimStart().length), `unexpected character '${src.slice(at).trimStart()[0]}'`);
    out.push({ text: m[1], col: m.index + m[0].length - m[1].length + 1 });
    at = re.lastIndex;
  }
  return out;
}

/** Parses an LTL formula; throws LtlSyntaxError with the column of the problem. */
export function parseLtl(src: string): Ltl {
  const toks = tokenize(src);
  let k = 0;
  const peek = (): Token | undefined => toks[k];
  const end = (): number => src.length + 1;
  const expect = (text: string): void => {
    const t = peek();
    if (t?.text !== text) throw new LtlSyntaxError(t?.col ?? end(), `expected '${text}'${t ? ` before '${t.text}'` : ' at the end'}`);
    k++;
  };
  const implication = (): Ltl => {
    const left = disjunction();
    if (peek()?.text !== '->') return left;
    k++;
    return { op: '->', left, right: implication() };
  };
  const disjunction = (): Ltl => {
    let left = conjunction();
    while (peek()?.text === '||') (k++, (left = { op: '||', left, right: conjunction() }));
    return left;
  };
  const conjunction = (): Ltl => {
    let left = binary();
    while (peek()?.text === '&&') (k++, (left = { op: '&&', left, right: binary() }));
    return left;
  };
  const binary = (): Ltl => {
    const left = unary();
    const t = peek()?.text;
    if (t !== 'U' && t !== 'R') return left;
    k++;
    return { op: t, left, right: binary() };
  };
  const unary = (): Ltl => {
    const t = peek();
    if (!t) throw new LtlSyntaxError(end(), 'the formula ends where a formula was expected');
    if (t.text === '!' || t.text === 'X' || t.text === 'F' || t.text === 'G') {
      k++;
      return { op: t.text, arg: unary() };
    }
    if (t.text === '(') {
      k++;
      const f = implication();
      expect(')');
      return f;
    }
    if (t.text === 'true' || t.text === 'false') {
      k++;
      return { op: t.text };
    }
    return atom();
  };
  // An atom: tokens up to an LTL connective at its own depth; a `(` inside it opens a C sub-expression.
  const atom = (): Ltl => {
    const first = peek()!;
    if (CONNECTIVES.has(first.text)) throw new LtlSyntaxError(first.col, `unexpected '${first.text}'`);
    let depth = 0;
    let last = first;
    for (let prev: Token | undefined; k < toks.length; prev = toks[k], k++) {
      const t = toks[k];
      if (t.text === '(' && (depth > 0 || (prev && (C_OPERATORS.has(prev.text) || /^[A-Za-z_]/.test(prev.text))))) depth++;
      else if (t.text === ')' && depth > 0) depth--;
      else if (depth === 0 && CONNECTIVES.has(t.text) && t !== first) break;
      else if (prev && OPERAND.test(prev.text) && OPERAND.test(t.text)) throw new LtlSyntaxError(t.col, `expected an operator or a connective before '${t.text}'`);
      last = t;
    }
    if (depth > 0) throw new LtlSyntaxError(end(), "expected ')' at the end");
    return { op: 'atom', text: src.slice(first.col - 1, last.col - 1 + last.text.length), col: first.col };
  };
  const f = implication();
  if (k < toks.length) throw new LtlSyntaxError(toks[k].col, `unexpected '${toks[k].text}'`);
  return f;
}

/** The formula as text, fully parenthesized (atoms as written). */
export function showLtl(f: Ltl): string {
  switch (f.op) {
    case 'true':
    case 'false':
      return f.op;
    case 'atom':
      return f.text;
    case '!':
    case 'X':
    case 'F':
    case 'G':
      return `${f.op} ${showLtl(f.arg)}`;
    default:
      return `(${showLtl(f.left)} ${f.op} ${showLtl(f.right)})`;
  }
}

/** A formula in negation normal form: negation only on atoms; only X, U, R as temporal operators. */
export type Nnf =
  | { readonly op: 'true' | 'false' }
  | { readonly op: 'lit'; readonly atom: string; readonly positive: boolean }
  | { readonly op: 'X'; readonly arg: Nnf }
  | { readonly op: '&&' | '||' | 'U' | 'R'; readonly left: Nnf; readonly right: Nnf };

/** `f` (negated when `negate`) in negation normal form: F a = true U a, G a = false R a. */
export function toNnf(f: Ltl, negate = false): Nnf {
  const T: Nnf = { op: 'true' };
  const Fl: Nnf = { op: 'false' };
  switch (f.op) {
    case 'true':
      return negate ? Fl : T;
    case 'false':
      return negate ? T : Fl;
    case 'atom':
      return { op: 'lit', atom: f.text, positive: !negate };
    case '!':
      return toNnf(f.arg, !negate);
    case 'X':
      return { op: 'X', arg: toNnf(f.arg, negate) };
    case 'F':
      return negate ? { op: 'R', left: Fl, right: toNnf(f.arg, true) } : { op: 'U', left: T, right: toNnf(f.arg) };
    case 'G':
      return negate ? { op: 'U', left: T, right: toNnf(f.arg, true) } : { op: 'R', left: Fl, right: toNnf(f.arg) };
    case '&&':
      return { op: negate ? '||' : '&&', left: toNnf(f.left, negate), right: toNnf(f.right, negate) };
    case '||':
      return { op: negate ? '&&' : '||', left: toNnf(f.left, negate), right: toNnf(f.right, negate) };
    case '->':
      return { op: negate ? '&&' : '||', left: toNnf(f.left, !negate), right: toNnf(f.right, negate) };
    case 'U':
      return { op: negate ? 'R' : 'U', left: toNnf(f.left, negate), right: toNnf(f.right, negate) };
    case 'R':
      return { op: negate ? 'U' : 'R', left: toNnf(f.left, negate), right: toNnf(f.right, negate) };
  }
}

/** An ultimately periodic word u·v^ω: at each position, the set of atoms that hold (v non-empty). */
export interface Lasso {
  readonly stem: readonly ReadonlySet<string>[];
  readonly cycle: readonly ReadonlySet<string>[];
}

/**
 * Whether the lasso satisfies the formula (at position 0), by the standard fixpoints
 * over the lasso's finitely many distinct positions: U as a least, R as a greatest
 * fixpoint, each computed by iterating around the cycle.
 */
export function holdsOnLasso(f: Nnf, w: Lasso): boolean {
  const n = w.stem.length + w.cycle.length;
  const letter = (i: number): ReadonlySet<string> => (i < w.stem.length ? w.stem[i] : w.cycle[i - w.stem.length]);
  const next = (i: number): number => (i + 1 < n ? i + 1 : w.stem.length);
  const memo = new Map<Nnf, boolean[]>();
  const val = (g: Nnf): boolean[] => {
    let v = memo.get(g);
    if (v) return v;
    const idx = [...Array(n).keys()];
    switch (g.op) {
      case 'true':
      case 'false':
        v = idx.map(() => g.op === 'true');
        break;
      case 'lit':
        v = idx.map((i) => letter(i).has(g.atom) === g.positive);
        break;
      case 'X': {
        const a = val(g.arg);
        v = idx.map((i) => a[next(i)]);
        break;
      }
      case '&&':
      case '||': {
        const [a, b] = [val(g.left), val(g.right)];
        v = idx.map((i) => (g.op === '&&' ? a[i] && b[i] : a[i] || b[i]));
        break;
      }
      case 'U':
      case 'R': {
        const [a, b] = [val(g.left), val(g.right)];
        // U: b ∨ (a ∧ X(a U b)), least; R: b ∧ (a ∨ X(a R b)), greatest. n rounds reach the fixpoint.
        const least = g.op === 'U';
        v = idx.map(() => !least);
        for (let round = 0; round <= n; round++)
          for (let i = n - 1; i >= 0; i--) v[i] = least ? b[i] || (a[i] && v[next(i)]) : b[i] && (a[i] || v[next(i)]);
        break;
      }
    }
    memo.set(g, v);
    return v;
  };
  return val(f)[0];
}

/**
 * Where the statements of a function body begin and end, found on tokens, so that the
 * parser can match a long body one statement at a time: ohm-js keeps a memo entry for
 * every rule tried at every position of the text it matches, and one match over a body
 * of 10,000 lines took 700 MB. Matched statement by statement, the memory is that of
 * the largest statement, and the time linear in the body's length.
 *
 * The scan follows the statement syntax (if/else, loops, do…while, labels) iteratively;
 * where it finds something it does not expect it gives up (undefined), and the caller
 * matches the whole function as before, with the parser's own error messages.
 */

/** A statement's tokens, first to last (inclusive). */
export interface TokenRange {
  readonly first: number;
  readonly last: number;
}

/**
 * A block item; an `if (…) … else if (…) … else …` chain also as its arms, each
 * `if (…) …` without its else, and the final else's statement: the chain nests one
 * level per arm, and is matched arm by arm for the reason the body is.
 */
export interface BodyItem extends TokenRange {
  readonly chain?: { readonly arms: readonly TokenRange[]; readonly orElse?: TokenRange };
}

const CONTROL = new Set(['if', 'while', 'for', 'switch']);
const OPENERS: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
const isIdent = (t: string | undefined): boolean => t !== undefined && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(t);

/** For each bracket in toks[first..last], the index of its partner; undefined when they do not match. */
export function partners(toks: readonly string[], first: number, last: number): Map<number, number> | undefined {
  const match = new Map<number, number>();
  const open: number[] = [];
  for (let i = first; i <= last; i++) {
    const t = toks[i];
    if (t in OPENERS) open.push(i);
    else if (t === ')' || t === ']' || t === '}') {
      const o = open.pop();
      if (o === undefined || OPENERS[toks[o]] !== t) return undefined;
      match.set(o, i).set(i, o);
    }
  }
  return open.length ? undefined : match;
}

/**
 * The block items of the block `{ … }` at toks[open..close] (match: partners()): each
 * item's token range. Undefined when the scan cannot tell (the caller then parses the
 * block whole).
 */
export function bodyItems(toks: readonly string[], match: ReadonlyMap<number, number>, open: number, close: number): BodyItem[] | undefined {
  if (match.get(open) !== close) return undefined;
  const items: BodyItem[] = [];
  for (let i = open + 1; i < close; ) {
    const last = statementEnd(toks, match, i, close);
    if (last === undefined) return undefined;
    const chain = toks[i] === 'if' ? ifChain(toks, match, i, last, close) : undefined;
    items.push(chain && chain.arms.length > 1 ? { first: i, last, chain } : { first: i, last });
    i = last + 1;
  }
  return items;
}

/** The arms of the `if` statement toks[first..last] and its final else (see BodyItem). */
function ifChain(toks: readonly string[], match: ReadonlyMap<number, number>, first: number, last: number, close: number): BodyItem['chain'] {
  const arms: TokenRange[] = [];
  let i = first;
  while (toks[i] === 'if') {
    const end = statementEnd(toks, match, match.get(i + 1)! + 1, close);
    if (end === undefined) return undefined;
    arms.push({ first: i, last: end });
    if (end === last) return { arms };
    i = end + 2; // past the `else`
  }
  return { arms, orElse: { first: i, last } };
}

/**
 * The last token of the statement (or declaration) starting at toks[i], before `close`.
 * Nested statements are followed in a loop: the heads seen (`if (…)`, `do`) wait on a
 * stack for their `else` or `while (…);` once the innermost statement has ended.
 */
function statementEnd(toks: readonly string[], match: ReadonlyMap<number, number>, i: number, close: number): number | undefined {
  const waiting: ('if' | 'do')[] = [];
  for (;;) {
    const head = statementHead(toks, match, i);
    if (head === undefined) return undefined;
    if (head.wait) waiting.push(head.wait);
    if (head.next !== undefined) {
      i = head.next;
      continue;
    }
    let end = simpleEnd(toks, match, i, close);
    if (end === undefined) return undefined;
    let resumed = false;
    while (waiting.length && !resumed) {
      const w = waiting.pop()!;
      if (w === 'if' && toks[end + 1] === 'else') {
        i = end + 2;
        resumed = true;
      } else if (w === 'do') {
        const paren: number = end + 2;
        if (toks[end + 1] !== 'while' || toks[paren] !== '(' || toks[match.get(paren)! + 1] !== ';') return undefined;
        end = match.get(paren)! + 1;
      }
    }
    if (!resumed) return end < close ? end : undefined;
  }
}

/**
 * A statement's head that another statement follows: `if (…)`, `while (…)`, `for (…)`,
 * `switch (…)`, `do`, or a label. `next` is where the inner statement starts (undefined
 * for a statement without a head); `wait`, what must follow that statement's end.
 */
function statementHead(
  toks: readonly string[],
  match: ReadonlyMap<number, number>,
  i: number,
): { next?: number; wait?: 'if' | 'do' } | undefined {
  const t = toks[i];
  if (CONTROL.has(t)) {
    if (toks[i + 1] !== '(') return undefined;
    return { next: match.get(i + 1)! + 1, wait: t === 'if' ? 'if' : undefined };
  }
  if (t === 'do') return { next: i + 1, wait: 'do' };
  if (t === 'case') {
    const colon = caseColon(toks, match, i + 1);
    return colon === undefined ? undefined : { next: colon + 1 };
  }
  if (t === 'default') return toks[i + 1] === ':' ? { next: i + 2 } : undefined;
  if (t === 'else') return undefined; // an else without its if: let the parser say
  if (isIdent(t) && toks[i + 1] === ':' && toks[i + 2] !== ':' && toks[i + 2] !== '}') return { next: i + 2 };
  return {};
}

/** The `:` ending the label `case e:` whose value starts at toks[i] (one inside `a ? b : c` belongs to its `?`). */
function caseColon(toks: readonly string[], match: ReadonlyMap<number, number>, i: number): number | undefined {
  let questions = 0;
  for (let k = i; k < toks.length; k++) {
    const t = toks[k];
    if (t in OPENERS) k = match.get(k)!;
    else if (t === '?') questions++;
    else if (t === ':' && questions-- === 0) return k;
    else if (t === ';' || t === '}') return undefined;
  }
  return undefined;
}

/**
 * The `{` of the block that statement r ends with, when its items can be matched one by
 * one: r is a block, or `while`, `for`, `switch` or an else-less `if` whose body is one.
 */
export function innerBlock(toks: readonly string[], match: ReadonlyMap<number, number>, r: TokenRange): number | undefined {
  const open = toks[r.first] === '{' ? r.first : CONTROL.has(toks[r.first]) && toks[r.first + 1] === '(' ? match.get(r.first + 1)! + 1 : undefined;
  return open !== undefined && toks[open] === '{' && match.get(open) === r.last ? open : undefined;
}

/**
 * The heads of statement r that nest the next statement without braces (`while (…)`,
 * `for (…)`, an else-less `if (…)`), outermost first, and the statement inside the last
 * of them. A statement nested thousands deep this way was one match of some 0.5 ms of
 * CPU per level that could not look at the clock (fuzz seed 1 case 8); head by head it
 * is many small ones.
 */
export function unbracedHeads(toks: readonly string[], match: ReadonlyMap<number, number>, r: TokenRange): { heads: number[]; inner: TokenRange } {
  const heads: number[] = [];
  let i = r.first;
  while ((toks[i] === 'while' || toks[i] === 'for' || toks[i] === 'if') && toks[i + 1] === '(') {
    const next = match.get(i + 1)! + 1;
    if (toks[next] === '{') break;
    heads.push(i);
    i = next;
  }
  // A statement inside that ends before r does is followed by an else, which belongs to one
  // of the ifs: the heads from the first if on are then matched whole with it. (Without an
  // if among the heads the statement inside ends where r does: no scan.)
  const firstIf = heads.findIndex((h) => toks[h] === 'if');
  if (firstIf >= 0 && statementEnd(toks, match, i, r.last + 1) !== r.last) {
    i = heads[firstIf];
    heads.length = firstIf;
  }
  return { heads, inner: { first: i, last: r.last } };
}

/** The last token of a statement without a head: a block, or anything up to its `;`. */
function simpleEnd(toks: readonly string[], match: ReadonlyMap<number, number>, i: number, close: number): number | undefined {
  if (toks[i] === '{') return match.get(i);
  for (let k = i; k < close; k++) {
    if (toks[k] === ';') return k;
    if (toks[k] in OPENERS) k = match.get(k)!;
  }
  return undefined;
}

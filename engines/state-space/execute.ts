/**
 * Concrete execution of IR formulas: a conjunction over V (known values) and
 * V' ∪ aux (unknowns) is turned into a plan that solves equalities for one unknown
 * at a time and enumerates the unknowns no equality fixes, checking every atom as
 * soon as its variables are known. This executes exactly the formulas the
 * symbolic engines see, which is what makes the explorer an oracle for them.
 */
import { conjuncts, isPrimed, linearOf, unprimed, varsOf, type Term } from '../../solver/formula.js';
import { compile, type Compiled, type Env } from '../../core/compile.js';
import { boundOf, interval } from '../../solver/bounds.js';

type Op =
  | { k: 'solve'; slot: number; value: Compiled }
  | { k: 'enum'; slot: number; lo: bigint; hi: bigint; clipped: boolean }
  | { k: 'check'; test: Compiled };

export interface Plan {
  readonly ops: readonly Op[];
  /** Some unknown is enumerated over the nondet range rather than fixed by the formula. */
  readonly usesRange: boolean;
}

/**
 * Plans the evaluation of `formula`. `known` names are given; every other variable
 * in it, and every name in `alsoUnknown`, is an unknown to determine.
 */
export function plan(
  formula: Term,
  known: (name: string) => boolean,
  slot: (name: string) => number,
  range: readonly [bigint, bigint],
  alsoUnknown: readonly string[] = [],
  /** Variables only compared with constants (value-classes.ts): the interval around their thresholds, which decides for every value. */
  classes: ReadonlyMap<string, readonly [bigint, bigint]> = new Map(),
): Plan {
  const atoms = conjuncts(formula);
  const pending = atoms.map((a) => ({ a, vars: [...varsOf(a)], done: false }));
  // Variables the formula does not mention are unconstrained, not unchanged.
  const unknown = new Set<string>(alsoUnknown);
  const declared = new Set(alsoUnknown);
  for (const p of pending) for (const v of p.vars) if (!known(v)) unknown.add(v);
  const ops: Op[] = [];
  let usesRange = false;
  const flushChecks = (): void => {
    for (const p of pending)
      if (!p.done && p.vars.every((v) => !unknown.has(v))) {
        p.done = true;
        ops.push({ k: 'check', test: compile(p.a, slot) });
      }
  };
  flushChecks();
  while (unknown.size) {
    const solved = solveOne(pending, unknown, slot);
    if (solved) {
      ops.push(solved.op);
      unknown.delete(solved.v);
    } else {
      // Enumerate the unknown with the tightest single-variable bounds.
      const v = [...unknown].sort()[0];
      const [lo, hi] = interval(pending.flatMap((p) => boundOf(p.a, v) ?? []));
      // A helper value that is not kept and only meets single-variable bounds (a nondet
      // value that just picks a branch) needs one witness, not every value.
      const isAux = !known(v) && !isPrimed(v) && !declared.has(v);
      if (isAux && pending.every((p) => p.done || !p.vars.includes(v) || p.vars.length === 1)) {
        const w = lo ?? hi ?? 0n;
        ops.push({ k: 'enum', slot: slot(v), lo: w, hi: lo !== undefined && hi !== undefined && lo > hi ? w - 1n : w, clipped: false });
        unknown.delete(v);
        flushChecks();
        continue;
      }
      // Exact when the formula bounds the unknown to at most EXACT_SPAN values (or the
      // range's width, if wider); else clipped to the range.
      const exact = lo !== undefined && hi !== undefined && hi - lo < maxB(EXACT_SPAN, range[1] - range[0] + 1n);
      const around = exact ? undefined : classes.get(unprimed(v));
      if (around && around[1] - around[0] < EXACT_SPAN) {
        // Beyond the interval a value is in the class of its nearer end, so the interval cut to the formula's bounds stands for them all (or the one bound, where the cut is empty).
        const from = lo !== undefined && lo > around[1] ? lo : maxB(lo ?? around[0], around[0]);
        const to = hi !== undefined && hi < around[0] ? hi : minB(hi ?? around[1], around[1]);
        ops.push({ k: 'enum', slot: slot(v), lo: from, hi: to, clipped: false });
        unknown.delete(v);
        flushChecks();
        continue;
      }
      usesRange ||= !exact;
      ops.push({
        k: 'enum',
        slot: slot(v),
        lo: exact ? lo : maxB(lo ?? range[0], range[0]),
        hi: exact ? hi : minB(hi ?? range[1], range[1]),
        clipped: !exact,
      });
      unknown.delete(v);
    }
    flushChecks();
  }
  return { ops, usesRange };
}

/**
 * A choice the formula bounds to at most this many values is enumerated in full, not
 * clipped to the nondet range: `assume(1 <= x && x <= 8)` is 8 exact values, where a
 * range of -2..2 would make every answer "bounded" and prove nothing.
 */
const EXACT_SPAN = 256n;

const maxB = (a: bigint, b: bigint): bigint => (a > b ? a : b);
const minB = (a: bigint, b: bigint): bigint => (a < b ? a : b);

/** Finds an equality atom with exactly one unknown that has coefficient ±1 (or stands alone). */
function solveOne(
  pending: { a: Term; vars: string[]; done: boolean }[],
  unknown: Set<string>,
  slot: (name: string) => number,
): { v: string; op: Op } | undefined {
  for (const p of pending) {
    if (p.done || p.a.kind !== 'app' || p.a.op !== '=') continue;
    const open = p.vars.filter((v) => unknown.has(v));
    if (open.length !== 1) continue;
    const v = open[0];
    const [lhs, rhs] = p.a.args;
    const l = rhs.kind === 'int' ? linearOf(lhs) : null;
    if (l) {
      const c = l.coeffs.get(v);
      if (c !== 1n && c !== -1n) continue;
      const rest = [...l.coeffs].filter(([u]) => u !== v).map(([u, d]) => [slot(u), d] as const);
      const k = (rhs as { value: bigint }).value;
      const s = slot(v);
      // c*v + Σ d*u = k  ⇒  v = (k - Σ d*u) / c
      return { v, op: { k: 'solve', slot: s, value: (env) => c * (k - rest.reduce((acc, [i, d]) => acc + d * (env[i] as bigint), 0n)) } };
    }
    // Non-linear `v = e` with e known.
    if (lhs.kind === 'var' && lhs.name === v) return { v, op: { k: 'solve', slot: slot(v), value: compile(rhs, slot) } };
    if (rhs.kind === 'var' && rhs.name === v) return { v, op: { k: 'solve', slot: slot(v), value: compile(lhs, slot) } };
  }
  return undefined;
}

/** Bounds on `v` from atoms `c*v <= k` and `c*v = k` that mention only v. */
/**
 * Runs a plan on `env` (known slots filled), calling `found` for every solution.
 * Returns true when a choice was enumerated over the clipped nondet range.
 */
export function run(p: Plan, env: Env, found: (env: Env) => void): boolean {
  const ops = p.ops;
  let clipped = false;
  const go = (i: number): void => {
    for (; i < ops.length; i++) {
      const op = ops[i];
      if (op.k === 'check') {
        if (!op.test(env)) return;
      } else if (op.k === 'solve') env[op.slot] = op.value(env) as bigint;
      else {
        clipped ||= op.clipped;
        for (let x = op.lo; x <= op.hi; x++) {
          env[op.slot] = x;
          go(i + 1);
        }
        return;
      }
    }
    found(env);
  };
  go(0);
  return clipped;
}

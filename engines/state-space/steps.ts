/**
 * A thread's transitions compiled for the explicit engines: each runs on a vector of
 * values laid out by a `Layout` (the whole program's variables for the explorer, one
 * thread's scope for the thread-modular engine), through execute.ts's plans, so every
 * engine executes the very formulas the symbolic engines see.
 */
import { and, eq, isArrayName, isPrimed, mkVar, num, primed, unprimed, varsOf } from '../../solver/formula.js';
import { unsupported } from '../../program/diagnostics.js';
import type { Budget } from '../../core/budget.js';
import type { Program, Thread, Transition } from '../../program/program.js';
import { deadAtEntry, withDeadChoicesFixed } from '../../program/dead-locals.js';
import { plan, run, type Plan } from './execute.js';
import { comparedWithConstants } from './value-classes.js';

/** Slots of an environment `[V | V' | aux…]` over the variables `names`. */
export class Layout {
  readonly index: Map<string, number>;
  private readonly auxSlots = new Map<string, number>();

  constructor(readonly names: readonly string[]) {
    this.index = new Map(names.map((v, i) => [v, i]));
  }

  readonly slot = (name: string): number => {
    const n = this.names.length;
    if (isPrimed(name)) return n + this.index.get(unprimed(name))!;
    const i = this.index.get(name);
    if (i !== undefined) return i;
    let a = this.auxSlots.get(name);
    if (a === undefined) {
      a = 2 * n + this.auxSlots.size;
      this.auxSlots.set(name, a);
    }
    return a;
  };

  readonly known = (v: string): boolean => !isPrimed(v) && this.index.has(v);
}

export interface Step {
  readonly t: Transition;
  readonly plan: Plan;
  /** Slots of the thread's scope: [primed copy, current] pairs. */
  readonly copy: readonly (readonly [number, number])[];
  readonly auxSlots: readonly number[];
}

/**
 * The thread's transitions by source pc, compiled over `layout` (which holds its scope).
 * Checks `budget` before each transition (what it throws is thrown on): a plan is
 * quadratic in the transition's atoms, so a thousand transitions over hundreds of
 * variables take a minute.
 */
export function compileSteps(p: Program, th: Thread, layout: Layout, range: readonly [bigint, bigint], budget?: Budget): Map<number, Step[]> {
  // States here are integers: an array of run-time size (the symbolic engines' SMT arrays) has no place in them.
  const array = p.globals.find(isArrayName);
  if (array) unsupported(p.vars.get(array)!.pos!, `an object of a size known only at run time (${p.vars.get(array)!.cname}) in an explicit-state search: only the symbolic engines read its cells (aret, bmc, monolithic)`);
  // A transition determines the primed copies of its thread's whole scope (globals and
  // own locals); a pop only tests its guard (the frame gives the values).
  const scope = [...p.globals, ...th.locals];
  const byPc = new Map<number, Step[]>();
  const classes = comparedWithConstants(p);
  for (const t of th.transitions) {
    budget?.check();
    const formula = withDeadChoicesFixed(p, th, t, () => budget?.check()) ?? t.formula;
    const s: Step = {
      t,
      plan: plan(formula, layout.known, layout.slot, range, t.stack?.kind === 'pop' ? [] : scope.map(primed), classes),
      copy: scope.map((v) => [layout.slot(primed(v)), layout.index.get(v)!] as const),
      auxSlots: t.aux.map(layout.slot),
    };
    byPc.set(t.from, [...(byPc.get(t.from) ?? []), s]);
  }
  return byPc;
}


/**
 * Fires `s` in the state `cur`: `found` gets every successor (and the values of the
 * transition's auxiliary variables). A pop's successor is `cur` itself: the caller
 * restores the frame. Returns true when a choice was cut to the nondet range.
 */
export function fire(s: Step, cur: readonly bigint[], found: (next: bigint[], aux: bigint[]) => void): boolean {
  return run(s.plan, [...cur, ...cur], (env) => {
    const next = cur.slice();
    // Explicit states hold integers only: programs with arrays never reach these engines (Engine.arrays).
    if (s.t.stack?.kind !== 'pop') for (const [from, to] of s.copy) next[to] = env[from] as bigint;
    found(next, s.auxSlots.map((i) => env[i] as bigint));
  });
}

/**
 * The initial states (φ_init solved), over `layout` (all of the program's variables).
 * A variable φ_init leaves free (an uninitialised local) is a choice like any other;
 * one that is dead at its thread's entry (dead-locals.ts) starts at one value: any
 * other would give the same runs.
 */
export function initialStates(p: Program, layout: Layout, range: readonly [bigint, bigint]): { states: bigint[][]; clipped: boolean } {
  const n = layout.names.length;
  const states: bigint[][] = [];
  const constrained = varsOf(p.init);
  const start = num(range[0] <= 0n && 0n <= range[1] ? 0n : range[0]);
  const fixed = [...deadAtEntry(p)].filter((v) => !constrained.has(v)).map((v) => eq(mkVar(v), start));
  const init = plan(and(p.init, ...fixed), () => false, (v) => layout.index.get(v) ?? layout.slot(v), range, layout.names, comparedWithConstants(p));
  const clipped = run(init, new Array(2 * n).fill(0n), (env) => states.push(env.slice(0, n) as bigint[]));
  return { states, clipped };
}

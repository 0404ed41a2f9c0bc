/**
 * Concrete explorer: exhaustive breadth-first search over all interleavings of a
 * `Program`, with nondeterministic values drawn from a finite range and a bound on
 * the number of states. It is the ground truth every symbolic engine is tested
 * against, so it executes the IR's formulas themselves (execute.ts).
 */
import { and, isPrimed, primed, unprimed, varsOf } from '../solver/formula.js';
import type { SourcePos } from '../frontend/diagnostics.js';
import { effectAtoms, type Program, type Step, type Transition } from '../frontend/program.js';
import { plan, run, type Plan } from './execute.js';

export interface ExploreOptions {
  /** Values tried for nondeterministic choices the program does not bound itself. */
  nondetRange?: readonly [bigint, bigint];
  maxStates?: number;
}

export interface TraceStep {
  readonly thread: string;
  readonly transition: number;
  readonly pos: SourcePos;
  readonly steps: readonly Step[];
  /** Values after the step of the variables the transition mentions (C names for display). */
  readonly values: ReadonlyArray<readonly [string, bigint]>;
}

export interface ExploreResult {
  readonly errorReachable: boolean;
  /** Every reachable state (for the tried nondet values) was explored. */
  readonly complete: boolean;
  /** Some choice was cut to the nondet range: "no error" holds only for that range. */
  readonly usedNondetRange: boolean;
  readonly nondetRange: readonly [bigint, bigint];
  readonly states: number;
  readonly transitionsFired: number;
  readonly trace?: readonly TraceStep[];
  /** An unsigned variable went negative (C would wrap around); the first such run. */
  readonly unsignedWrap?: { readonly variable: string; readonly trace: readonly TraceStep[] };
  readonly timeMs: number;
}

export const DEFAULT_NONDET_RANGE: readonly [bigint, bigint] = [-2n, 2n];
export const DEFAULT_MAX_STATES = 1_000_000;

interface Compiled {
  t: Transition;
  plan: Plan;
  /** Slots of the thread's scope variables that the plan writes as primed copies. */
  copy: [from: number, to: number][];
}

/** The trace step of transition `t`, with the values after it of the variables it mentions. */
export function traceStep(p: Program, t: Transition, after: (v: string) => bigint): TraceStep {
  const touched = varsOf(and(...effectAtoms(t)));
  const mentioned = [...new Set([...touched].filter((v) => p.vars.has(unprimed(v))).map(unprimed))];
  return {
    thread: p.threads[t.thread].name,
    transition: t.id,
    pos: t.pos,
    steps: t.steps,
    values: mentioned.filter((v) => ['user', 'ghost'].includes(p.vars.get(v)!.role)).map((v) => [v, after(v)] as const),
  };
}

export function explore(p: Program, opts: ExploreOptions = {}): ExploreResult {
  const t0 = performance.now();
  const range = opts.nondetRange ?? DEFAULT_NONDET_RANGE;
  const maxStates = opts.maxStates ?? DEFAULT_MAX_STATES;
  const names = [...p.vars.keys()];
  const n = names.length;
  const index = new Map(names.map((v, i) => [v, i]));
  // Environment layout: [V (n) | V' (n) | aux …].
  const auxSlots = new Map<string, number>();
  const slot = (name: string): number => {
    if (isPrimed(name)) return n + index.get(unprimed(name))!;
    const i = index.get(name);
    if (i !== undefined) return i;
    let a = auxSlots.get(name);
    if (a === undefined) {
      a = 2 * n + auxSlots.size;
      auxSlots.set(name, a);
    }
    return a;
  };
  const known = (v: string): boolean => !isPrimed(v) && index.has(v);
  let usedRange = false;

  const compiled: Compiled[][] = p.threads.map((th) =>
    th.transitions.map((t) => {
      // The transition determines the primed copies of its thread's whole scope
      // (globals and own locals); other threads' locals are unchanged (ρ_j^=).
      const scope = [...p.globals, ...th.locals];
      const pl = plan(t.formula, known, slot, range, scope.map(primed));
      const copy = scope.map((v) => [n + index.get(v)!, index.get(v)!] as [number, number]);
      return { t, plan: pl, copy };
    }),
  );
  const byPc: Map<number, Compiled[]>[] = compiled.map((ts) => {
    const m = new Map<number, Compiled[]>();
    for (const c of ts) m.set(c.t.from, [...(m.get(c.t.from) ?? []), c]);
    return m;
  });
  const pcSlot = p.threads.map((th) => index.get(th.pc)!);
  const errPc = p.threads.map((th) => th.errorPc);
  const unsignedSlots = names.flatMap((v, i) => (p.vars.get(v)!.unsigned && p.vars.get(v)!.role === 'user' ? [i] : []));

  // State store.
  const values: bigint[][] = [];
  const parent: number[] = [];
  const via: (Compiled | undefined)[] = [];
  const seen = new Map<string, number>();
  let fired = 0;
  let limitHit = false;
  let errorState = -1;
  let wrap: { state: number; variable: string } | undefined;

  const add = (vals: bigint[], from: number, c: Compiled | undefined): void => {
    if (errorState >= 0 || limitHit) return;
    const key = vals.join(',');
    if (seen.has(key)) return;
    if (values.length >= maxStates) {
      limitHit = true;
      return;
    }
    const id = values.length;
    seen.set(key, id);
    values.push(vals);
    parent.push(from);
    via.push(c);
    if (!wrap) {
      const bad = unsignedSlots.find((i) => vals[i] < 0n);
      if (bad !== undefined) wrap = { state: id, variable: p.vars.get(names[bad])!.cname };
    }
    if (p.threads.some((th, k) => errPc[k] !== undefined && vals[pcSlot[k]] === BigInt(errPc[k]!))) errorState = id;
  };

  // Initial states: solve φ_init for all variables.
  const initPlan = plan(p.init, () => false, (v) => index.get(v) ?? slot(v), range);
  const env0: bigint[] = new Array(2 * n).fill(0n);
  usedRange ||= run(initPlan, env0, (env) => add(env.slice(0, n), -1, undefined));

  for (let s = 0; s < values.length && errorState < 0 && !limitHit; s++) {
    const cur = values[s];
    for (let k = 0; k < p.threads.length; k++) {
      const ts = byPc[k].get(Number(cur[pcSlot[k]]));
      if (!ts) continue;
      for (const c of ts) {
        const env = [...cur, ...cur];
        const clipped = run(c.plan, env, (e) => {
          fired++;
          const next = cur.slice();
          for (const [from, to] of c.copy) next[to] = e[from];
          add(next, s, c);
        });
        usedRange ||= clipped;
        if (errorState >= 0 || limitHit) break;
      }
    }
  }

  const traceTo = (id: number): TraceStep[] => {
    const steps: TraceStep[] = [];
    for (let s = id; parent[s] >= 0; s = parent[s]) steps.push(traceStep(p, via[s]!.t, (v) => values[s][index.get(v)!]));
    return steps.reverse();
  };
  return {
    errorReachable: errorState >= 0,
    complete: !limitHit,
    usedNondetRange: usedRange,
    nondetRange: range,
    states: values.length,
    transitionsFired: fired,
    trace: errorState >= 0 ? traceTo(errorState) : undefined,
    unsignedWrap: wrap ? { variable: wrap.variable, trace: traceTo(wrap.state) } : undefined,
    timeMs: performance.now() - t0,
  };
}

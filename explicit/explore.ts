/**
 * Concrete explorer: exhaustive breadth-first search over all interleavings of a
 * `Program`, with nondeterministic values drawn from a finite range and a bound on
 * the number of states. It is the ground truth every symbolic engine is tested
 * against, so it executes the IR's formulas themselves (execute.ts).
 */
import type { Program } from '../frontend/program.js';
import { traceStep, type TraceStep } from '../core/trace.js';
import type { Run } from '../core/replay.js';
import { Layout, compileSteps, fire, initialStates, type Step as CompiledStep } from './steps.js';

/** The bounds of an explicit search (the explorer and the thread-modular engine). */
export interface SearchOptions {
  /** Values tried for nondeterministic choices the program does not bound itself. */
  nondetRange?: readonly [bigint, bigint];
  /**
   * Values an int variable may take (--int-range): a successor with a value outside
   * is not explored, and counted in `cut`.
   */
  intRange?: readonly [bigint, bigint];
  maxStates?: number;
  /** performance.now() past which the search stops (incomplete). */
  deadline?: number;
}

export interface ExploreOptions extends SearchOptions {
  /** After a complete search without error, check that the explored set is closed (`closed`). */
  recheck?: boolean;
}

/** What every explicit search reports. */
export interface SearchResult {
  readonly errorReachable: boolean;
  /** Every reachable state (for the tried nondet values) was explored. */
  readonly complete: boolean;
  /** Why the search stopped early. */
  readonly stoppedBy?: 'state limit' | 'timeout';
  /** Some choice was cut to the nondet range: "no error" holds only for that range. */
  readonly usedNondetRange: boolean;
  readonly nondetRange: readonly [bigint, bigint];
  /** Successors not explored because a value left `intRange`. */
  readonly cut: number;
  readonly states: number;
  readonly transitionsFired: number;
  readonly timeMs: number;
}

export interface ExploreResult extends SearchResult {
  /** With `recheck`: every successor of an explored state was explored. */
  readonly closed?: boolean;
  readonly trace?: readonly TraceStep[];
  /** The run to the error state, for core/replay.ts. */
  readonly run?: Run;
  /** An unsigned variable went negative (C would wrap around); the first such run. */
  readonly unsignedWrap?: { readonly variable: string; readonly trace: readonly TraceStep[] };
}

export const DEFAULT_NONDET_RANGE: readonly [bigint, bigint] = [-2n, 2n];
export const DEFAULT_MAX_STATES = 1_000_000;

/** Per thread, the frames on its stack (each the thread's locals), bottom first. */
type Stacks = readonly (readonly (readonly bigint[])[])[];

/**
 * The BASIC (PDA) rules of Flanagan–Qadeer §2.1 and §3: breadth-first search over the
 * product of all threads, with a stack per thread when calls are kept (push and pop
 * transitions).
 */
export function explore(p: Program, opts: ExploreOptions = {}): ExploreResult {
  const t0 = performance.now();
  const range = opts.nondetRange ?? DEFAULT_NONDET_RANGE;
  const maxStates = opts.maxStates ?? DEFAULT_MAX_STATES;
  const layout = new Layout([...p.vars.keys()]);
  const { names, index } = layout;
  let usedRange = false;

  const byPc = p.threads.map((th) => compileSteps(p, th, layout, range));
  const hasStack = p.threads.some((th) => th.transitions.some((t) => t.stack));
  const localSlots = p.threads.map((th) => th.locals.map((v) => index.get(v)!));
  const pcSlot = p.threads.map((th) => index.get(th.pc)!);
  const errPc = p.threads.map((th) => th.errorPc);
  const unsignedSlots = names.flatMap((v, i) => (p.vars.get(v)!.unsigned && p.vars.get(v)!.role === 'user' ? [i] : []));
  const bounded = opts.intRange ? boundedSlots(p, names) : [];
  const [lo, hi] = opts.intRange ?? [0n, 0n];

  // State store.
  const values: bigint[][] = [];
  const stacks: Stacks[] = [];
  const parent: number[] = [];
  const via: (CompiledStep | undefined)[] = [];
  const viaAux: bigint[][] = [];
  const seen = new Map<string, number>();
  let fired = 0;
  let cut = 0;
  let stoppedBy: ExploreResult['stoppedBy'];
  let errorState = -1;
  let wrap: { state: number; variable: string } | undefined;
  const noStacks: Stacks = p.threads.map(() => []);
  const inBounds = (vals: readonly bigint[]): boolean => !bounded.some((i) => vals[i] < lo || vals[i] > hi);
  const stateKey = (vals: readonly bigint[], st: Stacks): string =>
    hasStack ? `${vals.join(',')}|${st.map((s) => s.map((f) => f.join(',')).join(';')).join('/')}` : vals.join(',');

  const add = (vals: bigint[], st: Stacks, from: number, c: CompiledStep | undefined, aux: bigint[]): void => {
    if (errorState >= 0 || stoppedBy) return;
    if (!inBounds(vals)) {
      cut++;
      return;
    }
    const key = stateKey(vals, st);
    if (seen.has(key)) return;
    if (values.length >= maxStates) {
      stoppedBy = 'state limit';
      return;
    }
    const id = values.length;
    seen.set(key, id);
    values.push(vals);
    stacks.push(st);
    parent.push(from);
    via.push(c);
    viaAux.push(aux);
    if (!wrap) {
      const bad = unsignedSlots.find((i) => vals[i] < 0n);
      if (bad !== undefined) wrap = { state: id, variable: p.vars.get(names[bad])!.cname };
    }
    if (p.threads.some((th, k) => errPc[k] !== undefined && vals[pcSlot[k]] === BigInt(errPc[k]!))) errorState = id;
  };

  // Initial states: solve φ_init for all variables.
  const init = initialStates(p, layout, range);
  usedRange = init.clipped;
  for (const s0 of init.states) add(s0, noStacks, -1, undefined, []);

  /** BASIC (PDA) STEP, PUSH and POP from state s: every successor goes to `found`. */
  const successors = (s: number, found: (next: bigint[], st: Stacks, c: CompiledStep, aux: bigint[]) => void): void => {
    const cur = values[s];
    const st = stacks[s];
    for (let k = 0; k < p.threads.length; k++) {
      for (const c of byPc[k].get(Number(cur[pcSlot[k]])) ?? []) {
        const kind = c.t.stack?.kind;
        if (kind === 'pop' && st[k].length === 0) continue;
        usedRange = fire(c, cur, (next, aux) => {
          let nst = st;
          if (kind === 'push') {
            // The frame: the caller's locals (pc first), resuming at the return site.
            const frame = localSlots[k].map((i) => cur[i]);
            frame[0] = BigInt((c.t.stack as { returnPc: number }).returnPc);
            nst = st.map((x, j) => (j === k ? [...x, frame] : x));
          } else if (kind === 'pop') {
            const frame = st[k][st[k].length - 1];
            const keep = new Set((c.t.stack as { keep: readonly string[] }).keep);
            localSlots[k].forEach((i, j) => {
              if (!keep.has(names[i])) next[i] = frame[j];
            });
            nst = st.map((x, j) => (j === k ? x.slice(0, -1) : x));
          }
          found(next, nst, c, aux);
        }) || usedRange; // fire first: `||=` would skip it once a choice was cut
        if (errorState >= 0 || stoppedBy) return;
      }
    }
  };

  for (let s = 0; s < values.length && errorState < 0 && !stoppedBy; s++) {
    if ((s & 1023) === 0 && opts.deadline !== undefined && performance.now() > opts.deadline) stoppedBy = 'timeout';
    successors(s, (next, nst, c, aux) => {
      fired++;
      add(next, nst, s, c, aux);
    });
  }

  // The re-check: the explored set is closed under the rules (every successor of every
  // state was explored or cut), so no state was lost on the way.
  let closed: boolean | undefined;
  if (opts.recheck && errorState < 0 && !stoppedBy) {
    closed = true;
    for (let s = 0; s < values.length && closed; s++)
      successors(s, (next, nst) => {
        if (!inBounds(next)) return;
        if (!seen.has(stateKey(next, nst))) closed = false;
      });
  }

  const traceTo = (id: number): TraceStep[] => {
    const steps: TraceStep[] = [];
    for (let s = id; parent[s] >= 0; s = parent[s]) steps.push(traceStep(p, via[s]!.t, (v) => values[s][index.get(v)!]));
    return steps.reverse();
  };
  const runTo = (id: number): Run => {
    const ids: number[] = [];
    for (let s = id; s >= 0; s = parent[s]) ids.push(s);
    ids.reverse();
    return {
      states: ids.map((s) => new Map(names.map((v, i) => [v, values[s][i]]))),
      steps: ids.slice(1).map((s) => ({ transition: via[s]!.t, aux: new Map(via[s]!.t.aux.map((a, i) => [a, viaAux[s][i]])) })),
    };
  };
  return {
    errorReachable: errorState >= 0,
    complete: !stoppedBy,
    stoppedBy,
    usedNondetRange: usedRange,
    nondetRange: range,
    cut,
    states: values.length,
    transitionsFired: fired,
    closed,
    trace: errorState >= 0 ? traceTo(errorState) : undefined,
    run: errorState >= 0 ? runTo(errorState) : undefined,
    unsignedWrap: wrap ? { variable: wrap.variable, trace: traceTo(wrap.state) } : undefined,
    timeMs: performance.now() - t0,
  };
}

/** Variables an --int-range bounds: ints of the program (not pcs, flags or _Bool). */
export function boundedSlots(p: Program, names: readonly string[]): number[] {
  return names.flatMap((v, i) => {
    const info = p.vars.get(v)!;
    return (info.role === 'user' || info.role === 'temp') && !info.bool ? [i] : [];
  });
}

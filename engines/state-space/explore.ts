/**
 * Concrete explorer: exhaustive breadth-first search over all interleavings of a
 * `Program`, with nondeterministic values drawn from a finite range and a bound on
 * the number of states. It is the ground truth every symbolic engine is tested
 * against, so it executes the IR's formulas themselves (execute.ts).
 */
import { type Program, type Transition, singleInstances } from '../../program/program.js';
import { traceStep, type TraceStep } from '../../core/trace.js';
import type { Run } from '../../core/replay.js';
import { Layout, beforeDeadline, compileSteps, fire, initialStates, type Step as CompiledStep } from './steps.js';
import type { Symmetry } from './symmetry.js';
import { liveVariables } from '../../program/dead-locals.js';

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
  /** Asked every 1024 states: why the run is out of memory (the search stops, incomplete), or undefined (Budget.overMemory). */
  memory?: () => string | undefined;
}

export interface ExploreOptions extends SearchOptions {
  /** After a complete search without error, check that the explored set is closed (`closed`). */
  recheck?: boolean;
  /** Identical instances whose permutations map the program onto itself (symmetry.ts): states are kept up to them. */
  symmetry?: Symmetry | null;
  /** Search for a state this accepts (values in the layout of all variables) instead of an error location; its run is reported as the error's. */
  target?: (vals: readonly bigint[]) => boolean;
  /**
   * Only runs with at most this many preemptions (a step of another thread while the
   * one that moved last could still move): a bug search, never complete (CHESS's
   * context bounding, Musuvathi–Qadeer PLDI'07).
   */
  preemptions?: number;
}

/** What every explicit search reports. */
export interface SearchResult {
  readonly errorReachable: boolean;
  /** Every reachable state (for the tried nondet values) was explored. */
  readonly complete: boolean;
  /** Why the search stopped early. */
  readonly stoppedBy?: 'state limit' | 'timeout' | 'out of memory';
  /** With stoppedBy 'out of memory': the reason, as the budget says it. */
  readonly memory?: string;
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
  readonly run?: Run<bigint>;
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
  singleInstances(p, 'explicit-global');
  const t0 = performance.now();
  const range = opts.nondetRange ?? DEFAULT_NONDET_RANGE;
  const maxStates = opts.maxStates ?? DEFAULT_MAX_STATES;
  const c = beforeDeadline(() => compiled(p, range, opts.deadline));
  if (!c) return stoppedBeforeStart(range, t0);
  const { layout, byPc, dead } = c;
  const { names, index } = layout;
  let usedRange = false;

  const hasStack = p.threads.some((th) => th.transitions.some((t) => t.stack));
  const localSlots = p.threads.map((th) => th.locals.map((v) => index.get(v)!));
  const pcSlot = p.threads.map((th) => index.get(th.pc)!);
  const errPc = p.threads.map((th) => th.errorPc);
  const bounded = opts.intRange ? boundedSlots(p, names) : [];
  const [lo, hi] = opts.intRange ?? [0n, 0n];

  const bound = opts.preemptions;
  const canon = canonicalizer(opts.symmetry ?? null, index);

  // State store.
  const values: bigint[][] = [];
  /** Per state, the permutation that made its successor canonical (null: none was needed). */
  const perms: (Perm | null)[] = [];
  const stacks: Stacks[] = [];
  /** With a preemption bound: per state, the thread that moved last (-1: none yet) and the preemptions so far. */
  const last: number[] = [];
  const preempted: number[] = [];
  /** With a preemption bound: the states still to expand, the newest last. */
  const pending: number[] = [];
  const parent: number[] = [];
  const via: (CompiledStep | undefined)[] = [];
  const viaAux: bigint[][] = [];
  const seen = new Map<string, number>();
  let fired = 0;
  let cut = 0;
  let stoppedBy: ExploreResult['stoppedBy'];
  let memory: string | undefined;
  let errorState = -1;
  /** A successor beyond the preemption bound was left out. */
  let pruned = false;
  const noStacks: Stacks = p.threads.map(() => []);
  const inBounds = (vals: readonly bigint[]): boolean => !bounded.some((i) => vals[i] < lo || vals[i] > hi);
  /** States that differ only in variables dead at their threads' locations have the same key: the one stored stands for both (dead-locals.ts). */
  const stateKey = (raw: readonly bigint[], st: Stacks): string => {
    let vals = raw;
    for (let k = 0; k < dead.length; k++) {
      const slots = dead[k].get(raw[pcSlot[k]]);
      if (!slots) continue;
      if (vals === raw) vals = raw.slice();
      for (const i of slots) (vals as bigint[])[i] = 0n;
    }
    return hasStack ? `${vals.join(',')}|${st.map((s) => s.map((f) => f.join(',')).join(';')).join('/')}` : vals.join(',');
  };

  const add = (raw: bigint[], rawSt: Stacks, from: number, c: CompiledStep | undefined, aux: bigint[], by = -1, preemptions = 0): void => {
    if (errorState >= 0 || stoppedBy) return;
    if (!inBounds(raw)) {
      cut++;
      return;
    }
    const { vals, stacks: st, perm } = canon(raw, rawSt);
    // The thread that moved, where the permutation put it.
    const mover = canon.thread(by, perm);
    const key = bound === undefined ? stateKey(vals, st) : `${stateKey(vals, st)}|${mover}|${preemptions}`;
    if (seen.has(key)) return;
    if (values.length >= maxStates) {
      stoppedBy = 'state limit';
      return;
    }
    const id = values.length;
    seen.set(key, id);
    values.push(vals);
    perms.push(perm);
    if (bound !== undefined) pending.push(id);
    last.push(mover);
    preempted.push(preemptions);
    stacks.push(st);
    parent.push(from);
    via.push(c);
    viaAux.push(aux);
    if (opts.target ? opts.target(vals) : p.threads.some((th, k) => errPc[k] !== undefined && vals[pcSlot[k]] === BigInt(errPc[k]!))) errorState = id;
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

  // Breadth-first (shortest traces, and the re-check's closed set); a bug search goes depth-first, the newest state next, to reach deep states soon.
  const next = bound === undefined ? (s: number) => s + 1 : () => (pending.length ? pending.pop()! : values.length);
  for (let s = next(-1), n = 0; s < values.length && errorState < 0 && !stoppedBy; s = next(s), n++) {
    if ((n & 1023) === 0 && opts.deadline !== undefined && performance.now() > opts.deadline) stoppedBy = 'timeout';
    else if ((n & 1023) === 0 && (memory = opts.memory?.())) stoppedBy = 'out of memory';
    if (bound === undefined)
      successors(s, (next, nst, c, aux) => {
        fired++;
        add(next, nst, s, c, aux);
      });
    else boundedSuccessors(s);
  }

  /** The successors of s within the preemption bound. */
  function boundedSuccessors(s: number): void {
    const found: [bigint[], Stacks, CompiledStep, bigint[]][] = [];
    successors(s, (...succ) => {
      fired++;
      found.push(succ);
    });
    const moved = last[s];
    const canContinue = found.some(([, , c]) => c.t.thread === moved);
    for (const [next, nst, c, aux] of found) {
      const k = c.t.thread;
      const n = preempted[s] + (k !== moved && canContinue ? 1 : 0);
      if (n > bound!) pruned = true;
      else add(next, nst, s, c, aux, k, n);
    }
  }

  // The re-check: the explored set is closed under the rules (every successor of every
  // state was explored or cut), so no state was lost on the way.
  let closed: boolean | undefined;
  if (opts.recheck && errorState < 0 && !stoppedBy) {
    closed = true;
    for (let s = 0; s < values.length && closed && !stoppedBy; s++) {
      // The re-check is part of the search: it too ends at the deadline (then incomplete, no verdict).
      if ((s & 1023) === 0 && opts.deadline !== undefined && performance.now() > opts.deadline) stoppedBy = 'timeout';
      successors(s, (next, nst) => {
        if (!inBounds(next)) return;
        const c = canon(next, nst);
        if (!seen.has(stateKey(c.vals, c.stacks))) closed = false;
      });
    }
    if (stoppedBy) closed = undefined;
  }

  /**
   * The run to state `id`. Up to symmetry each stored state is canonical: the state the
   * run really reaches is the stored one with the permutations along the way undone,
   * and each step is the corresponding transition of the instance really at that place.
   */
  const runTo = (id: number): Run<bigint> => {
    const ids: number[] = [];
    for (let s = id; s >= 0; s = parent[s]) ids.push(s);
    ids.reverse();
    let P: Perm | null = null; // canonical = P(actual)
    const states: Map<string, bigint>[] = [];
    const steps: Run<bigint>['steps'][number][] = [];
    for (const s of ids) {
      const t = via[s]?.t;
      if (t) steps.push({ transition: canon.actualTransition(t, P), aux: new Map(t.aux.map((a, i) => [a, viaAux[s][i]])) });
      P = canon.compose(perms[s], P);
      const actual = canon.undo(values[s], P);
      states.push(new Map(names.map((v, i) => [v, actual[i]])));
    }
    return { states, steps };
  };
  const traceTo = (id: number): TraceStep[] => {
    const run = runTo(id);
    return run.steps.map((step, i) => traceStep(p, step.transition, (v) => run.states[i + 1].get(v)!));
  };
  return {
    errorReachable: errorState >= 0,
    complete: !stoppedBy && !pruned,
    stoppedBy,
    memory,
    usedNondetRange: usedRange,
    nondetRange: range,
    cut,
    states: values.length,
    transitionsFired: fired,
    closed,
    trace: errorState >= 0 ? traceTo(errorState) : undefined,
    run: errorState >= 0 ? runTo(errorState) : undefined,
    timeMs: performance.now() - t0,
  };
}

/** A search that reached its deadline before its first state, while compiling the transitions. */
export function stoppedBeforeStart(range: readonly [bigint, bigint], t0: number): SearchResult {
  return { errorReachable: false, complete: false, stoppedBy: 'timeout', usedNondetRange: false, nondetRange: range, cut: 0, states: 0, transitionsFired: 0, timeMs: performance.now() - t0 };
}

/** Per thread, by pc value: the slots of the variables dead there (among those its liveness follows), if any. */
function deadSlots(p: Program, index: ReadonlyMap<string, number>): Map<bigint, number[]>[] {
  return p.threads.map((th) => {
    const { live, tracked } = liveVariables(p, th);
    const byPc = new Map<bigint, number[]>();
    for (const l of th.locations) {
      const here = live.get(l.pc);
      const slots = [...tracked].filter((v) => v !== th.pc && !here?.has(v) && index.has(v)).map((v) => index.get(v)!);
      if (slots.length) byPc.set(BigInt(l.pc), slots);
    }
    return byPc;
  });
}

/** What every search of the program needs, per nondet range: its transitions compiled over the layout of all its variables, and the dead slots; the bug hunt and the full search of one run share them. */
interface Compiled {
  readonly layout: Layout;
  readonly byPc: Map<number, CompiledStep[]>[];
  readonly dead: Map<bigint, number[]>[];
}

function compiled(p: Program, range: readonly [bigint, bigint], deadline: number | undefined): Compiled {
  let byRange = compiledSteps.get(p);
  if (!byRange) compiledSteps.set(p, (byRange = new Map()));
  const key = `${range[0]}..${range[1]}`;
  let c = byRange.get(key);
  if (!c) {
    const layout = new Layout([...p.vars.keys()]);
    byRange.set(key, (c = { layout, byPc: p.threads.map((th) => compileSteps(p, th, layout, range, deadline)), dead: deadSlots(p, layout.index) }));
  }
  return c;
}
const compiledSteps = new WeakMap<Program, Map<string, Compiled>>();

/** Variables an --int-range bounds: ints of the program (not pcs, flags or _Bool). */
export function boundedSlots(p: Program, names: readonly string[]): number[] {
  return names.flatMap((v, i) => {
    const info = p.vars.get(v)!;
    return (info.role === 'user' || info.role === 'temp') && !info.bool ? [i] : [];
  });
}

/** Per symmetry class, where each instance goes: `to[old] = new` (positions in the class). */
type Perm = readonly (readonly number[])[];

/**
 * States up to symmetry (symmetry.ts): the canonical state sorts each class's
 * instances by their values and stacks; what it did is returned, so a run can be
 * rebuilt.
 */
function canonicalizer(sym: Symmetry | null, index: ReadonlyMap<string, number>) {
  const classes = (sym?.classes ?? []).map((c) => ({ threads: c.threads, slots: c.vars.map((vs) => vs.map((v) => index.get(v)!)) }));
  const idSlots = (sym?.idVars ?? []).map((v) => index.get(v)!);
  /** Per thread in a class: [class, position]. */
  const place = new Map(classes.flatMap((c, k) => c.threads.map((t, pos) => [t, [k, pos] as const])));
  const identity = (n: number): number[] => [...Array(n).keys()];
  /** `vals` with instance `old` of each class moved to `to[old]`, and the identities (index + 1) they hold with them. */
  const apply = (vals: readonly bigint[], perm: Perm): bigint[] => {
    const out = [...vals];
    classes.forEach((c, k) => c.slots.forEach((slots, old) => slots.forEach((slot, j) => (out[c.slots[perm[k][old]][j]] = vals[slot]))));
    for (const s of idSlots) {
      const at = place.get(Number(vals[s]) - 1);
      if (at) out[s] = BigInt(classes[at[0]].threads[perm[at[0]][at[1]]] + 1);
    }
    return out;
  };
  /** The identity slots holding instance `k`'s identity: ties between equal instances are broken by them. */
  const holds = (vals: readonly bigint[], thread: number): string => idSlots.filter((s) => vals[s] === BigInt(thread + 1)).join(',');
  const inverse = (perm: Perm): Perm => perm.map((to) => to.reduce((inv, n, o) => ((inv[n] = o), inv), [...to]));
  const canon = (vals: bigint[], stacks: Stacks): { vals: bigint[]; stacks: Stacks; perm: Perm | null } => {
    if (!classes.length) return { vals, stacks, perm: null };
    let moved = false;
    const perm = classes.map((c) => {
      // Instances in the order of their values, then of their stacks (kept calls).
      const stackKey = (k: number): string => stacks[c.threads[k]].map((f) => f.join(',')).join(';');
      const compare = (a: number, b: number): number => {
        const sa = c.slots[a];
        const sb = c.slots[b];
        for (let j = 0; j < sa.length; j++) if (vals[sa[j]] !== vals[sb[j]]) return vals[sa[j]] < vals[sb[j]] ? -1 : 1;
        const [ha, hb] = [holds(vals, c.threads[a]), holds(vals, c.threads[b])];
        if (ha !== hb) return ha < hb ? -1 : 1;
        const ka = stackKey(a);
        const kb = stackKey(b);
        return ka < kb ? -1 : ka > kb ? 1 : a - b;
      };
      const order = identity(c.slots.length).sort(compare);
      const to: number[] = [];
      order.forEach((old, n) => (to[old] = n));
      moved ||= to.some((n, o) => n !== o);
      return to;
    });
    if (!moved) return { vals, stacks, perm: null };
    const moves = new Map(classes.flatMap((c, k) => c.threads.map((t, old) => [c.threads[perm[k][old]], stacks[t]] as const)));
    return { vals: apply(vals, perm), stacks: stacks.map((st, t) => moves.get(t) ?? st), perm };
  };
  return Object.assign(canon, {
    /** σ ∘ P (either may be the identity, null). */
    compose: (sigma: Perm | null, P: Perm | null): Perm | null => (!sigma ? P : !P ? sigma : P.map((to, k) => to.map((n) => sigma[k][n]))),
    /** The actual state of canonical `vals` with canonical = P(actual). */
    undo: (vals: readonly bigint[], P: Perm | null): readonly bigint[] => (P ? apply(vals, inverse(P)) : vals),
    /** Where the permutation P moves thread t (one outside every class, or none (-1), stays). */
    thread: (t: number, P: Perm | null): number => {
      const at = place.get(t);
      return P && at ? classes[at[0]].threads[P[at[0]][at[1]]] : t;
    },
    /** The transition really taken when `t` fires in the canonical state P(actual). */
    actualTransition: (t: Transition, P: Perm | null): Transition => {
      const k = classes.findIndex((c) => c.threads.includes(t.thread));
      if (!P || k < 0) return t;
      const c = classes[k];
      const old = P[k].indexOf(c.threads.indexOf(t.thread));
      return sym!.counterpart(t, c.threads[old]);
    },
  });
}

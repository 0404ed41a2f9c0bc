/**
 * Concrete explorer: exhaustive breadth-first search over all interleavings of a
 * `Program`, with nondeterministic values drawn from a finite range and a bound on
 * the number of states. It is the ground truth every symbolic engine is tested
 * against, so it executes the IR's formulas themselves (execute.ts).
 */
import { type Program, type Transition, singleInstances } from '../../program/program.js';
import { traceStep, type TraceStep } from '../../core/trace.js';
import type { Run } from '../../core/replay.js';
import { Layout, compileSteps, fire, initialStates, type Step as CompiledStep } from './steps.js';
import type { Symmetry } from './symmetry.js';
import { liveVariables } from '../../program/dead-locals.js';
import { ranOut, type Budget } from '../../core/budget.js';
import { Timeout } from '../../core/errors.js';

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
  /** Ticked per state: past its deadline or memory limit the search stops (incomplete); Cancelled from it is thrown on. */
  budget?: Budget;
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
  /** Report the explored states (`reachable`), e.g. for the invariants of a correctness witness. */
  keepStates?: boolean;
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
  /** With `keepStates`: the explored states, values of `names` (every variable of the program, in `p.vars`'s order). */
  readonly reachable?: { readonly names: readonly string[]; readonly values: readonly (readonly bigint[])[] };
}

/** Runs `search`: undefined, or why its budget stopped it (Timeout, OutOfMemory with its reason); anything else is thrown on. */
export function stopOfBudget(search: () => void): { stoppedBy: 'timeout' | 'out of memory'; memory?: string } | undefined {
  try {
    search();
    return undefined;
  } catch (e) {
    const why = ranOut(e);
    return why instanceof Timeout ? { stoppedBy: 'timeout' } : { stoppedBy: 'out of memory', memory: why.message };
  }
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
  let x: Explorer | undefined;
  const stop = stopOfBudget(() => void (x = new Explorer(p, opts)));
  if (!x) return stoppedBeforeStart(opts.nondetRange ?? DEFAULT_NONDET_RANGE, t0, stop!);
  x.search();
  const closed = x.recheck();
  return x.result(t0, closed);
}

/** One search of `explore`: the compiled program, the state store, and the steps that fill it. */
class Explorer {
  private readonly range: readonly [bigint, bigint];
  private readonly maxStates: number;
  private readonly layout: Layout;
  private readonly byPc: Map<number, CompiledStep[]>[];
  private readonly dead: Map<bigint, number[]>[];
  private readonly hasStack: boolean;
  private readonly localSlots: number[][];
  private readonly pcSlot: number[];
  private readonly errPc: (number | undefined)[];
  /** The slots --int-range bounds, and its bounds. */
  private readonly bounded: number[];
  private readonly lo: bigint;
  private readonly hi: bigint;
  /** The preemption bound, if any. */
  private readonly bound: number | undefined;
  private readonly canon: ReturnType<typeof canonicalizer>;
  private readonly noStacks: Stacks;

  // The state store, by state id.
  private readonly values: bigint[][] = [];
  /** Per state, the permutation that made its successor canonical (null: none was needed). */
  private readonly perms: (Perm | null)[] = [];
  private readonly stacks: Stacks[] = [];
  /** With a preemption bound: per state, the thread that moved last (-1: none yet) and the preemptions so far. */
  private readonly last: number[] = [];
  private readonly preempted: number[] = [];
  /** With a preemption bound: the states still to expand, the newest last. */
  private readonly pending: number[] = [];
  private readonly parent: number[] = [];
  private readonly via: (CompiledStep | undefined)[] = [];
  private readonly viaAux: bigint[][] = [];
  private readonly seen = new Map<string, number>();

  private usedRange = false;
  private fired = 0;
  private cut = 0;
  private stoppedBy: ExploreResult['stoppedBy'];
  private memory: string | undefined;
  private errorState = -1;
  /** A successor beyond the preemption bound was left out. */
  private pruned = false;

  constructor(
    private readonly p: Program,
    private readonly opts: ExploreOptions,
  ) {
    this.range = opts.nondetRange ?? DEFAULT_NONDET_RANGE;
    this.maxStates = opts.maxStates ?? DEFAULT_MAX_STATES;
    ({ layout: this.layout, byPc: this.byPc, dead: this.dead } = compiled(p, this.range, opts.budget));
    const { names, index } = this.layout;
    this.hasStack = p.threads.some((th) => th.transitions.some((t) => t.stack));
    this.localSlots = p.threads.map((th) => th.locals.map((v) => index.get(v)!));
    this.pcSlot = p.threads.map((th) => index.get(th.pc)!);
    this.errPc = p.threads.map((th) => th.errorPc);
    this.bounded = opts.intRange ? boundedSlots(p, names) : [];
    [this.lo, this.hi] = opts.intRange ?? [0n, 0n];
    this.bound = opts.preemptions;
    this.canon = canonicalizer(opts.symmetry ?? null, index);
    this.noStacks = p.threads.map(() => []);
  }

  /** From the initial states (φ_init solved for all variables) until an error, a bound, or no state is left to expand. */
  search(): void {
    const init = initialStates(this.p, this.layout, this.range);
    this.usedRange = init.clipped;
    for (const s0 of init.states) this.add(s0, this.noStacks, -1, undefined, []);
    // Breadth-first (shortest traces, and the re-check's closed set); a bug search goes depth-first, the newest state next, to reach deep states soon.
    const next = this.bound === undefined ? (s: number) => s + 1 : () => (this.pending.length ? this.pending.pop()! : this.values.length);
    this.untilStopped(() => {
      for (let s = next(-1); s < this.values.length && this.errorState < 0 && !this.stoppedBy; s = next(s)) {
        this.opts.budget?.tick();
        if (this.bound === undefined)
          this.successors(s, (next, nst, c, aux) => {
            this.fired++;
            this.add(next, nst, s, c, aux);
          });
        else this.boundedSuccessors(s);
      }
    });
  }

  /** Runs `search`; where the budget stops it (Timeout, OutOfMemory), `stoppedBy` and `memory` say why. */
  private untilStopped(search: () => void): void {
    const stop = stopOfBudget(search);
    if (stop) ({ stoppedBy: this.stoppedBy, memory: this.memory } = stop);
  }

  /**
   * With `recheck`, after a complete search without error: is the explored set closed
   * under the rules (every successor of every state explored or cut), so that no state
   * was lost on the way? Undefined otherwise.
   */
  recheck(): boolean | undefined {
    if (!this.opts.recheck || this.errorState >= 0 || this.stoppedBy) return undefined;
    let closed = true;
    // The re-check is part of the search: its budget ends it too (then incomplete, no verdict).
    this.untilStopped(() => {
      for (let s = 0; s < this.values.length && closed; s++) {
        this.opts.budget?.tick();
        this.successors(s, (next, nst) => {
          if (!this.inBounds(next)) return;
          const c = this.canon(next, nst);
          if (!this.seen.has(this.stateKey(c.vals, c.stacks))) closed = false;
        });
      }
    });
    return this.stoppedBy ? undefined : closed;
  }

  result(t0: number, closed: boolean | undefined): ExploreResult {
    const error = this.errorState;
    return {
      errorReachable: error >= 0,
      complete: !this.stoppedBy && !this.pruned,
      stoppedBy: this.stoppedBy,
      memory: this.memory,
      usedNondetRange: this.usedRange,
      nondetRange: this.range,
      cut: this.cut,
      states: this.values.length,
      transitionsFired: this.fired,
      closed,
      trace: error >= 0 ? this.traceTo(error) : undefined,
      run: error >= 0 ? this.runTo(error) : undefined,
      timeMs: performance.now() - t0,
      reachable: this.opts.keepStates ? { names: this.layout.names, values: this.values } : undefined,
    };
  }

  private inBounds(vals: readonly bigint[]): boolean {
    return !this.bounded.some((i) => vals[i] < this.lo || vals[i] > this.hi);
  }

  /** States that differ only in variables dead at their threads' locations have the same key: the one stored stands for both (dead-locals.ts). */
  private stateKey(raw: readonly bigint[], st: Stacks): string {
    let vals = raw;
    for (let k = 0; k < this.dead.length; k++) {
      const slots = this.dead[k].get(raw[this.pcSlot[k]]);
      if (!slots) continue;
      if (vals === raw) vals = raw.slice();
      for (const i of slots) (vals as bigint[])[i] = 0n;
    }
    return this.hasStack ? `${vals.join(',')}|${st.map((s) => s.map((f) => f.join(',')).join(';')).join('/')}` : vals.join(',');
  }

  /** Stores a successor of `from` (by step c of thread `by`) unless it is out of bounds or known; marks it if it is an error (or the target). */
  private add(raw: bigint[], rawSt: Stacks, from: number, c: CompiledStep | undefined, aux: bigint[], by = -1, preemptions = 0): void {
    if (this.errorState >= 0 || this.stoppedBy) return;
    if (!this.inBounds(raw)) {
      this.cut++;
      return;
    }
    const { vals, stacks: st, perm } = this.canon(raw, rawSt);
    // The thread that moved, where the permutation put it.
    const mover = this.canon.thread(by, perm);
    const key = this.bound === undefined ? this.stateKey(vals, st) : `${this.stateKey(vals, st)}|${mover}|${preemptions}`;
    if (this.seen.has(key)) return;
    if (this.values.length >= this.maxStates) {
      this.stoppedBy = 'state limit';
      return;
    }
    const id = this.values.length;
    this.seen.set(key, id);
    this.values.push(vals);
    this.perms.push(perm);
    if (this.bound !== undefined) this.pending.push(id);
    this.last.push(mover);
    this.preempted.push(preemptions);
    this.stacks.push(st);
    this.parent.push(from);
    this.via.push(c);
    this.viaAux.push(aux);
    const { threads } = this.p;
    if (this.opts.target ? this.opts.target(vals) : threads.some((_, k) => this.errPc[k] !== undefined && vals[this.pcSlot[k]] === BigInt(this.errPc[k]!))) this.errorState = id;
  }

  /** BASIC (PDA) STEP, PUSH and POP from state s: every successor goes to `found`. */
  private successors(s: number, found: (next: bigint[], st: Stacks, c: CompiledStep, aux: bigint[]) => void): void {
    const cur = this.values[s];
    const st = this.stacks[s];
    for (let k = 0; k < this.p.threads.length; k++) {
      for (const c of this.byPc[k].get(Number(cur[this.pcSlot[k]])) ?? []) {
        const kind = c.t.stack?.kind;
        if (kind === 'pop' && st[k].length === 0) continue;
        this.usedRange =
          fire(c, cur, (next, aux) => {
            let nst = st;
            if (kind === 'push') {
              // The frame: the caller's locals (pc first), resuming at the return site.
              const frame = this.localSlots[k].map((i) => cur[i]);
              frame[0] = BigInt((c.t.stack as { returnPc: number }).returnPc);
              nst = st.map((x, j) => (j === k ? [...x, frame] : x));
            } else if (kind === 'pop') {
              const frame = st[k][st[k].length - 1];
              const keep = new Set((c.t.stack as { keep: readonly string[] }).keep);
              this.localSlots[k].forEach((i, j) => {
                if (!keep.has(this.layout.names[i])) next[i] = frame[j];
              });
              nst = st.map((x, j) => (j === k ? x.slice(0, -1) : x));
            }
            found(next, nst, c, aux);
          }) || this.usedRange; // fire first: `||=` would skip it once a choice was cut
        if (this.errorState >= 0 || this.stoppedBy) return;
      }
    }
  }

  /** The successors of s within the preemption bound. */
  private boundedSuccessors(s: number): void {
    const found: [bigint[], Stacks, CompiledStep, bigint[]][] = [];
    this.successors(s, (...succ) => {
      this.fired++;
      found.push(succ);
    });
    const moved = this.last[s];
    const canContinue = found.some(([, , c]) => c.t.thread === moved);
    for (const [next, nst, c, aux] of found) {
      const k = c.t.thread;
      const n = this.preempted[s] + (k !== moved && canContinue ? 1 : 0);
      if (n > this.bound!) this.pruned = true;
      else this.add(next, nst, s, c, aux, k, n);
    }
  }

  /**
   * The run to state `id`. Up to symmetry each stored state is canonical: the state the
   * run really reaches is the stored one with the permutations along the way undone,
   * and each step is the corresponding transition of the instance really at that place.
   */
  private runTo(id: number): Run<bigint> {
    const ids: number[] = [];
    for (let s = id; s >= 0; s = this.parent[s]) ids.push(s);
    ids.reverse();
    let P: Perm | null = null; // canonical = P(actual)
    const states: Map<string, bigint>[] = [];
    const steps: Run<bigint>['steps'][number][] = [];
    for (const s of ids) {
      const t = this.via[s]?.t;
      if (t) steps.push({ transition: this.canon.actualTransition(t, P), aux: new Map(t.aux.map((a, i) => [a, this.viaAux[s][i]])) });
      P = this.canon.compose(this.perms[s], P);
      const actual = this.canon.undo(this.values[s], P);
      states.push(new Map(this.layout.names.map((v, i) => [v, actual[i]])));
    }
    return { states, steps };
  }

  private traceTo(id: number): TraceStep[] {
    const run = this.runTo(id);
    return run.steps.map((step, i) => traceStep(this.p, step.transition, (v) => run.states[i + 1].get(v)!));
  }
}

/** A search its budget stopped before its first state, while compiling the transitions. */
export function stoppedBeforeStart(range: readonly [bigint, bigint], t0: number, stop: NonNullable<ReturnType<typeof stopOfBudget>>): SearchResult {
  return { errorReachable: false, complete: false, ...stop, usedNondetRange: false, nondetRange: range, cut: 0, states: 0, transitionsFired: 0, timeMs: performance.now() - t0 };
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

function compiled(p: Program, range: readonly [bigint, bigint], budget: Budget | undefined): Compiled {
  let byRange = compiledSteps.get(p);
  if (!byRange) compiledSteps.set(p, (byRange = new Map()));
  const key = `${range[0]}..${range[1]}`;
  let c = byRange.get(key);
  if (!c) {
    const layout = new Layout([...p.vars.keys()]);
    byRange.set(key, (c = { layout, byPc: p.threads.map((th) => compileSteps(p, th, layout, range, budget)), dead: deadSlots(p, layout.index) }));
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

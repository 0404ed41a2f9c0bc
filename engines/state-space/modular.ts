/**
 * Thread-modular (assume-guarantee) model checking, Flanagan and Qadeer, "Assume-
 * guarantee model checking" §2.2 and §3.1. A template thread (Thread.replicated, any
 * number of instances) takes its own guarantee as environment too. Each thread is explored alone, over the
 * globals and its own locals; the other threads appear only through their guarantees
 * G(e, g, g'), the global updates they were seen to make, which grow until nothing
 * changes. With kept calls the summaries P (same stack) and Q (one frame pushed) of
 * the AG PDA rules replace the reachable set; without calls Q stays empty and
 * P(t, g₀, l₀, g, l) is exactly R(t, g, l) of the AG rules.
 *
 * The result over-approximates the reachable states (Lemma 2): no error in it proves
 * the program safe; an error in it may be an artefact of the abstraction.
 */
import type { Program, Thread } from '../../program/program.js';
import { DEFAULT_MAX_STATES, DEFAULT_NONDET_RANGE, boundedSlots, stopOfBudget, stoppedBeforeStart, type SearchOptions, type SearchResult } from './explore.js';
import type { Budget } from '../../core/budget.js';
import { Layout, compileSteps, fire, initialStates, type Step } from './steps.js';

/** One thread's (or group's) share of the result. */
export interface ThreadSummary {
  readonly thread: string;
  /** |P_t|: reachable (entry, current) pairs; without calls, the reachable states. */
  readonly states: number;
  /** |Q_t|: pairs across one pushed frame. */
  readonly summaries: number;
  /** |G_t|: global updates the thread makes. */
  readonly guarantee: number;
  /** Globals some update of G_t changes. */
  readonly writes: readonly string[];
}

/** `states` counts Σ_t |P_t| + |Q_t|; `errorReachable` is about the abstraction, not necessarily the program. */
export interface ModularResult extends SearchResult {
  readonly errorThread?: string;
  /** Σ_t |G_t|. */
  readonly guarantee: number;
  readonly threads: readonly ThreadSummary[];
  /** The fixpoint, for checkModularProof (complete runs without an error). */
  readonly proof?: ModularProof;
}

type Vec = readonly bigint[];
type Fact =
  | { readonly kind: 'P'; readonly k: number; readonly ctx: Vec; readonly st: Vec }
  | { readonly kind: 'Q'; readonly k: number; readonly ctx: Vec; readonly f: Vec; readonly cur: Vec }
  | { readonly kind: 'G'; readonly k: number; readonly g: Vec; readonly g2: Vec };

const key = (v: Vec): string => v.join(',');

/** Appends x to the list at k. */
function push<T>(m: Map<string, T[]>, k: string, x: T): void {
  const xs = m.get(k);
  if (xs) xs.push(x);
  else m.set(k, [x]);
}

/**
 * Per thread (or group of threads explored as one, see checkModular): its layout
 * (globals, then each member's locals, pc first) and the relations so far.
 */
class ThreadState {
  readonly layout: Layout;
  /** Per member: its steps by its pc, and the slot of its pc. */
  private readonly steps: { byPc: Map<number, Step[]>; pcSlot: number }[];
  readonly name: string;
  /** P: entry key → the entry and its currents by key. */
  readonly P = new Map<string, { ctx: Vec; at: Map<string, Vec> }>();
  readonly Q = new Set<string>();
  /** Q entries by their current state (STEP2 joins them with P entries from there). */
  readonly qAt = new Map<string, { ctx: Vec; f: Vec }[]>();
  /** P and Q entries by their current global store (ENV re-applies to them when G grows). */
  readonly pByG = new Map<string, { ctx: Vec; st: Vec }[]>();
  readonly qByG = new Map<string, { ctx: Vec; f: Vec; cur: Vec }[]>();
  readonly G = new Set<string>();
  readonly writes = new Set<string>();
  pCount = 0;
  /** A template alone: its own guarantee is also its environment (another instance makes those updates). */
  readonly replicated: boolean;

  constructor(
    readonly p: Program,
    readonly members: readonly Thread[],
    range: readonly [bigint, bigint],
    budget: Budget | undefined,
  ) {
    this.layout = new Layout([...p.globals, ...members.flatMap((th) => th.locals)]);
    this.steps = members.map((th) => ({ byPc: compileSteps(p, th, this.layout, range, budget), pcSlot: this.layout.index.get(th.pc)! }));
    this.name = members.map((th) => th.name).join('+');
    this.replicated = members.some((th) => th.replicated);
    if (this.replicated && members.length > 1) throw new Error(`internal: a template cannot be explored in a group (${this.name})`);
    if (members.length > 1 && members.some((th) => th.transitions.some((t) => t.stack)))
      throw new Error(`internal: threads with kept calls cannot be explored as one (${this.name})`);
  }

  /** The members' steps from `st`, each from its member's pc. */
  stepsAt(st: Vec): readonly Step[] {
    const at = ({ byPc, pcSlot }: (typeof this.steps)[number]) => byPc.get(Number(st[pcSlot])) ?? [];
    return this.steps.length === 1 ? at(this.steps[0]) : this.steps.flatMap(at); // a thread alone: no copy on this hot path
  }

  atError(st: Vec): boolean {
    return this.members.some((th, i) => th.errorPc !== undefined && st[this.steps[i].pcSlot] === BigInt(th.errorPc));
  }

  hasP(ctx: Vec, st: Vec): boolean {
    return this.P.get(key(ctx))?.at.has(key(st)) ?? false;
  }
}

/**
 * Who holds a mutex, as each thread sees it, when some threads are templates. A
 * mutex is only ever tested against 0, so the owner values are names: a template's
 * instances all write its value I (its index + 1); in a template's own view I means
 * "this instance" and J = -I "another instance of it" (in every other thread's view
 * an instance of it is J). A guarantee entry of thread M becomes, for receiver R:
 * M's own I is J (the maker is another instance); a J of R's template is R's I or J
 * (that other instance may be R itself or not) — every choice, slot by slot, which
 * over-approximates. Without templates every view is the same and nothing changes.
 */
class OwnerViews {
  private readonly slots: number[];
  private readonly I: (bigint | undefined)[];

  constructor(p: Program, ts: readonly ThreadState[]) {
    this.slots = p.globals.flatMap((g, i) => (p.vars.get(g)?.mutex ? [i] : []));
    this.I = ts.map((T) => (T.replicated ? BigInt(T.members[0].index + 1) : undefined));
  }

  /** Maker m's entry (g, g2) in receiver r's view: every variant. */
  translate(m: number, r: number, g: Vec, g2: Vec): [Vec, Vec][] {
    const im = this.I[m];
    const ir = this.I[r];
    const map = (v: bigint, me: boolean): bigint => (im !== undefined && v === im ? -im : ir !== undefined && v === -ir ? (me ? ir : -ir) : v);
    let variants: [bigint[], bigint[]][] = [[[...g], [...g2]]];
    for (const i of this.slots) {
      const choices = ir !== undefined && (g[i] === -ir || g2[i] === -ir) ? [false, true] : [false];
      variants = variants.flatMap(([a, b]) =>
        choices.map((me): [bigint[], bigint[]] => {
          const a2 = [...a];
          const b2 = [...b];
          a2[i] = map(a[i], me);
          b2[i] = map(b[i], me);
          return [a2, b2];
        }),
      );
    }
    return variants;
  }
}

/**
 * The guarantees as ENV reads them: without templates one index for all (an entry
 * applies to every thread but its maker); with them one per receiver, each entry in
 * the receiver's view (OwnerViews), a template receiving its own.
 */
class Environment {
  readonly gBy = new Map<string, { e: number; g2: Vec }[]>();
  private readonly views?: OwnerViews;
  private readonly byReceiver?: Map<string, Vec[]>[];
  private readonly seen?: Set<string>[];

  constructor(
    p: Program,
    private readonly ts: readonly ThreadState[],
  ) {
    if (!ts.some((T) => T.replicated)) return;
    this.views = new OwnerViews(p, ts);
    this.byReceiver = ts.map(() => new Map());
    this.seen = ts.map(() => new Set());
  }

  /** The global stores thread k's environment may change g into. */
  *at(k: number, g: Vec): Iterable<Vec> {
    const gk = key(g);
    if (this.byReceiver) yield* this.byReceiver[k].get(gk) ?? [];
    else for (const { e, g2 } of this.gBy.get(gk) ?? []) if (e !== k) yield g2;
  }

  /** Records thread m's new entry; calls `fresh` with each receiver's new (g, g2) in its view. */
  add(m: number, g: Vec, g2: Vec, fresh: (r: number, g: Vec, g2: Vec) => void): void {
    const gk = key(g);
    push(this.gBy, gk, { e: m, g2 });
    for (let r = 0; r < this.ts.length; r++) {
      if (r === m && !this.ts[r].replicated) continue;
      for (const [a, b] of this.views ? this.views.translate(m, r, g, g2) : [[g, g2] as [Vec, Vec]]) {
        const ak = key(a);
        const bk = key(b);
        if (ak === bk) continue;
        if (this.byReceiver) {
          if (this.seen![r].has(`${ak}>${bk}`)) continue;
          this.seen![r].add(`${ak}>${bk}`);
          push(this.byReceiver[r], ak, b);
        }
        fresh(r, a, b);
      }
    }
  }

  /** Whether the per-receiver indexes hold exactly the translations of the guarantees (for the re-check). */
  consistent(): string | undefined {
    if (!this.byReceiver) return undefined;
    const expect = this.ts.map(() => new Set<string>());
    for (const [gk, xs] of this.gBy)
      for (const { e, g2 } of xs)
        for (let r = 0; r < this.ts.length; r++) {
          if (r === e && !this.ts[r].replicated) continue;
          for (const [a, b] of this.views!.translate(e, r, gk === '' ? [] : gk.split(',').map(BigInt), g2)) if (key(a) !== key(b)) expect[r].add(`${key(a)}>${key(b)}`);
        }
    for (const [r, m] of this.byReceiver.entries()) {
      let n = 0;
      for (const [ak, bs] of m)
        for (const b of bs) {
          n++;
          if (!expect[r].has(`${ak}>${key(b)}`)) return `environment of thread ${this.ts[r].name} has an entry no guarantee gives`;
        }
      if (n !== expect[r].size) return `environment of thread ${this.ts[r].name} misses an entry`;
    }
    return undefined;
  }
}

/** The relations at the fixpoint, as checkModularProof reads them. */
export interface ModularProof {
  readonly program: Program;
  readonly init: readonly Vec[];
  readonly threads: readonly ThreadState[];
  readonly env: Environment;
  readonly range: readonly [bigint, bigint];
}

const nG = (p: Program): number => p.globals.length;
const withG = (p: Program, st: Vec, g: Vec): Vec => [...g, ...st.slice(nG(p))];

/**
 * The rules of §3.1 applied to one fact: every conclusion goes to `emit`. AG PDA ENV1
 * and ENV2 use the guarantees of the other threads in `gBy`, STEP1, PUSH and POP the
 * thread's transitions (T, T⁺, T⁻), STEP2 joins Q with P. Returns true when a choice
 * was cut to the nondet range.
 */
function consequences(
  p: Program,
  ts: readonly ThreadState[],
  env: Environment,
  fact: Fact,
  emit: (f: Fact) => void,
  onFire: () => void,
): boolean {
  if (fact.kind === 'G') return false;
  const T = ts[fact.k];
  const k = fact.k;
  const here = fact.kind === 'P' ? fact.st : fact.cur;
  const g = here.slice(0, nG(p));
  let clipped = false;
  // AG PDA ENV1 / ENV2: another thread's guarantee changes the globals; for a template,
  // so does its own (another instance's step: the Flanagan–Qadeer setting of
  // unboundedly many threads, whose locals no instance sees).
  for (const g2 of env.at(k, g))
    emit(fact.kind === 'P' ? { ...fact, st: withG(p, here, g2) } : { ...fact, cur: withG(p, here, g2) });
  const steps = T.stepsAt(here);
  if (fact.kind === 'P') {
    const { ctx, st } = fact;
    for (const s of steps) {
      if (s.t.stack?.kind === 'pop') continue;
      clipped = fire(s, st, (next) => {
        onFire();
        if (s.t.stack?.kind === 'push') {
          // AG PDA PUSH: the frame is the caller's locals (pc first), resuming at the return site.
          const f = st.slice(nG(p));
          f[0] = BigInt(s.t.stack.returnPc);
          emit({ kind: 'Q', k, ctx, f, cur: next });
          emit({ kind: 'P', k, ctx: next, st: next });
        } else {
          // AG PDA STEP1.
          emit({ kind: 'P', k, ctx, st: next });
          emit({ kind: 'G', k, g, g2: next.slice(0, nG(p)) });
        }
      }) || clipped; // fire first: `||=` would skip it once a choice was cut
    }
    // AG PDA STEP2 from the P side: Q entries waiting where this P entry starts.
    for (const q of T.qAt.get(key(ctx)) ?? []) emit({ kind: 'Q', k, ctx: q.ctx, f: q.f, cur: st });
  } else {
    const { ctx, f, cur } = fact;
    // AG PDA STEP2 from the Q side.
    for (const st of T.P.get(key(cur))?.at.values() ?? []) emit({ kind: 'Q', k, ctx, f, cur: st });
    // AG PDA POP: back to the frame, keeping the callee's result.
    for (const s of steps) {
      if (s.t.stack?.kind !== 'pop') continue;
      const keep = new Set(s.t.stack.keep);
      clipped = fire(s, cur, () => {
        onFire();
        const locals = T.members[0].locals.map((v, j) => (keep.has(v) ? cur[nG(p) + j] : f[j]));
        emit({ kind: 'P', k, ctx, st: [...cur.slice(0, nG(p)), ...locals] });
      }) || clipped;
    }
  }
  return clipped;
}

/** AG PDA INIT: P(t, g₀, l₀, g₀, l₀) for each thread and initial state. */
function initFacts(p: Program, ts: readonly ThreadState[], init: readonly Vec[]): Fact[] {
  const all = [...p.vars.keys()];
  const idx = new Map(all.map((v, i) => [v, i]));
  return init.flatMap((s) =>
    ts.map((T, k) => {
      const ctx = T.layout.names.map((v) => s[idx.get(v)!]);
      return { kind: 'P' as const, k, ctx, st: ctx };
    }),
  );
}

/**
 * The least fixpoint of the AG PDA rules, by a worklist. `groups` (a partition of the
 * threads' indices, each thread alone by default) explores the members of a group as
 * one thread: their product over the globals and all their locals, so each member
 * sees where the others of its group are, and only other groups through guarantees.
 * Groups may not keep calls.
 */
export function checkModular(p: Program, opts: SearchOptions = {}, groups: readonly (readonly number[])[] = p.threads.map((_, i) => [i])): ModularResult {
  const t0 = performance.now();
  let w: Worklist | undefined;
  const stop = stopOfBudget(() => void (w = new Worklist(p, opts, groups)));
  if (!w) return { ...stoppedBeforeStart(opts.nondetRange ?? DEFAULT_NONDET_RANGE, t0, stop!), guarantee: 0, threads: [] };
  const init = initialStates(p, new Layout([...p.vars.keys()]), w.range);
  const clipped = w.run(init.states);
  return w.result(t0, init.states, init.clipped || clipped);
}

/** One run of checkModular: the threads' relations, the facts still to apply the rules to, the counts. */
class Worklist {
  readonly range: readonly [bigint, bigint];
  private readonly maxStates: number;
  private readonly ts: ThreadState[];
  /** Per thread, the slots --int-range bounds, and its bounds. */
  private readonly bounded: number[][];
  private readonly lo: bigint;
  private readonly hi: bigint;
  private readonly env: Environment;
  private readonly work: Fact[] = [];
  private states = 0;
  private cut = 0;
  private fired = 0;
  private stoppedBy: ModularResult['stoppedBy'];
  private memory: string | undefined;
  private errorThread: number | undefined;

  constructor(
    private readonly p: Program,
    private readonly opts: SearchOptions,
    groups: readonly (readonly number[])[],
  ) {
    this.range = opts.nondetRange ?? DEFAULT_NONDET_RANGE;
    this.maxStates = opts.maxStates ?? DEFAULT_MAX_STATES;
    this.ts = groups.map((g) => new ThreadState(p, g.map((i) => p.threads[i]), this.range, opts.budget));
    this.bounded = this.ts.map((T) => (opts.intRange ? boundedSlots(p, T.layout.names) : []));
    [this.lo, this.hi] = opts.intRange ?? [0n, 0n];
    this.env = new Environment(p, this.ts);
  }

  /** From AG PDA INIT until the fixpoint, an error, or a bound; whether some choice was cut to the nondet range. */
  run(init: readonly Vec[]): boolean {
    const { opts, work } = this;
    let clipped = false;
    for (const f of initFacts(this.p, this.ts, init)) this.add(f);
    const stop = stopOfBudget(() => {
      for (let i = 0; i < work.length && !this.stoppedBy && this.errorThread === undefined; i++) {
        opts.budget?.tick();
        clipped = consequences(this.p, this.ts, this.env, work[i], (f) => this.add(f), () => this.fired++) || clipped;
      }
    });
    if (stop) ({ stoppedBy: this.stoppedBy, memory: this.memory } = stop);
    return clipped;
  }

  result(t0: number, init: readonly Vec[], clipped: boolean): ModularResult {
    const { ts, stoppedBy, errorThread } = this;
    const done = !stoppedBy && errorThread === undefined;
    return {
      errorReachable: errorThread !== undefined,
      errorThread: errorThread === undefined ? undefined : ts[errorThread].name,
      complete: !stoppedBy,
      stoppedBy,
      memory: this.memory,
      usedNondetRange: clipped,
      nondetRange: this.range,
      cut: this.cut,
      states: this.states,
      guarantee: ts.reduce((s, T) => s + T.G.size, 0),
      transitionsFired: this.fired,
      threads: ts.map((T) => ({ thread: T.replicated ? `${T.name} (template: any number of instances)` : T.name, states: T.pCount, summaries: T.Q.size, guarantee: T.G.size, writes: [...T.writes].sort() })),
      proof: done ? { program: this.p, init, threads: ts, env: this.env, range: this.range } : undefined,
      timeMs: performance.now() - t0,
    };
  }

  /** A fact concluded: stored and queued if new (a P or Q entry within the bounds), or a guarantee recorded. */
  private add(f: Fact): void {
    if (this.stoppedBy || this.errorThread !== undefined) return;
    if (f.kind === 'G') return this.addGuarantee(f);
    const { p } = this;
    const T = this.ts[f.k];
    const here = f.kind === 'P' ? f.st : f.cur;
    if (this.bounded[f.k].some((i) => here[i] < this.lo || here[i] > this.hi)) {
      this.cut++;
      return;
    }
    const ck = key(f.ctx);
    const hk = key(here);
    if (f.kind === 'P') {
      let m = T.P.get(ck);
      if (m?.at.has(hk)) return;
      if (this.states >= this.maxStates) return void (this.stoppedBy = 'state limit');
      if (!m) T.P.set(ck, (m = { ctx: f.ctx, at: new Map() }));
      m.at.set(hk, here);
      T.pCount++;
      push(T.pByG, key(here.slice(0, nG(p))), { ctx: f.ctx, st: here });
      if (T.atError(here)) this.errorThread = f.k;
    } else {
      const qk = `${ck}|${key(f.f)}|${hk}`;
      if (T.Q.has(qk)) return;
      if (this.states >= this.maxStates) return void (this.stoppedBy = 'state limit');
      T.Q.add(qk);
      push(T.qAt, hk, { ctx: f.ctx, f: f.f });
      push(T.qByG, key(here.slice(0, nG(p))), { ctx: f.ctx, f: f.f, cur: here });
    }
    this.states++;
    this.work.push(f);
  }

  /** A global update of thread f.k: into G, and applied to the other threads' entries already at its source. */
  private addGuarantee(f: Extract<Fact, { kind: 'G' }>): void {
    const { p, ts } = this;
    const T = ts[f.k];
    const gk = key(f.g);
    const g2k = key(f.g2);
    if (gk === g2k || T.G.has(`${gk}>${g2k}`)) return;
    T.G.add(`${gk}>${g2k}`);
    f.g.forEach((x, i) => x !== f.g2[i] && T.writes.add(p.globals[i]));
    // AG PDA ENV1 / ENV2 for the other threads' entries already at g (in their view).
    this.env.add(f.k, f.g, f.g2, (j, a, b) => {
      const U = ts[j];
      const ak = key(a);
      for (const { ctx, st } of U.pByG.get(ak) ?? []) this.add({ kind: 'P', k: j, ctx, st: withG(p, st, b) });
      for (const { ctx, f: fr, cur } of U.qByG.get(ak) ?? []) this.add({ kind: 'Q', k: j, ctx, f: fr, cur: withG(p, cur, b) });
    });
  }
}

/**
 * Re-checks a fixpoint rule by rule, without the worklist: AG PDA INIT holds, every
 * rule applied to every P and Q entry concludes facts that are in P, Q and G, and no
 * P entry is at an error location. (The worklist must re-apply ENV to old entries
 * whenever a guarantee grows; this is what catches it if it did not.) Returns the
 * first failure, or undefined.
 */
export function checkModularProof(proof: ModularProof): string | undefined {
  const { program: p, threads: ts, env } = proof;
  const { gBy } = env;
  let failure: string | undefined;
  const member = (f: Fact): void => {
    if (failure) return;
    const T = ts[f.k];
    const ok =
      f.kind === 'P'
        ? T.hasP(f.ctx, f.st)
        : f.kind === 'Q'
          ? T.Q.has(`${key(f.ctx)}|${key(f.f)}|${key(f.cur)}`)
          : key(f.g) === key(f.g2) || T.G.has(`${key(f.g)}>${key(f.g2)}`);
    if (!ok) failure = `thread ${T.name}: the ${f.kind} fact ${key(f.kind === 'G' ? f.g2 : f.kind === 'P' ? f.st : f.cur)} follows but is missing`;
  };
  for (const f of initFacts(p, ts, proof.init)) member(f);
  for (const [k, T] of ts.entries()) {
    for (const { ctx, at } of T.P.values())
      for (const st of at.values()) {
        if (T.atError(st)) return `thread ${T.name} reaches its error location`;
        consequences(p, ts, env, { kind: 'P', k, ctx, st }, member, () => {});
      }
    for (const qs of T.qByG.values()) for (const q of qs) consequences(p, ts, env, { kind: 'Q', k, ...q }, member, () => {});
    if (failure) return failure;
  }
  // The index ENV reads holds exactly G (in each receiver's view).
  let indexed = 0;
  for (const [gk, xs] of gBy)
    for (const { e, g2 } of xs) {
      indexed++;
      if (!ts[e].G.has(`${gk}>${key(g2)}`)) return `guarantee index of thread ${ts[e].name} is inconsistent`;
    }
  if (indexed !== ts.reduce((s, T) => s + T.G.size, 0)) return 'some guarantee is missing from the index';
  const views = env.consistent();
  if (views) return views;
  return failure;
}

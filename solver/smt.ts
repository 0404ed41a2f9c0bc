/**
 * The one interface every engine uses for SMT: satisfiability, models, entailment,
 * incremental push/pop with checks under assumptions, and Horn queries. Back ends
 * implement `Backend`; `SmtSolver` adds the query cache and the counters.
 */
import { and, constArrayValue, isArrayName, not, type Term, type Value } from './formula.js';
import type { HornResult, HornSystem } from './horn.js';

export type SatResult = { status: 'sat' } | { status: 'unsat' } | { status: 'unknown'; reason: string };
/** Values of the variables a check asked for: integers, and ArrayValues for array variables. */
export type Model = ReadonlyMap<string, Value>;

/** `v`'s value in `m`; a variable the model does not give may take any value: 0 (an array: 0 everywhere). */
export const modelValue = (m: Model | undefined, v: string): Value => m?.get(v) ?? (isArrayName(v) ? constArrayValue(0n) : 0n);

/** A solver's reason for `unknown` as rely reports it: `timeout`, or the solver's words on one line. */
export const unknownReason = (raw: string): string => (/timeout|canceled/.test(raw) ? 'timeout' : raw.replace(/\s+/g, ' ').trim());

/**
 * The solver itself failed, not the query: its process died, was killed at a limit
 * (memory, an answer overdue), or could not start. The run cannot go on with it, so
 * engines end UNKNOWN with the message as the reason (`solver: z3 exited (signal
 * SIGKILL) during a query`, `solver: z3 out of memory (limit 500 MB)`).
 */
export class SolverFailed extends Error {}

export interface QueryOptions {
  /** Per-query limit; the answer is unknown('timeout') past it. */
  timeoutMs?: number;
}

export type BackendName = 'wasm' | 'native';

/** What a back end provides; formulas are over Int and array variables (Bool terms as formulas). */
export interface Backend {
  readonly name: BackendName;
  push(): Promise<void>;
  pop(): Promise<void>;
  assert(t: Term): Promise<void>;
  /** Checks the current assertions plus `extra` (not kept); with values of `vars` when sat. */
  check(extra: readonly Term[], vars: readonly string[], timeoutMs: number | undefined): Promise<SatResult & { model?: Model }>;
  /**
   * Checks `formulas` alone in a fresh context (nothing asserted, no push): z3 then
   * preprocesses the whole query, which on one large formula (an unrolling) beats
   * its incremental mode many times over.
   */
  checkFresh(formulas: readonly Term[], vars: readonly string[], timeoutMs: number | undefined): Promise<SatResult & { model?: Model }>;
  /** Checks `base ∧ e` for each `e` in one exchange (optional: SmtSolver asks one at a time without it). */
  checkEach?(base: Term, extras: readonly Term[], timeoutMs: number | undefined): Promise<SatResult[]>;
  horn(sys: HornSystem, timeoutMs: number | undefined): Promise<HornResult>;
  close(): Promise<void>;
}

export interface SolverStats {
  queries: number;
  cacheHits: number;
  hornQueries: number;
  timeMs: number;
}

export class SmtSolver {
  readonly stats: SolverStats = { queries: 0, cacheHits: 0, hornQueries: 0, timeMs: 0 };
  /** One-shot results keyed by the hash-consed formula (only at the base level). */
  private readonly cache = new Map<number, SatResult>();
  private depth = 0;

  constructor(
    private readonly backend: Backend,
    private readonly defaults: QueryOptions = {},
  ) {}

  /** The per-query limit in whole milliseconds (z3 takes an unsigned integer; wasm misreads a fraction). */
  private limit(opts: QueryOptions): number | undefined {
    const ms = opts.timeoutMs ?? this.defaults.timeoutMs;
    return ms === undefined ? undefined : Math.max(1, Math.ceil(ms));
  }

  get backendName(): BackendName {
    return this.backend.name;
  }

  private async timed<T>(f: () => Promise<T>): Promise<T> {
    const t0 = performance.now();
    try {
      return await f();
    } finally {
      this.stats.timeMs += performance.now() - t0;
    }
  }

  /**
   * Satisfiability of `formulas` together with whatever was asserted since the
   * enclosing push()es (nothing at depth 0). Results at depth 0 are cached.
   */
  async check(formulas: readonly Term[], opts: QueryOptions = {}): Promise<SatResult> {
    const f = and(...formulas);
    const cacheable = this.depth === 0;
    const hit = cacheable ? this.cache.get(f.id) : undefined;
    this.stats.queries++;
    if (hit) {
      this.stats.cacheHits++;
      return hit;
    }
    const r = await this.timed(() => this.backend.check([f], [], this.limit(opts)));
    const result: SatResult = r.status === 'unknown' ? { status: 'unknown', reason: r.reason } : { status: r.status };
    if (cacheable && result.status !== 'unknown') this.cache.set(f.id, result);
    return result;
  }

  /**
   * Satisfiability of `base ∧ e` for each of `extras`, as check() would answer each
   * (and caches it), but the ones not cached go to the back end together: α asks
   * one formula against many predicates, and a round trip per predicate cost more
   * than z3's answers.
   */
  async checkEach(base: Term, extras: readonly Term[], opts: QueryOptions = {}): Promise<SatResult[]> {
    if (this.depth !== 0 || !this.backend.checkEach) {
      const out: SatResult[] = [];
      for (const e of extras) out.push(await this.check([base, e], opts));
      return out;
    }
    const fs = extras.map((e) => and(base, e));
    const out: (SatResult | undefined)[] = fs.map((f) => this.cache.get(f.id));
    this.stats.queries += fs.length;
    const missing = fs.flatMap((_, k) => (out[k] ? [] : [k]));
    this.stats.cacheHits += fs.length - missing.length;
    if (missing.length > 0) {
      const rs = await this.timed(() => this.backend.checkEach!(base, missing.map((k) => extras[k]), this.limit(opts)));
      missing.forEach((k, n) => {
        out[k] = rs[n];
        if (rs[n].status !== 'unknown') this.cache.set(fs[k].id, rs[n]);
      });
    }
    return out as SatResult[];
  }

  /** Satisfiability with a model for `vars` when sat. */
  async model(formulas: readonly Term[], vars: readonly string[], opts: QueryOptions = {}): Promise<SatResult & { model?: Model }> {
    this.stats.queries++;
    return this.timed(() => this.backend.check([and(...formulas)], vars, this.limit(opts)));
  }

  /** Satisfiability of `formulas` alone, in a fresh context (Backend.checkFresh), with a model for `vars` when sat. */
  async modelFresh(formulas: readonly Term[], vars: readonly string[], opts: QueryOptions = {}): Promise<SatResult & { model?: Model }> {
    this.stats.queries++;
    return this.timed(() => this.backend.checkFresh(formulas, vars, this.limit(opts)));
  }

  /** Whether premise ⇒ conclusion is valid: 'unknown' when the solver cannot tell. */
  async entails(premise: Term, conclusion: Term, opts: QueryOptions = {}): Promise<boolean | 'unknown'> {
    const r = await this.check([premise, not(conclusion)], opts);
    return r.status === 'unknown' ? 'unknown' : r.status === 'unsat';
  }

  async push(): Promise<void> {
    this.depth++;
    await this.backend.push();
  }

  async pop(): Promise<void> {
    if (this.depth === 0) throw new Error('pop without push');
    this.depth--;
    await this.backend.pop();
  }

  async assert(t: Term): Promise<void> {
    if (this.depth === 0) throw new Error('assert outside push/pop would make the one-shot cache unsound');
    await this.backend.assert(t);
  }

  /** Solves Horn clauses with Spacer. */
  async horn(sys: HornSystem, opts: QueryOptions = {}): Promise<HornResult> {
    this.stats.hornQueries++;
    try {
      return await this.timed(() => this.backend.horn(sys, this.limit(opts)));
    } catch (e) {
      // An answer in a form the IR cannot read (a quantifier z3 could not eliminate) decides nothing.
      if (e instanceof SyntaxError) return { status: 'unknown', reason: `Spacer's answer could not be read: ${e.message}` };
      throw e;
    }
  }

  async close(): Promise<void> {
    await this.backend.close();
  }
}

/**
 * `rely verify --engine explicit-global|explicit-modular`: the explicit-state engines
 * with the verdict rules of the other engines. SAFE needs a complete search whose
 * result is re-checked (the global state set closed under the BASIC rules, or the
 * thread-modular fixpoint rule by rule) and in which no bound mattered; UNSAFE needs a
 * trace the interpreter replays. A result that holds only because nondeterministic
 * values were drawn from a range, or values outside --int-range were cut, is UNKNOWN
 * with the bound in the reason: a bounded search is not a proof.
 *
 * An error in the thread-modular abstraction is not a bug report: it is confirmed or
 * refuted by the global engine, and the result says so. explicit-modular also reads
 * template threads (any number of instances); the global engine does not.
 */
import { hasArrays, hasTemplates, type Program } from '../../program/program.js';
import type { Budget } from '../../core/budget.js';
import { arraysReason } from '../../core/errors.js';
import type { Outcome } from '../../core/outcome.js';
import { replay } from '../../core/replay.js';
import { DEFAULT_MAX_STATES, explore, type ExploreOptions, type ExploreResult, type SearchOptions, type SearchResult } from '../state-space/explore.js';
import { checkModular, checkModularProof, type ThreadSummary } from '../state-space/modular.js';
import { findSymmetry } from '../state-space/symmetry.js';

export type ExplicitEngine = 'explicit-global' | 'explicit-modular';

export interface ExplicitOptions extends SearchOptions {
  /** Internal errors that turn into UNKNOWN (a failed re-check or replay). */
  readonly onInternalError?: (message: string) => void;
}

/** What a SAFE verdict rests on. */
export type ExplicitProof =
  | { readonly kind: 'global'; readonly states: number; /** The identical threads whose permutations the states are taken up to (symmetry.ts), or null. */ readonly symmetry: string | null }
  | { readonly kind: 'modular'; readonly threads: readonly ThreadSummary[] };

export interface ExplicitStats {
  /** States explored: product states (global), Σ_t |P_t| + |Q_t| (modular). */
  states: number;
  /** Guarantee entries (modular), else null. */
  guarantee: number | null;
  transitionsFired: number;
  /** Per thread (modular), else null. */
  threads: readonly ThreadSummary[] | null;
  /** The bound the result depends on, or null when it is exact. */
  bound: string | null;
  /** The global search's classes of identical threads (`worker ×10`), or null. */
  symmetry: string | null;
  /** The global engine's run that confirmed or refuted an error of the modular abstraction. */
  confirmation: { verdict: 'error' | 'no error' | 'incomplete'; states: number; timeMs: number } | null;
  timeMs: number;
}

export type ExplicitVerdict = Outcome<ExplicitProof> & { engine: ExplicitEngine; stats: ExplicitStats };

/** The bound a search's answer depends on (null: exact). */
function boundOf(r: SearchResult, intRange: readonly [bigint, bigint] | undefined): string | null {
  const parts: string[] = [];
  if (r.usedNondetRange) parts.push(`nondeterministic ints drawn from ${r.nondetRange[0]}..${r.nondetRange[1]}`);
  if (r.cut > 0 && intRange) parts.push(`int values limited to ${intRange[0]}..${intRange[1]} (${r.cut} successors cut)`);
  return parts.length ? parts.join(', ') : null;
}

/** Why an incomplete search stopped, as UNKNOWN's reason. */
function stopReason(r: SearchResult): string {
  if (r.stoppedBy === 'timeout') return 'timeout';
  if (r.stoppedBy === 'out of memory') return `${r.memory ?? 'out of memory'} (after ${r.states} states)`;
  return `state limit (${r.states} states)`;
}

/** The global engine's answer: UNSAFE with a replayed trace, SAFE with a closed state set, or UNKNOWN. */
function globalOutcome(p: Program, r: ExploreResult, bound: string | null, symmetry: string | null, internal: (m: string) => Outcome<ExplicitProof>): Outcome<ExplicitProof> {
  if (r.errorReachable) {
    const replayed = replay(p, r.run!);
    if ('failure' in replayed) return internal(`explicit-global: the error trace does not replay: ${replayed.failure}`);
    return { verdict: 'unsafe', trace: replayed.trace, traceReplayed: true };
  }
  if (!r.complete) return { verdict: 'unknown', reason: stopReason(r) };
  if (bound) return { verdict: 'unknown', reason: `bounded: no error with ${bound}` };
  if (r.closed !== true) return internal('explicit-global: the explored state set is not closed under the transitions');
  return { verdict: 'safe', proof: { kind: 'global', states: r.states, symmetry }, proofChecked: true };
}

/**
 * The global search, beside a hunt for bugs in the runs with few preemptions (0, 1,
 * 2, …, depth-first), which reaches the deep states of many threads that breadth-first
 * search does not get to. With more than three threads a short hunt (a twentieth of
 * the time, a hundredth of the states, no preemption: each thread runs until it blocks
 * or ends) comes first; when the full search stops at its state or memory limit
 * without an error, the hunt goes on in the time left.
 */
function searchGlobal(p: Program, search: SearchOptions, sym: ExploreOptions['symmetry']): ExploreResult {
  const start = performance.now();
  const hunt = (bounds: readonly number[], budget: Budget | undefined, maxStates = search.maxStates): ExploreResult | undefined => {
    for (const preemptions of bounds) {
      if (budget?.expired()) return undefined;
      const r = explore(p, { ...search, budget, maxStates, preemptions, symmetry: sym });
      if (r.errorReachable) return r;
      // Nothing was left out for the bound, or the search stopped: a larger bound finds no more in time.
      if (r.complete || r.stoppedBy) return undefined;
    }
    return undefined;
  };
  const { budget } = search;
  const share = budget?.deadline === undefined ? budget : budget.within(start + 0.05 * (budget.deadline - start));
  const early = p.threads.length > 3 ? hunt([0], share, Math.ceil((search.maxStates ?? DEFAULT_MAX_STATES) / 100)) : undefined;
  if (early) return early;
  const full = explore(p, { ...search, recheck: true, symmetry: sym });
  if (full.errorReachable || (full.stoppedBy !== 'state limit' && full.stoppedBy !== 'out of memory')) return full;
  return hunt([0, 1, 2, 3, 4], budget) ?? full;
}

export function verifyExplicit(p: Program, engine: ExplicitEngine, opts: ExplicitOptions = {}): ExplicitVerdict {
  const t0 = performance.now();
  const internal = (message: string): Outcome<ExplicitProof> => {
    opts.onInternalError?.(message);
    return { verdict: 'unknown', reason: `internal check failed: ${message}` };
  };
  if (hasArrays(p)) {
    const stats: ExplicitStats = { states: 0, guarantee: null, transitionsFired: 0, threads: null, bound: null, symmetry: null, confirmation: null, timeMs: 0 };
    return { verdict: 'unknown', reason: arraysReason(engine), engine, stats };
  }
  const search = { nondetRange: opts.nondetRange, intRange: opts.intRange, maxStates: opts.maxStates, budget: opts.budget };
  // The global search takes states up to permutations of identical threads.
  const sym = hasTemplates(p) ? undefined : findSymmetry(p);
  const symmetry = sym ? sym.classes.map((c) => `${p.threads[c.threads[0]].fn} ×${c.threads.length}`).join(', ') : null;
  if (engine === 'explicit-global') {
    const r = searchGlobal(p, search, sym);
    const bound = boundOf(r, opts.intRange);
    const stats = { states: r.states, guarantee: null, transitionsFired: r.transitionsFired, threads: null, bound, symmetry, confirmation: null };
    return { ...globalOutcome(p, r, bound, symmetry, internal), engine, stats: { ...stats, timeMs: performance.now() - t0 } };
  }
  const m = checkModular(p, search);
  const bound = boundOf(m, opts.intRange);
  const stats: ExplicitStats = {
    states: m.states,
    guarantee: m.guarantee,
    transitionsFired: m.transitionsFired,
    threads: m.threads,
    bound,
    symmetry: null,
    confirmation: null,
    timeMs: 0,
  };
  const done = (o: Outcome<ExplicitProof>): ExplicitVerdict => ({ ...o, engine, stats: { ...stats, timeMs: performance.now() - t0 } });
  if (m.errorReachable && hasTemplates(p))
    // The global engine has no templates (its one instance would be no search of them all).
    return done({ verdict: 'unknown', reason: `error reachable in the thread-modular abstraction (thread ${m.errorThread}, with template threads: no global search confirms it)` });
  if (m.errorReachable) {
    // Not a bug report yet: ask the global engine.
    const g = explore(p, { ...search, recheck: true, symmetry: sym });
    stats.symmetry = symmetry;
    stats.confirmation = { verdict: g.errorReachable ? 'error' : g.complete ? 'no error' : 'incomplete', states: g.states, timeMs: g.timeMs };
    const gBound = boundOf(g, opts.intRange);
    stats.bound = gBound;
    const o = globalOutcome(p, g, gBound, symmetry, internal);
    if (o.verdict === 'unknown')
      return done({ verdict: 'unknown', reason: `error reachable in the thread-modular abstraction (thread ${m.errorThread}); explicit-global: ${o.reason}` });
    return done(o);
  }
  if (!m.complete) return done({ verdict: 'unknown', reason: stopReason(m) });
  if (bound) return done({ verdict: 'unknown', reason: `bounded: no error with ${bound}` });
  const failure = checkModularProof(m.proof!);
  if (failure) return done(internal(`explicit-modular: the fixpoint does not re-check: ${failure}`));
  return done({ verdict: 'safe', proof: { kind: 'modular', threads: m.threads }, proofChecked: true });
}

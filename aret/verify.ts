/**
 * MAIN (Fig. 6): alternate ABSTREACHENV and REFINE until no error tuple remains
 * (SAFE, with the proof re-checked against CS1–CS5 of Fig. 5 by a fresh solver) or
 * the error tuple is a real counterexample (UNSAFE, with a concrete trace replayed
 * by the interpreter), else UNKNOWN with the reason.
 */
import { getHeapStatistics } from 'node:v8';
import type { SmtSolver, SolverStats } from '../solver/smt.js';
import type { Program } from '../frontend/program.js';
import type { TraceStep } from '../explicit/explore.js';
import { AbstractionMemo, PredicateSet, SolverUnknown } from './abstraction.js';
import { abstReachEnv, findErrorTuple, type Abstraction, type Aret } from './reach-env.js';
import { checkProof, proofOf, type Proof } from './proof.js';
import { coneOfInfluence, liftProof } from './slice.js';
import { modularProofExcluded, provableGroups } from './modular-precheck.js';
import { ReplayFailed, concreteCounterexample } from './counterexample.js';
import { InvalidSolution, modularLevel, newHornStats, refine, unbiasedLevel, type Bias, type HornSolverChoice, type HornStats, type Learned, type Level } from '../horn/refine.js';

export interface Progress {
  readonly iteration: number;
  readonly predicates: number;
  readonly aretStates: number;
  readonly envTransitions: number;
}

export interface VerifyOptions {
  /** Internal errors that turn into UNKNOWN (a failed proof check or replay). */
  onInternalError?: (message: string) => void;
  bias: Bias;
  /** Under the modular bias, first ask whether a modular proof can exist, and if not which groups of threads a proof needs (default: true; aret/modular-precheck.ts). */
  modularPrecheck?: boolean;
  /** Give learned predicates to the other instances of the same thread functions (default: true; aret/symmetry.ts). */
  shareInstances?: boolean;
  /** Who solves the refinement clauses (default: spacer). */
  hornSolver?: HornSolverChoice;
  maxIterations: number;
  /** A fresh solver for the proof check (independent of the one that built the proof). */
  checker: () => SmtSolver;
  /** Per Horn query (also capped by the time left before `deadline`). */
  hornTimeoutMs?: number;
  /** performance.now() past which the run stops with UNKNOWN (timeout). */
  deadline?: number;
  /** Live heap bytes past which the run stops with UNKNOWN (out of memory) instead of dying in V8 (default: 80% of node's heap limit: a big Map that grows needs a large block at once). */
  heapLimitBytes?: number;
  /** Called after each ARET computation. */
  onProgress?: (p: Progress) => void;
  /** Called after each refinement with the predicates it added (for diagnostics). */
  onRefined?: (r: { iteration: number; level: Level['name']; by: 'linear' | 'spacer'; learned: readonly Learned[] }) => void;
}

export interface VerifyStats {
  iterations: number;
  /** All predicates: per-thread state predicates plus per-pair transition predicates. */
  predicates: number;
  /** |P_i| per thread of the whole program. */
  statePredicates: number[];
  /** |P_i▷j| for each pair that has any (thread indices of the whole program). */
  pairPredicates: { source: number; target: number; count: number }[];
  /** Sizes of the last ARET. */
  aretStates: number;
  envTransitions: number;
  /** Under the modular bias: thread-modular model checking showed that no modular proof exists, so every refinement was unbiased. */
  modularExcluded: boolean;
  /** Then: the groups of threads (names, whole program) whose thread-modular fixpoint has no error, whose clauses refinement asked before the unbiased ones. */
  groups?: string[][];
  /** Refinements answered by the modular (Fig. 11), the grouped and the unbiased (Fig. 10) clauses. */
  refinements: { modular: number; grouped: number; unbiased: number };
  /** Which Horn solver answered each refinement, and SOLVELINEARHC's hand-overs to Spacer by reason. */
  horn: HornStats;
  solver: SolverStats;
  timeMs: number;
}

/** A verdict without statistics; `P` is the engine's kind of proof (the monolithic engine's is an invariant). */
export type Outcome<P = Proof> =
  | { verdict: 'safe'; proof: P; proofChecked: true }
  | { verdict: 'unsafe'; trace: readonly TraceStep[]; traceReplayed: true }
  | { verdict: 'unknown'; reason: string };

export type Verdict = Outcome & { stats: VerifyStats };

export class Timeout extends Error {
  constructor() {
    super('timeout');
  }
}

const MB = 2 ** 20;

export class OutOfMemory extends Error {
  constructor(used: number, limit: number) {
    super(`out of memory: ${Math.round(used / MB)} MB of heap in use, past the run's limit of ${Math.round(limit / MB)} MB (node --max-old-space-size=N raises it)`);
  }
}

export async function verify(whole: Program, solver: SmtSolver, opts: VerifyOptions): Promise<Verdict> {
  const t0 = performance.now();
  // The engine runs on the cone of influence; proofs and traces are checked on the whole program.
  const slice = coneOfInfluence(whole);
  const p = slice.program;
  const pairs = new Map<string, PredicateSet>();
  const abs: Abstraction = {
    state: p.threads.map(() => new PredicateSet()),
    transition: (i, j) => {
      const k = `${i}>${j}`;
      let s = pairs.get(k);
      if (!s) pairs.set(k, (s = new PredicateSet()));
      return s;
    },
  };
  const precheck = opts.bias === 'modular' && (opts.modularPrecheck ?? true);
  const modularExcluded = precheck && modularProofExcluded(p, opts.deadline);
  const groups = modularExcluded ? provableGroups(p, opts.deadline) : undefined;
  const levels: Level[] =
    opts.bias === 'none' ? [unbiasedLevel] : [...(modularExcluded ? [] : [modularLevel(p)]), ...(groups ? [{ name: 'grouped' as const, groups }] : []), unbiasedLevel];
  const refinements = { modular: 0, grouped: 0, unbiased: 0 };
  const horn = newHornStats();
  const memo = new AbstractionMemo();
  let last: Aret | undefined;
  let iteration = 0;
  const stats = (): VerifyStats => {
    // Counted per thread of the whole program (threads outside the cone have none).
    const statePredicates = whole.threads.map(() => 0);
    abs.state.forEach((s, k) => (statePredicates[slice.threads[k]] = s.all.length));
    const pairPredicates = [...pairs.entries()]
      .filter(([, s]) => s.all.length > 0)
      .map(([k, s]) => {
        const [source, target] = k.split('>').map((i) => slice.threads[Number(i)]);
        return { source, target, count: s.all.length };
      });
    return {
      iterations: iteration,
      predicates: statePredicates.reduce((a, b) => a + b, 0) + pairPredicates.reduce((a, b) => a + b.count, 0),
      statePredicates,
      pairPredicates,
      modularExcluded,
      groups: groups?.map((g) => g.map((k) => whole.threads[slice.threads[k]].name)),
      aretStates: last ? last.states.reduce((a, s) => a + s.length, 0) : 0,
      envTransitions: last ? last.env.reduce((a, s) => a + s.length, 0) : 0,
      refinements: { ...refinements },
      horn: { answeredBy: { ...horn.answeredBy }, fallbacks: { ...horn.fallbacks }, enumerating: horn.enumerating },
      solver: { ...solver.stats },
      timeMs: performance.now() - t0,
    };
  };
  const done = (o: Outcome): Verdict => ({ ...o, stats: stats() });
  // Long unbiased runs grow the ARET and the caches until V8 would abort the process
  // with a stack trace; the heap is looked at every 100 ms instead.
  const heapLimit = opts.heapLimitBytes ?? 0.8 * getHeapStatistics().heap_size_limit;
  let heapSeen = -Infinity;
  const checkTime = () => {
    const now = performance.now();
    if (opts.deadline !== undefined && now > opts.deadline) throw new Timeout();
    if (now - heapSeen < 100) return;
    heapSeen = now;
    const used = getHeapStatistics().used_heap_size;
    if (used > heapLimit) throw new OutOfMemory(used, heapLimit);
  };
  try {
    for (iteration = 1; iteration <= opts.maxIterations; iteration++) {
      checkTime();
      last = await abstReachEnv(p, abs, solver, { checkTime, memo });
      const s = stats();
      opts.onProgress?.({ iteration, predicates: s.predicates, aretStates: s.aretStates, envTransitions: s.envTransitions });
      const tuple = await findErrorTuple(p, last, solver);
      if (!tuple) {
        const proof = liftProof(whole, slice, proofOf(p, last));
        const failed = await checkProof(whole, proof, opts.checker(), checkTime);
        if (!failed) return done({ verdict: 'safe', proof, proofChecked: true });
        opts.onInternalError?.(`proof check failed: ${failed}`);
        return done({ verdict: 'unknown', reason: `proof check failed: ${failed}` });
      }
      // A real error usually shows on the path into the error location: one cheap
      // query (MKPATH, Fig. 8, made concrete) before any Horn query.
      const direct = await concreteCounterexample(whole, tuple, slice.original, solver, true);
      if (direct) return done({ verdict: 'unsafe', trace: direct, traceReplayed: true });
      checkTime();
      // A Horn query may not outlast the run's deadline.
      const left = opts.deadline === undefined ? undefined : Math.max(1, opts.deadline - performance.now());
      const hornMs = left === undefined ? opts.hornTimeoutMs : Math.min(left, opts.hornTimeoutMs ?? left);
      const r = await refine(p, tuple, abs, solver, { levels, hornSolver: opts.hornSolver ?? 'spacer', timeoutMs: hornMs, stats: horn, shareInstances: opts.shareInstances ?? true });
      if (r.kind !== 'refined') {
        // A validated solution proves every path to the tuple infeasible, so only a
        // failed refinement asks for the others.
        const cex = await concreteCounterexample(whole, tuple, slice.original, solver);
        if (cex) return done({ verdict: 'unsafe', trace: cex, traceReplayed: true });
        if (r.kind === 'stuck') return done({ verdict: 'unknown', reason: r.reason });
        // Unsatisfiable unbiased clauses imply a feasible MKPATH, which was just refuted.
        return done({ verdict: 'unknown', reason: 'internal: the refinement clauses have no solution but the error path is infeasible' });
      }
      refinements[r.level]++;
      opts.onRefined?.({ iteration, level: r.level, by: r.by, learned: r.learned });
    }
    iteration = opts.maxIterations;
    return done({ verdict: 'unknown', reason: `no verdict after ${opts.maxIterations} refinement iterations` });
  } catch (e) {
    if (e instanceof Timeout) return done({ verdict: 'unknown', reason: 'timeout' });
    if (e instanceof OutOfMemory) return done({ verdict: 'unknown', reason: e.message });
    if (e instanceof SolverUnknown) return done({ verdict: 'unknown', reason: e.message });
    if (e instanceof ReplayFailed || e instanceof InvalidSolution) {
      opts.onInternalError?.(e.message);
      return done({ verdict: 'unknown', reason: e.message });
    }
    throw e;
  }
}

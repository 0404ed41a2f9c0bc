/**
 * MAIN (Fig. 6): alternate ABSTREACHENV and REFINE until no error tuple remains
 * (SAFE, with the proof re-checked against CS1–CS5 of Fig. 5 by a fresh solver) or
 * the error tuple is a real counterexample (UNSAFE, with a concrete trace replayed
 * by the interpreter), else UNKNOWN with the reason.
 */
import type { SmtSolver, SolverStats } from '../../solver/smt.js';
import type { HornSystem } from '../../solver/horn.js';
import type { Graph } from '../../core/dot.js';
import { aretGraphs } from './graph.js';
import { hasArrays, type Program, singleInstances } from '../../program/program.js';
import { coneOfInfluence, type Slice } from '../../program/slice.js';
import { Budget } from '../../core/budget.js';
import { InternalError, orUnknown } from '../../core/errors.js';
import type { Outcome } from '../../core/outcome.js';
import type { HornSolverChoice } from './horn/solve.js';
import { AbstractionMemo, PredicateSet } from './abstraction.js';
import type { Abstraction, Aret } from './aret.js';
import { abstReachEnv, findErrorTuple } from './reach-env.js';
import { checkProof, liftProof, proofOf, type Proof } from './proof.js';
import { modularProofExcluded, provableGroups, type Groups } from './modular-precheck.js';
import { concreteCounterexample } from './counterexample.js';
import { groupedLevel, modularLevel, unbiasedLevel, type Level } from './horn-clauses.js';
import { newHornStats, refine, type Bias, type HornStats, type Learned } from './refine.js';

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
  /** Under the modular bias, first ask whether a modular proof can exist, and if not which groups of threads a proof needs (default: true; modular-precheck.ts). */
  modularPrecheck?: boolean;
  /** Give learned predicates to the other instances of the same thread functions (default: true; symmetry.ts). */
  shareInstances?: boolean;
  /** Learn all values of a variable that only holds constants when one is learned (default: true; value-sets.ts). */
  allValues?: boolean;
  /** Who solves the refinement clauses (default: spacer). */
  hornSolver?: HornSolverChoice;
  maxIterations: number;
  /** A fresh solver for the proof check (independent of the one that built the proof). */
  checker: () => SmtSolver;
  /** Per Horn query (also capped by the time left in the budget). */
  hornTimeoutMs?: number;
  /** The run's deadline and heap limit (default: no deadline, 80% of node's heap). */
  budget?: Budget;
  /** Called after each ARET computation. */
  onProgress?: (p: Progress) => void;
  /** Called after each refinement with the predicates it added (for diagnostics). */
  onRefined?: (r: Round) => void;
  /** Keep the last ARET, drawn, in the statistics (for --report and --dot, whatever the verdict). */
  keepGraphs?: boolean;
}

/** One refinement round, for diagnostics: the ARET it refined, who solved which clauses, and what they taught. */
export interface Round {
  readonly iteration: number;
  /** The ARET of this iteration: its states and environment transitions. */
  readonly aretStates: number;
  readonly envTransitions: number;
  /** Solver queries and time since the run started (cumulative). */
  readonly queries: number;
  readonly timeMs: number;
  readonly level: Level['name'];
  readonly by: 'linear' | 'spacer';
  readonly learned: readonly Learned[];
  readonly system: HornSystem;
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
  /** With RunContext.record: each refinement, the predicates it added (where: predicate) and its Horn clauses drawn. */
  rounds?: { iteration: number; level: string; by: string; learned: string[]; clauses: Graph }[];
  /** With VerifyOptions.keepGraphs: the last ARET of each thread of the slice, drawn. */
  graphs?: Graph[];
  solver: SolverStats;
  timeMs: number;
}

export type Verdict = Outcome<Proof> & { stats: VerifyStats };

/** P_i per thread and P_i▷j per pair (made when first asked for), all empty (Fig. 6 line 1). */
function emptyAbstraction(p: Program): { abs: Abstraction; pairs: Map<string, PredicateSet> } {
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
  return { abs, pairs };
}

/**
 * The clauses REFINE asks, in order. Without bias the unbiased ones (Fig. 10). With
 * it the modular ones (Fig. 11) unless the precheck shows no modular proof exists,
 * then the grouped ones where it found groups, and the unbiased ones last (§6).
 */
function refinementLevels(p: Program, opts: VerifyOptions, budget: Budget): { levels: Level[]; modularExcluded: boolean; groups?: Groups } {
  if (opts.bias === 'none') return { levels: [unbiasedLevel], modularExcluded: false };
  // The precheck is an explicit-state search: a program with arrays of run-time size has no integer states for it.
  const modularExcluded = (opts.modularPrecheck ?? true) && !hasArrays(p) && modularProofExcluded(p, budget);
  const groups = modularExcluded ? provableGroups(p, budget) : undefined;
  return { levels: [...(modularExcluded ? [] : [modularLevel(p)]), ...(groups ? [groupedLevel(groups)] : []), unbiasedLevel], modularExcluded, groups };
}

/** What MAIN has so far: the abstraction, the last ARET and the counters. */
interface RunState {
  readonly abs: Abstraction;
  readonly pairs: ReadonlyMap<string, PredicateSet>;
  /** The clauses REFINE asks, in order, and the abstraction queries answered so far. */
  readonly levels: readonly Level[];
  readonly memo: AbstractionMemo;
  last?: Aret;
  iteration: number;
  readonly modularExcluded: boolean;
  readonly groups?: Groups;
  readonly refinements: VerifyStats['refinements'];
  readonly horn: HornStats;
  readonly t0: number;
}

/** The counters of a run so far; predicates are counted per thread of the whole program (threads outside the cone have none). */
function statsOf(whole: Program, slice: Slice, run: RunState, solver: SmtSolver, keepGraphs = false): VerifyStats {
  const { last, refinements, horn } = run;
  const statePredicates = whole.threads.map(() => 0);
  run.abs.state.forEach((s, k) => (statePredicates[slice.threads[k]] = s.all.length));
  const pairPredicates = [...run.pairs.entries()]
    .filter(([, s]) => s.all.length > 0)
    .map(([k, s]) => {
      const [source, target] = k.split('>').map((i) => slice.threads[Number(i)]);
      return { source, target, count: s.all.length };
    });
  return {
    iterations: run.iteration,
    predicates: statePredicates.reduce((a, b) => a + b, 0) + pairPredicates.reduce((a, b) => a + b.count, 0),
    statePredicates,
    pairPredicates,
    modularExcluded: run.modularExcluded,
    groups: run.groups?.map((g) => g.map((k) => whole.threads[slice.threads[k]].name)),
    aretStates: last ? last.states.reduce((a, s) => a + s.length, 0) : 0,
    envTransitions: last ? last.env.reduce((a, s) => a + s.length, 0) : 0,
    refinements: { ...refinements },
    horn: { answeredBy: { ...horn.answeredBy }, fallbacks: { ...horn.fallbacks }, enumerating: horn.enumerating, widened: horn.widened },
    solver: { ...solver.stats },
    timeMs: performance.now() - run.t0,
    ...(keepGraphs && last && { graphs: aretGraphs(slice.program, last) }),
  };
}

/** A run with an empty abstraction (Fig. 6 line 1) and the given clauses for REFINE. */
function newRun(p: Program, t0: number, levels: ReturnType<typeof refinementLevels>): RunState {
  const { abs, pairs } = emptyAbstraction(p);
  return { abs, pairs, ...levels, memo: new AbstractionMemo(), iteration: 0, refinements: { modular: 0, grouped: 0, unbiased: 0 }, horn: newHornStats(), t0 };
}

/** MAIN (Fig. 6) on the cone of influence; proofs and traces are checked on the whole program. */
export async function verify(whole: Program, solver: SmtSolver, opts: VerifyOptions): Promise<Verdict> {
  singleInstances(whole, 'aret');
  const t0 = performance.now();
  const budget = opts.budget ?? new Budget();
  // What the stats show of a setup the budget cut short: the whole program, nothing done.
  let slice: Slice = { program: whole, threads: whole.threads.map((th) => th.index), original: (t) => t };
  let run = newRun(whole, t0, { levels: [], modularExcluded: false });
  // A solver query that ran out of its own time says so (`solver: unknown (timeout)`).
  const outcome = await orUnknown(
    () => {
      // The setup (the slice, the precheck, the abstraction) looks at the budget too: on a large program it takes seconds.
      slice = coneOfInfluence(whole, () => budget.check());
      const levels = refinementLevels(slice.program, opts, budget);
      budget.check();
      run = newRun(slice.program, t0, levels);
      return main(whole, slice, run, solver, opts, budget);
    },
    opts.onInternalError,
    (s) => s.reason,
  );
  return { ...outcome, stats: statsOf(whole, slice, run, solver, opts.keepGraphs) };
}

/** Lines 2–19 of MAIN: abstract, find an error tuple, refine, until a verdict or the iterations run out. */
async function main(whole: Program, slice: Slice, run: RunState, solver: SmtSolver, opts: VerifyOptions, budget: Budget): Promise<Outcome<Proof>> {
  const p = slice.program;
  const { abs, levels, memo } = run;
  const check = (): void => budget.check();
  for (run.iteration = 1; run.iteration <= opts.maxIterations; run.iteration++) {
    check();
    const aret = (run.last = await abstReachEnv(p, abs, solver, { checkTime: () => budget.checkpoint(), memo })); // line 5
    if (opts.onProgress) {
      const s = statsOf(whole, slice, run, solver);
      opts.onProgress({ iteration: run.iteration, predicates: s.predicates, aretStates: s.aretStates, envTransitions: s.envTransitions });
    }
    const tuple = await findErrorTuple(p, aret, solver); // lines 8–9
    if (!tuple) {
      // Lines 17–18: the proof, carried back to the whole program and re-checked there.
      const proof = liftProof(whole, slice, proofOf(p, aret));
      const failed = await checkProof(whole, proof, opts.checker(), check);
      if (failed) throw new InternalError(`proof check failed: ${failed}`);
      return { verdict: 'safe', proof, proofChecked: true };
    }
    // A real error usually shows on the path into the error location: one cheap
    // query (MKPATH, Fig. 8, made concrete) before any Horn query.
    const direct = await concreteCounterexample(whole, tuple, slice.original, solver, true);
    if (direct) return { verdict: 'unsafe', trace: direct, traceReplayed: true };
    check();
    const r = await refine(p, tuple, abs, solver, {
      levels,
      hornSolver: opts.hornSolver ?? 'spacer',
      timeoutMs: budget.queryMs(opts.hornTimeoutMs), // a Horn query may not outlast the run
      budget,
      stats: run.horn,
      shareInstances: opts.shareInstances ?? true,
      allValues: opts.allValues ?? true,
    });
    if (r.kind !== 'refined') {
      // A validated solution proves every path to the tuple infeasible, so only a
      // failed refinement asks for the others (line 12).
      const cex = await concreteCounterexample(whole, tuple, slice.original, solver);
      if (cex) return { verdict: 'unsafe', trace: cex, traceReplayed: true };
      if (r.kind === 'stuck') return { verdict: 'unknown', reason: r.reason };
      // Unsatisfiable unbiased clauses imply a feasible MKPATH, which was just refuted.
      return { verdict: 'unknown', reason: 'internal: the refinement clauses have no solution but the error path is infeasible' };
    }
    run.refinements[r.level]++;
    if (opts.onRefined) {
      const { aretStates, envTransitions, solver: q, timeMs } = statsOf(whole, slice, run, solver);
      opts.onRefined({ iteration: run.iteration, aretStates, envTransitions, queries: q.queries, timeMs, level: r.level, by: r.by, learned: r.learned, system: r.system });
    }
  }
  run.iteration = opts.maxIterations;
  return { verdict: 'unknown', reason: `no verdict after ${opts.maxIterations} refinement iterations` };

}

/**
 * The ARET engine as the registry sees it (core/engine.ts): its options, MAIN
 * (verify.ts) run with the run's budget and solvers, its report and its certificate.
 */
import { show } from '../../solver/formula.js';
import type { SolverChoice } from '../../solver/select.js';
import { withSolvers, type Engine, type RunContext } from '../../core/engine.js';
import { parseCount, solverOption } from '../../core/options.js';
import type { HornSolverChoice } from './horn/solve.js';
import { proofSmt2 } from './certificate.js';
import type { Proof } from './proof.js';
import type { Bias } from './refine.js';
import { aretReport } from './report.js';
import { verify, type Progress, type Round, type VerifyStats } from './verify.js';
import { hornGraph } from '../../core/dot.js';

export interface AretOptions {
  bias: Bias;
  hornSolver: HornSolverChoice;
  shareInstances: boolean;
  allValues: boolean;
  modularPrecheck: boolean;
  maxIterations: number;
  solver: SolverChoice;
}

/**
 * Cap on one solver query (Horn or SMT): a query Spacer or z3 has not answered in a
 * minute rarely comes back, and UNKNOWN then beats waiting out the budget.
 */
export const QUERY_CAP_MS = 60_000;

const progressLine =
  (show: (line: string) => void) =>
  (x: Progress): void =>
    show(`iteration ${x.iteration}: ${x.predicates} predicates, ${x.aretStates} ARET states, ${x.envTransitions} env transitions`);

/** Each refinement as a `refined` record at debug level, and (RunContext.record) into `rounds`; rendering every predicate costs a walk per term, so only when someone reads it. */
function logRound(ctx: RunContext, rounds: NonNullable<VerifyStats['rounds']>): (r: Round) => void {
  return (r) => {
    const round = {
      iteration: r.iteration,
      aretStates: r.aretStates,
      envTransitions: r.envTransitions,
      queries: r.queries,
      timeMs: Math.round(r.timeMs),
      level: r.level,
      by: r.by,
      learned: r.learned.map((l) => `${l.where}: ${show(l.predicate)}`),
    };
    ctx.log.debug(round, 'refined');
    if (ctx.record) rounds.push({ ...round, clauses: hornGraph(`horn-round-${r.iteration}`, r.system) });
  };
}

export const aretEngine: Engine<AretOptions, Proof, VerifyStats> = {
  name: 'aret',
  description: "predicate abstraction and refinement (the paper's algorithm: abstract reachability with environment transitions, refined by Horn clauses)",
  decides: 'assertions',
  lowering: 'inline',
  options: {
    bias: {
      flags: '--bias <bias>',
      description: "refinement bias: modular prefers predicates over globals and the thread's own locals (paper §6, Fig. 11); none takes any",
      choices: ['modular', 'none'],
      default: 'modular',
    },
    hornSolver: {
      flags: '--horn-solver <solver>',
      description:
        "who solves the refinement clauses: spacer (z3's Horn engine); linear (the paper's Farkas-based SOLVELINEARHC, §7, handing to Spacer what it cannot answer); auto (linear, and Spacer whenever linear's answer is missing or teaches nothing new)",
      choices: ['spacer', 'linear', 'auto'],
      default: 'spacer',
    },
    shareInstances: {
      flags: '--no-share-instances',
      description:
        "each predicate set keeps only what its own refinements teach (by default a state predicate of thread i also goes to the other threads running i's function, and a transition predicate of i▷j to i▷j' for the other threads j' running j's function, their locals renamed)",
      default: true,
    },
    allValues: {
      flags: '--no-all-values',
      description:
        "learn only the values the Horn solutions name (by default, when refinement learns v = k for a variable v whose initial value and every write is a constant or a copy of such a variable, at most 8 values in all, v's other values are learned with it, in the same set; not by the grouped clauses)",
      default: true,
    },
    modularPrecheck: {
      flags: '--no-modular-precheck',
      description:
        'with --bias modular, refine as the paper does even when no modular proof can exist (by default thread-modular model checking is asked first, in at most 2 s; when its fixpoint reaches an error there is no modular proof, the modular clauses are skipped, and clauses over the groups of threads whose thread-modular checking together reaches no error, if any are found, come before the unbiased ones)',
      default: true,
    },
    maxIterations: { flags: '--max-iterations <N>', description: 'refinement iterations before UNKNOWN', default: 1000, parse: parseCount },
    solver: solverOption,
  },
  async run(p, o, ctx) {
    const rounds: NonNullable<VerifyStats['rounds']> = [];
    const answer = await withSolvers(
      o.solver,
      p,
      ctx,
      (solver, run) =>
        verify(p, solver, {
          ...run, // the checker is independent of the solver that built the proof
          bias: o.bias,
          hornSolver: o.hornSolver,
          shareInstances: o.shareInstances,
          allValues: o.allValues,
          modularPrecheck: o.modularPrecheck,
          maxIterations: o.maxIterations,
          keepGraphs: ctx.record,
          hornTimeoutMs: QUERY_CAP_MS, // the engine also caps it by the deadline
          onProgress: ctx.progress && progressLine(ctx.progress),
          onRefined: ctx.log.isLevelEnabled('debug') || ctx.record ? logRound(ctx, rounds) : undefined,
        }),
      { timeoutMs: ctx.budget.queryMs(QUERY_CAP_MS) },
    );
    return ctx.record ? { ...answer, verdict: { ...answer.verdict, stats: { ...answer.verdict.stats, rounds } } } : answer;
  },
  certificate: proofSmt2,
  report: aretReport,
};

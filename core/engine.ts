/**
 * What an engine is, declared rather than hard-wired (as CPAchecker's
 * ConfigurableProgramAnalysis names each operator of an analysis): its name and one
 * line, the lowering it reads, its options with defaults and help text, how it runs,
 * how its results read, and its certificate if it writes one. The registry
 * (engines/registry.ts) lists every engine; `rely verify --engine`, `rely bench
 * --engine`, `--help` and the table of engines in docs/engines.md are generated from it, so a
 * new engine is one folder and one registry entry.
 */
import type { Graph } from './dot.js';
import type { Logger } from 'pino';
import type { BackendName, QueryOptions, SmtSolver } from '../solver/smt.js';
import { SolverPool, type SolverChoice } from '../solver/select.js';
import type { Program } from '../program/program.js';
import type { Budget } from './budget.js';
import type { Outcome } from './outcome.js';
import type { LtlProperty } from './property.js';
import type { LivenessOutcome } from './lasso.js';

/** A usage error in an option's value; the CLI shows the message beside the flag. */
export class OptionError extends Error {}

/** One option, declared once: the CLI's flag, its help text and default come from here. */
export interface EngineOption<T> {
  /** As commander writes them: `--bias <bias>`, or `--no-share-instances` for a flag that defaults to true. */
  readonly flags: string;
  readonly description: string;
  readonly choices?: readonly string[];
  readonly default?: T;
  /** Reads the flag's argument; throws OptionError with the reason. */
  readonly parse?: (value: string) => T;
}

/** Every option of `O` declared, under its key (commander's attribute name for the flags). */
export type OptionsOf<O> = { readonly [K in keyof O]-?: EngineOption<O[K]> };

/** What a run has beyond the engine's options. */
export interface RunContext {
  readonly budget: Budget;
  /** Diagnostics (pino): internal errors at `error`, the ARET's refinements at `debug`. */
  readonly log: Logger;
  /** Shows one line of progress, rewritten in place; absent when nobody watches. */
  readonly progress?: (line: string) => void;
  /** Niceness of the run's solver processes (a portfolio's background lane; default 0). */
  readonly nice?: number;
  /** `--proof`: SAFE is wanted only with a certificate (a portfolio takes it only from a lane that writes one). */
  readonly certificate?: boolean;
  /** `--report`: keep what the page shows beyond the verdict (the ARET's refinement rounds). */
  readonly record?: boolean;
}

/** Every engine counts its time; the rest of its statistics is its own. */
export interface EngineStats {
  readonly timeMs: number;
}

/** An engine's answer: the verdict and its statistics … */
export type EngineVerdict<P, S extends EngineStats> = Outcome<P> & { readonly stats: S };
/** … and the SMT back end it ran (null: none). */
export interface EngineResult<P, S extends EngineStats> {
  readonly verdict: EngineVerdict<P, S>;
  readonly backend: BackendName | null;
}

/** How a run is shown, for its report. */
export interface RunInfo<O> {
  /** The engine's name. */
  readonly engine: string;
  readonly options: O;
  readonly backend: BackendName | null;
  /** Where the certificate was written, if it was. */
  readonly proofFile?: string;
}

/** The fields of `--json` that depend on the engine (null where it has none). */
export interface JsonSummary {
  readonly modular: boolean | null;
  readonly iterations: number | null;
  readonly predicates: number | null;
  readonly bias: string | null;
  readonly hornSolver: string | null;
  /** The engine whose verdict it is, where it differs from the one run (a portfolio's lane). */
  readonly decidedBy?: string | null;
}

/** How an engine's results read; statistics are rendered by the engine that owns them. */
export interface EngineReport<O, P, S extends EngineStats> {
  /** The lines under SAFE: what the proof is and how it was re-checked. */
  proof(p: Program, proof: P, stats: S, run: RunInfo<O>): string;
  /** Lines after the verdict (and trace), before the statistics. */
  notes?(v: EngineVerdict<P, S>): string[];
  /** The lines of the statistics block (core/statistics.ts statisticsText puts them under `statistics:`, the time last). */
  stats(stats: S, run: RunInfo<O>): string[];
  /** Its fields of `--json`; without, all null. */
  json?(v: EngineVerdict<P, S>, run: RunInfo<O>): JsonSummary;
  /** What the proof says holds at each location of each thread (C-like text), for the HTML report. */
  invariants?(p: Program, proof: P): readonly Invariant[];
  /** Per thread, the environment steps the proof lets it tolerate (the ARET's E_i), for the HTML report. */
  environments?(p: Program, proof: P): readonly { readonly thread: number; readonly text: string }[];
  /** The verdict's graphs (DOT: a proof's, the last abstraction's, a refinement's clauses), for --dot and the HTML report. */
  graphs?(p: Program, v: EngineVerdict<P, S>): readonly Graph[];
  /** The refinement rounds a run recorded (RunContext.record): how each was answered and the predicates it added. */
  rounds?(stats: S): readonly Round[];
}

/** One refinement round, as the HTML report shows it. */
export interface Round {
  readonly iteration: number;
  /** Which clauses answered it and which solver. */
  readonly how: string;
  readonly learned: readonly string[];
}

/** The proof's invariant of thread `thread` at location `pc`. */
export interface Invariant {
  readonly thread: number;
  readonly pc: number;
  readonly text: string;
}

/**
 * What an engine decides: the program's assertions (no error location is reachable:
 * SAFE with a checked proof, UNSAFE with a replayed trace), or a linear-time property
 * (`rely verify --ltl`: every fair run satisfies it; it holds, or a replayed lasso or
 * deadlock violates it).
 */
export type Decides = 'assertions' | 'ltl';

/** Per kind of property: what a run is given beside the program, what it answers, how the answer reads. */
interface PropertyKinds<O, P, S extends EngineStats> {
  readonly assertions: { property: void; verdict: EngineVerdict<P, S>; report: EngineReport<O, P, S> };
  readonly ltl: { property: LtlProperty; verdict: LivenessOutcome<S & LivenessStats>; report: LivenessReport<S> };
}

/**
 * An engine: safety and liveness engines differ in the property they decide (`K`),
 * and so in their verdicts and reports, not in how they are declared, given their
 * options and budget, and run.
 */
export interface Engine<O, P, S extends EngineStats, K extends Decides = 'assertions'> {
  readonly name: string;
  /** One line for `--help` and docs/engines.md's table. */
  readonly description: string;
  readonly decides: K;
  /** Whether calls are inlined (the symbolic engines) or kept as push/pop transitions (the explicit ones, which allow recursion). */
  readonly lowering: 'inline' | 'keep';
  /** Reads template threads (Thread.replicated): its SAFE holds for any number of instances. The others get programs without templates. */
  readonly templates?: true;
  readonly options: OptionsOf<O>;
  /** Decides `property` of `program` within `ctx.budget`; every solver it opens is closed before it returns. */
  run(program: Program, options: O, ctx: RunContext, property: PropertyKinds<O, P, S>[K]['property']): Promise<{ readonly verdict: PropertyKinds<O, P, S>[K]['verdict']; readonly backend: BackendName | null }>;
  /** `--proof`: the proof as an SMT-LIB 2 script any solver checks, if the engine writes one. */
  readonly certificate?: (program: Program, proof: P) => string;
  readonly report: PropertyKinds<O, P, S>[K]['report'];
}

/** What a solver-based engine's search gets beside its solver (withSolvers). */
export interface CheckedRun {
  /** A fresh solver for re-checking a proof, independent of the one that found it. */
  readonly checker: () => SmtSolver;
  readonly budget: Budget;
  /** Internal errors that turn into UNKNOWN, logged. */
  readonly onInternalError: (message: string) => void;
}

/**
 * Runs `search` on a solver of back end `choice` (with `defaults` for its queries), with
 * checkers from the same pool; every solver is closed afterwards, and a stop from
 * outside (the budget's signal) closes them at once.
 */
export async function withSolvers<V>(
  choice: SolverChoice,
  p: Program,
  ctx: RunContext,
  search: (solver: SmtSolver, run: CheckedRun) => Promise<V>,
  defaults?: QueryOptions,
): Promise<{ verdict: V; backend: BackendName }> {
  const solvers = new SolverPool(choice, { stop: ctx.budget.signal, nice: ctx.nice, limits: ctx.budget.solverLimits() });
  try {
    const solver = solvers.open(defaults);
    const verdict = await search(solver, { checker: () => solvers.open(), budget: ctx.budget, onInternalError: (message) => ctx.log.error({ file: p.file }, message) });
    return { verdict, backend: solver.backendName };
  } finally {
    await solvers.closeAll();
  }
}

/** What a liveness engine's statistics have in common. */
export interface LivenessStats extends EngineStats {
  /** States explored (the engine says of what). */
  readonly states: number;
}

/** How a liveness verdict reads (cli/ltl.ts puts it together). */
export interface LivenessReport<S> {
  /** The lines under SAFE: what the proof is. */
  proof(s: S): string[];
  /** The statistics line's items (time and states come first, from the caller). */
  stats(s: S): string[];
}

/** An engine for linear-time properties: its counterexamples are replayed (engines/state-space/lasso.ts) before it returns them. */
export type LivenessEngine<S extends LivenessStats> = Engine<object, null, S, 'ltl'>;

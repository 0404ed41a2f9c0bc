/**
 * Human and JSON renderings of explorer and verifier results and traces. A verdict's
 * output is the same for every engine — the verdict line, the proof summary or the
 * trace, then statistics — with the engine's own parts from its report
 * (core/engine.ts).
 */
import { showValue } from '../solver/formula.js';
import type { Program } from '../program/program.js';
import type { EngineReport, EngineStats, EngineVerdict, RunInfo } from '../core/engine.js';
import { ms, statisticsText } from '../core/statistics.js';
import { errorPos, stepText, type TraceStep } from '../core/trace.js';
import type { ExploreResult } from '../engines/state-space/explore.js';

export function traceText(trace: readonly TraceStep[]): string {
  const width = String(trace.length).length;
  return trace
    .map((s, i) => {
      const what = stepText(s);
      const vals = s.values.map(([v, x]) => `${v}=${showValue(x)}`).join(' ');
      return `  ${String(i + 1).padStart(width)}. ${s.thread} ${s.pos.file}:${s.pos.line}  ${what}${vals ? `   | ${vals}` : ''}`;
    })
    .join('\n');
}

/** Where an error trace ends. */
export function errorAt(trace: readonly TraceStep[]): string {
  const pos = errorPos(trace);
  return `thread ${trace[trace.length - 1].thread} reaches its error location at ${pos.file}:${pos.line}`;
}

export function exploreText(p: Program, r: ExploreResult): string {
  const [lo, hi] = r.nondetRange;
  const stats = `${r.states} states, ${r.transitionsFired} transitions fired, ${ms(r.timeMs)}`;
  if (r.errorReachable) {
    return `error reachable: ${errorAt(r.trace!)}\ntrace (${r.trace!.length} steps):\n${traceText(r.trace!)}\n(${stats})\n`;
  }
  let scope: string;
  if (!r.complete) scope = `within bounds: stopped at the state bound after ${r.states} states (not exhaustive)`;
  else if (r.usedNondetRange) scope = `within bounds: exhaustive for nondeterministic values in ${lo}..${hi}`;
  else scope = 'in any run: exhaustive, and no nondeterministic choice was cut to a range';
  return `no error ${scope}\n(${stats}; ${p.threads.length} threads)\n`;
}

function traceJson(t?: readonly TraceStep[]): unknown {
  return (
    t?.map((s) => ({
      thread: s.thread,
      transition: s.transition,
      file: s.pos.file,
      line: s.pos.line,
      steps: s.steps.map((x) => ({ line: x.pos.line, text: x.text })),
      values: Object.fromEntries(s.values.map(([v, x]) => [v, showValue(x)])),
    })) ?? null
  );
}

function warningsJson(p: Program): unknown {
  return p.warnings.map((w) => ({ file: w.pos.file, line: w.pos.line, col: w.pos.col, message: w.message }));
}

export function exploreJson(p: Program, r: ExploreResult): unknown {
  return {
    result: r.errorReachable ? 'error-reachable' : 'no-error',
    complete: r.complete,
    usedNondetRange: r.usedNondetRange,
    nondetRange: r.nondetRange.map(String),
    states: r.states,
    transitionsFired: r.transitionsFired,
    timeMs: Math.round(r.timeMs),
    threads: p.threads.length,
    trace: traceJson(r.trace),
    warnings: warningsJson(p),
  };
}

function unsafeText(trace: readonly TraceStep[]): string {
  return `UNSAFE\n${errorAt(trace)}\ntrace (${trace.length} step${trace.length === 1 ? '' : 's'}, replayed in the interpreter):\n${traceText(trace)}`;
}

/** The verdict line, then the proof (with where its certificate went) or the trace, the engine's notes, and its statistics. */
export function verifyText<O, P, S extends EngineStats>(p: Program, report: EngineReport<O, P, S>, v: EngineVerdict<P, S>, run: RunInfo<O>): string {
  const certificate = run.proofFile ? `\n  certificate: ${run.proofFile} (check it with: z3 ${run.proofFile}; every answer must be unsat)` : '';
  const head =
    v.verdict === 'safe' ? `SAFE\n${report.proof(p, v.proof, v.stats, run)}${certificate}` : v.verdict === 'unsafe' ? unsafeText(v.trace) : `UNKNOWN: ${v.reason}`;
  return [head, ...(report.notes?.(v) ?? []), statisticsText(report.stats(v.stats, run), v.stats.timeMs)].join('\n') + '\n';
}

export function verifyJson<O, P, S extends EngineStats>(p: Program, report: EngineReport<O, P, S>, v: EngineVerdict<P, S>, run: RunInfo<O>): unknown {
  // Fields an engine does not have (a REACHENV proof, iterations, a bias) are null.
  const own = report.json?.(v, run) ?? { modular: null, iterations: null, predicates: null, bias: null, hornSolver: null };
  return {
    file: p.file,
    verdict: v.verdict,
    reason: v.verdict === 'unknown' ? v.reason : null,
    modular: own.modular,
    iterations: own.iterations,
    predicates: own.predicates,
    timeMs: Math.round(v.stats.timeMs),
    solver: run.backend,
    engine: run.engine,
    // No engine decided an UNKNOWN (a bounded search's lane may have decided its own program).
    decidedBy: v.verdict === 'unknown' ? null : own.decidedBy !== undefined ? own.decidedBy : run.engine,
    bias: own.bias,
    hornSolver: own.hornSolver,
    proofChecked: v.verdict === 'safe' && v.proofChecked,
    traceReplayed: v.verdict === 'unsafe' && v.traceReplayed,
    proofFile: run.proofFile ?? null,
    counterexample: v.verdict === 'unsafe' ? traceJson(v.trace) : null,
    threads: p.threads.length,
    // Thread-creating loops cut at this many iterations (a bounded search), else null.
    instanceBound: p.instanceBound ?? null,
    stats: v.stats,
    warnings: warningsJson(p),
  };
}

/** A SARIF log's run.properties: the fields of --json but the trace (the log's code flow holds it), with the proof and the statistics as the text output prints them. */
export function verifyProperties<O, P, S extends EngineStats>(p: Program, report: EngineReport<O, P, S>, v: EngineVerdict<P, S>, run: RunInfo<O>): Record<string, unknown> {
  const json = verifyJson(p, report, v, run) as Record<string, unknown>;
  delete json.counterexample;
  return {
    ...json,
    property: 'no run reaches an error location: none of the violations of tool.driver.rules happens',
    proof: v.verdict === 'safe' ? report.proof(p, v.proof, v.stats, run).split('\n') : null,
    statistics: statisticsText(report.stats(v.stats, run), v.stats.timeMs).split('\n').slice(1).map((l) => l.slice(2)),
  };
}

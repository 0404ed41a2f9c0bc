/** Human and JSON renderings of explorer and verifier results and traces. */
import type { ExploreResult, TraceStep } from '../explicit/explore.js';
import type { Program } from '../frontend/program.js';
import type { Verdict, VerifyStats } from '../aret/verify.js';
import type { MonolithicStats, MonolithicVerdict } from '../monolithic/verify.js';
import type { ExplicitProof, ExplicitStats, ExplicitVerdict } from '../explicit/verify.js';
import type { Bias, HornSolverChoice } from '../horn/refine.js';
import type { BackendName } from '../solver/smt.js';

export function traceText(trace: readonly TraceStep[]): string {
  const width = String(trace.length).length;
  return trace
    .map((s, i) => {
      const what = s.steps.map((x) => x.text).filter(Boolean).join('; ') || '(local steps)';
      const vals = s.values.map(([v, x]) => `${v}=${x}`).join(' ');
      return `  ${String(i + 1).padStart(width)}. ${s.thread} ${s.pos.file}:${s.pos.line}  ${what}${vals ? `   | ${vals}` : ''}`;
    })
    .join('\n');
}

/** Where an error trace ends. */
function errorAt(trace: readonly TraceStep[]): string {
  const last = trace[trace.length - 1];
  return `thread ${last.thread} reaches its error location at ${last.pos.file}:${last.pos.line}`;
}

export function exploreText(p: Program, r: ExploreResult): string {
  const [lo, hi] = r.nondetRange;
  const stats = `${r.states} states, ${r.transitionsFired} transitions fired, ${Math.round(r.timeMs)} ms`;
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
      values: Object.fromEntries(s.values.map(([v, x]) => [v, x.toString()])),
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
    unsignedWrap: r.unsignedWrap ? { variable: r.unsignedWrap.variable, trace: traceJson(r.unsignedWrap.trace) } : null,
    warnings: warningsJson(p),
  };
}

/** How `rely verify` ran, beyond what the verdict records. */
export interface VerifyRun {
  readonly bias: Bias;
  readonly hornSolver: HornSolverChoice;
  /** The SMT back end (null for the explicit engines, which use none). */
  readonly backend: BackendName | null;
  /** Where the proof certificate was written, if it was. */
  readonly proofFile?: string;
}

export type AnyVerdict = Verdict | MonolithicVerdict | ExplicitVerdict;

const isExplicit = (v: AnyVerdict): v is ExplicitVerdict => 'engine' in v && v.engine !== 'monolithic';

export function verifyText(p: Program, v: AnyVerdict, run: VerifyRun): string {
  if (isExplicit(v)) return explicitText(p, v);
  const head =
    v.verdict === 'safe'
      ? `SAFE\n${'engine' in v ? invariantText(v.stats, run) : proofText(p, v.proof.modular, v.stats, run)}`
      : v.verdict === 'unsafe'
        ? unsafeText(v.trace)
        : `UNKNOWN: ${v.reason}`;
  return `${head}\n${'engine' in v ? monolithicStatsText(v.stats, run) : statsText(v.stats, run)}`;
}

function unsafeText(trace: readonly TraceStep[]): string {
  return `UNSAFE\n${errorAt(trace)}\ntrace (${trace.length} steps, replayed in the interpreter):\n${traceText(trace)}`;
}

/** `--engine explicit-global|explicit-modular`. */
function explicitText(p: Program, v: ExplicitVerdict): string {
  const s = v.stats;
  const c = s.confirmation;
  const lines: string[] = [];
  if (v.verdict === 'safe') lines.push('SAFE', explicitProofText(v.proof, s));
  else if (v.verdict === 'unsafe') lines.push(unsafeText(v.trace));
  else lines.push(`UNKNOWN: ${v.reason}`);
  if (c && v.verdict !== 'unknown')
    lines.push(`(the thread-modular abstraction reached an error; explicit-global ${c.verdict === 'error' ? 'confirmed it' : 'refuted it: no error in the product program'})`);
  const ms = (x: number) => `${Math.round(x)} ms`;
  lines.push(
    'statistics:',
    `  engine: ${v.engine}, ${s.states} states${s.guarantee === null ? '' : `, ${s.guarantee} guarantee entries`}, ${s.transitionsFired} transitions fired`,
  );
  if (c) lines.push(`  explicit-global (confirmation): ${c.states} states, ${ms(c.timeMs)}`);
  lines.push(`  bound: ${s.bound ?? 'none (the search is exact)'}`, `  time: ${ms(s.timeMs)}`);
  return `${lines.join('\n')}\n`;
}

/** At most this many threads are listed one by one. */
const LISTED_THREADS = 8;

function explicitProofText(proof: ExplicitProof, s: ExplicitStats): string {
  if (proof.kind === 'global') return `proof: all ${proof.states} reachable states of the product program explored, the set re-checked closed under every transition`;
  const shown = proof.threads.slice(0, LISTED_THREADS).map((t) => {
    const sums = t.summaries ? `, ${t.summaries} summaries across a call` : '';
    return `  ${t.thread}: ${t.states} states${sums}; guarantee ${t.guarantee} updates${t.writes.length ? ` of ${t.writes.join(', ')}` : ''}`;
  });
  const more = proof.threads.length - shown.length;
  return [
    `proof: thread-modular fixpoint of reachable states and guarantees G(t, g, g') (Flanagan–Qadeer AG rules), re-checked rule by rule`,
    ...shown,
    ...(more > 0 ? [`  … and ${more} more threads (${s.states} states, ${s.guarantee} guarantee entries in all)`] : []),
  ].join('\n');
}

function proofText(p: Program, modular: boolean, s: VerifyStats, run: VerifyRun): string {
  const name = (i: number) => p.threads[i].name;
  const perThread = s.statePredicates.map((n, i) => `${name(i)} ${n}`).join(', ');
  const perPair = s.pairPredicates.map((x) => `${name(x.source)}▷${name(x.target)} ${x.count}`).join(', ') || 'none';
  const lines = [
    `proof: R_i and E_i per thread (rule REACHENV), checked against CS1–CS5 by a fresh ${run.backend} solver`,
    modular
      ? '  modular: yes (each R_i over globals and thread i\'s locals, each E_i over globals)'
      : '  modular: no (some R_i mentions another thread\'s locals, or some E_i a local)',
    `  state predicates per thread: ${perThread}`,
    `  transition predicates per pair i▷j: ${perPair}`,
  ];
  if (run.proofFile) lines.push(`  certificate: ${run.proofFile} (check it with: z3 ${run.proofFile}; every answer must be unsat)`);
  return lines.join('\n');
}

/** What the modular precheck found: no modular proof, and the groups of threads a proof may keep to. */
function biasText(s: VerifyStats): string {
  if (!s.modularExcluded) return '';
  const groups = s.groups ? `; with the threads grouped as ${s.groups.map((g) => `{${g.join(', ')}}`).join(' ')} it reaches none, so the grouped clauses come first` : '';
  return `; no modular proof exists: thread-modular model checking reached an error${groups}`;
}

function statsText(s: VerifyStats, run: VerifyRun): string {
  const ms = (x: number) => `${Math.round(x)} ms`;
  return [
    'statistics:',
    `  iterations ${s.iterations}, predicates ${s.predicates}, last ARET: ${s.aretStates} states, ${s.envTransitions} env transitions`,
    `  refinements: ${s.refinements.modular} modular, ${s.groups ? `${s.refinements.grouped} grouped, ` : ''}${s.refinements.unbiased} unbiased (bias: ${run.bias}${biasText(s)})${s.horn.enumerating ? `; ${s.horn.enumerating} biased solutions passed over (they only enumerated constants)` : ''}`,
    `  Horn solver ${run.hornSolver}: ${s.horn.answeredBy.linear} answered by SOLVELINEARHC, ${s.horn.answeredBy.spacer} by Spacer${fallbacks(s)}`,
    `  solver: ${run.backend}, queries ${s.solver.queries} (cache hits ${s.solver.cacheHits}), Horn queries ${s.solver.hornQueries}, ${ms(s.solver.timeMs)}`,
    `  time: ${ms(s.timeMs)}`,
  ].join('\n') + '\n';
}

/** `--engine monolithic`: the proof is one invariant of the product program. */
function invariantText(s: MonolithicStats, run: VerifyRun): string {
  const lines = [
    `proof: one inductive invariant of the product program, checked by a fresh ${run.backend} solver`,
    `  invariant: ${s.invariant?.atoms ?? '?'} atoms over ${s.invariant?.variables ?? '?'} variables`,
  ];
  if (run.proofFile) lines.push(`  certificate: ${run.proofFile} (check it with: z3 ${run.proofFile}; every answer must be unsat)`);
  return lines.join('\n');
}

function monolithicStatsText(s: MonolithicStats, run: VerifyRun): string {
  const ms = (x: number) => `${Math.round(x)} ms`;
  const unrolled = s.unrolledSteps === null ? '' : ` (${s.unrolledSteps} steps)`;
  return [
    'statistics:',
    `  engine: monolithic, ${s.clauses} Horn clauses over one relation of ${s.variables} variables (cone of influence; ${s.wholeVariables} in the program)`,
    `  Spacer ${ms(s.spacerMs)}, invariant check ${ms(s.checkMs)}, trace search by unrolling ${ms(s.unrollMs)}${unrolled}`,
    `  solver: ${run.backend}, queries ${s.solver.queries} (cache hits ${s.solver.cacheHits}), Horn queries ${s.solver.hornQueries}, ${ms(s.solver.timeMs)}`,
    `  time: ${ms(s.timeMs)}`,
  ].join('\n') + '\n';
}

function fallbacks(s: VerifyStats): string {
  const f = Object.entries(s.horn.fallbacks);
  return f.length ? `; handed to Spacer: ${f.map(([why, n]) => `${n}× ${why}`).join(', ')}` : '';
}

export function verifyJson(p: Program, v: AnyVerdict, run: VerifyRun): unknown {
  // The other engines have no REACHENV proof, iterations, predicates, bias or refinement solver.
  const mono = 'engine' in v;
  return {
    file: p.file,
    verdict: v.verdict,
    reason: v.verdict === 'unknown' ? v.reason : null,
    modular: v.verdict === 'safe' && !('engine' in v) ? v.proof.modular : null,
    iterations: mono ? null : v.stats.iterations,
    predicates: mono ? null : v.stats.predicates,
    timeMs: Math.round(v.stats.timeMs),
    solver: run.backend,
    engine: mono ? v.engine : 'aret',
    bias: mono ? null : run.bias,
    hornSolver: mono ? null : run.hornSolver,
    proofChecked: v.verdict === 'safe' && v.proofChecked,
    traceReplayed: v.verdict === 'unsafe' && v.traceReplayed,
    proofFile: run.proofFile ?? null,
    counterexample: v.verdict === 'unsafe' ? traceJson(v.trace) : null,
    threads: p.threads.length,
    stats: v.stats,
    warnings: warningsJson(p),
  };
}

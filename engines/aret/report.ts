/** How the ARET engine's results read: the REACHENV proof's summary, its statistics, its fields of `--json`. */
import type { Program } from '../../program/program.js';
import type { EngineReport, Invariant, RunInfo } from '../../core/engine.js';
import { num, show, substitute } from '../../solver/formula.js';
import type { HornSolverChoice } from './horn/solve.js';
import type { Proof } from './proof.js';
import type { Bias } from './refine.js';
import { solverLine } from '../../core/statistics.js';
import type { VerifyStats } from './verify.js';

/** The options a report shows. */
type Shown = { readonly bias: Bias; readonly hornSolver: HornSolverChoice };

function proofText(p: Program, proof: Proof, s: VerifyStats, run: RunInfo<Shown>): string {
  const name = (i: number) => p.threads[i].name;
  const perThread = s.statePredicates.map((n, i) => `${name(i)} ${n}`).join(', ');
  const perPair = s.pairPredicates.map((x) => `${name(x.source)}▷${name(x.target)} ${x.count}`).join(', ') || 'none';
  return [
    `proof: R_i and E_i per thread (rule REACHENV), checked against CS1–CS5 by a fresh ${run.backend} solver`,
    proof.modular
      ? "  modular: yes (each R_i over globals and thread i's locals, each E_i over globals)"
      : "  modular: no (some R_i mentions another thread's locals, or some E_i a local)",
    `  state predicates per thread: ${perThread}`,
    `  transition predicates per pair i▷j: ${perPair}`,
  ].join('\n');
}

/** What the modular precheck found: no modular proof, and the groups of threads a proof may keep to. */
function biasText(s: VerifyStats): string {
  if (!s.modularExcluded) return '';
  const groups = s.groups ? `; with the threads grouped as ${s.groups.map((g) => `{${g.join(', ')}}`).join(' ')} it reaches none, so the grouped clauses come first` : '';
  return `; no modular proof exists: thread-modular model checking reached an error${groups}`;
}

function fallbacks(s: VerifyStats): string {
  const f = Object.entries(s.horn.fallbacks);
  return f.length ? `; handed to Spacer: ${f.map(([why, n]) => `${n}× ${why}`).join(', ')}` : '';
}

function statsText(s: VerifyStats, run: RunInfo<Shown>): string[] {
  const { bias, hornSolver } = run.options;
  return [
    `iterations ${s.iterations}, predicates ${s.predicates}, last ARET: ${s.aretStates} states, ${s.envTransitions} env transitions`,
    `refinements: ${s.refinements.modular} modular, ${s.groups ? `${s.refinements.grouped} grouped, ` : ''}${s.refinements.unbiased} unbiased (bias: ${bias}${biasText(s)})${s.horn.enumerating ? `; ${s.horn.enumerating} biased solutions passed over (they only enumerated constants)` : ''}${s.horn.widened ? `; ${s.horn.widened} predicates widened from counting sequences` : ''}`,
    `Horn solver ${hornSolver}: ${s.horn.answeredBy.linear} answered by SOLVELINEARHC, ${s.horn.answeredBy.spacer} by Spacer${fallbacks(s)}`,
    solverLine(run.backend, s.solver),
  ];
}

/** R_i at each of thread i's locations: R_i with pc_i set to the location (false: the proof says it is unreachable). */
function invariants(p: Program, proof: Proof): Invariant[] {
  return p.threads.flatMap((th, i) => th.locations.map((l) => ({ thread: i, pc: l.pc, text: show(substitute(proof.reach[i], new Map([[th.pc, num(l.pc)]]))) })));
}

export const aretReport: EngineReport<Shown, Proof, VerifyStats> = {
  proof: proofText,
  stats: statsText,
  invariants,
  environments: (p, proof) => p.threads.map((_, i) => ({ thread: i, text: show(proof.env[i]) })),
  // The final ARET (SAFE: the proof's; else the last one, when the run kept it), then each round's clauses.
  graphs: (_p, v) => [...((v.verdict === 'safe' ? v.proof.graphs : undefined) ?? v.stats.graphs ?? []), ...(v.stats.rounds ?? []).map((r) => r.clauses)],
  rounds: (s) => (s.rounds ?? []).map((r) => ({ iteration: r.iteration, how: `${r.level} clauses, ${r.by}`, learned: r.learned })),
  json: (v, run) => ({
    modular: v.verdict === 'safe' ? v.proof.modular : null,
    iterations: v.stats.iterations,
    predicates: v.stats.predicates,
    bias: run.options.bias,
    hornSolver: run.options.hornSolver,
  }),
};

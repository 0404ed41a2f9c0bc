/** How the explicit-state engines' results read: what the search covered, and the global engine's confirmation. */
import type { EngineReport, EngineVerdict, RunInfo } from '../../core/engine.js';
import { ms } from '../../core/statistics.js';
import type { ExplicitProof, ExplicitStats } from './verify.js';

/** At most this many threads are listed one by one. */
const LISTED_THREADS = 8;

function proofText(proof: ExplicitProof, s: ExplicitStats): string {
  if (proof.kind === 'global') {
    const upTo = proof.symmetry ? ` up to permutations of identical threads (${proof.symmetry}; each permutation checked to map the program onto itself)` : '';
    return `proof: all ${proof.states} reachable states of the product program explored${upTo} (states that differ only in dead variables taken as one), the set re-checked closed under every transition`;
  }
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

/** An error of the thread-modular abstraction, confirmed or refuted by the global engine. */
function notes(v: EngineVerdict<ExplicitProof, ExplicitStats>): string[] {
  const c = v.stats.confirmation;
  if (!c || v.verdict === 'unknown') return [];
  return [`(the thread-modular abstraction reached an error; explicit-global ${c.verdict === 'error' ? 'confirmed it' : 'refuted it: no error in the product program'})`];
}

function statsText(s: ExplicitStats, run: RunInfo<object>): string[] {
  return [
    `engine: ${run.engine}, ${s.states} states${s.guarantee === null ? '' : `, ${s.guarantee} guarantee entries`}, ${s.transitionsFired} transitions fired`,
    ...(s.confirmation ? [`explicit-global (confirmation): ${s.confirmation.states} states, ${ms(s.confirmation.timeMs)}`] : []),
    ...(s.symmetry ? [`symmetry: ${s.symmetry}`] : []),
    `bound: ${s.bound ?? 'none (the search is exact)'}`,
  ];
}

export const explicitReport: EngineReport<object, ExplicitProof, ExplicitStats> = {
  proof: (_p, proof, s) => proofText(proof, s),
  notes,
  stats: statsText,
};

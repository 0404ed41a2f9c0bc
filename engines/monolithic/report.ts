/** How the monolithic engine's results read: the invariant's size and where the time went. */
import type { EngineReport, RunInfo } from '../../core/engine.js';
import type { InvariantProof } from './proof.js';
import { ms, solverLine } from '../../core/statistics.js';
import type { MonolithicStats } from './verify.js';

export const monolithicReport: EngineReport<object, InvariantProof, MonolithicStats> = {
  proof: (_p, _proof, s, run) =>
    [
      `proof: one inductive invariant of the product program, checked by a fresh ${run.backend} solver`,
      `  invariant: ${s.invariant?.atoms ?? '?'} atoms over ${s.invariant?.variables ?? '?'} variables`,
    ].join('\n'),
  stats: (s: MonolithicStats, run: RunInfo<object>) => [
    `engine: monolithic, ${s.clauses} Horn clauses over one relation of ${s.variables} variables (cone of influence; ${s.wholeVariables} in the program)`,
    `Spacer ${ms(s.spacerMs)}, invariant check ${ms(s.checkMs)}, trace search by unrolling ${ms(s.unrollMs)}${s.unrolledSteps === null ? '' : ` (no trace of ${s.unrolledSteps} steps or fewer)`}`,
    solverLine(run.backend, s.solver),
  ],
};

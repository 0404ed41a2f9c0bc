/** How the thread-modular engine's results read: the invariants, and where the time went. */
import { show } from '../../solver/formula.js';
import type { EngineReport } from '../../core/engine.js';
import type { ThreadModularProof } from './encode.js';
import { ms, solverLine } from '../../core/statistics.js';
import type { ThreadModularStats } from './verify.js';

export const threadModularReport: EngineReport<object, ThreadModularProof, ThreadModularStats> = {
  proof: (p, proof, _s, run) =>
    [
      `proof: one invariant per thread over the globals and its own locals, checked by a fresh ${run.backend} solver${p.threads.some((t) => t.replicated) ? ' (template threads: for any number of instances)' : ''}`,
      ...(proof.lockOwners ? ['  with ghost owners of the lock flags: __owner[g] is the thread that took g (0: none)'] : []),
      ...[...proof.invariants].map(([name, inv]) => `  ${name}: ${show(inv)}`),
    ].join('\n'),
  stats: (s, run) => [
    `engine: thread-modular, ${s.clauses} Horn clauses${s.templates ? `, ${s.templates} template thread${s.templates === 1 ? '' : 's'}` : ''}`,
    `Spacer ${ms(s.spacerMs)}, proof check ${ms(s.checkMs)}`,
    solverLine(run.backend, s.solver),
  ],
};

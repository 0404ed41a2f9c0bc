/** The split engine as the registry sees it (core/engine.ts): Cohen–Namjoshi's local reasoning with refinement (check.ts). */
import type { LivenessEngine } from '../../core/engine.js';
import { checkLivenessSplit, type SplitStats } from './check.js';

export const splitEngine: LivenessEngine<SplitStats> = {
  name: 'split',
  description: 'liveness by local reasoning (Cohen–Namjoshi): the split invariant, one abstract process per thread checked against the automaton of the negated property, refined by exposing local state as shared booleans',
  decides: 'ltl',
  lowering: 'inline',
  options: {},
  run: async (p, _o, ctx, prop) => ({ verdict: checkLivenessSplit(p, prop, { budget: ctx.budget }), backend: null }),
  report: {
    proof: (s) => [
      `split invariant: ${s.invariantSize} views (Σ_k |θ_k|); every abstract process P̄[θ,i] passes Theorem 4's check (no fair run takes T_i infinitely often from accepting states)`,
      s.refinements ? `refinements: ${s.refinements}, exposing ${s.exposed.length} local predicate${s.exposed.length === 1 ? '' : 's'} as shared booleans:\n${s.exposed.map((e) => `    ${e}`).join('\n')}` : 'refinements: none',
    ],
    stats: (s) => [`${s.checks} abstract processes checked`, `split invariant ${s.invariantSize} views`, `${s.refinements} refinements`, `${s.newVariables} new variables`, ...s.symmetry.map((c) => `views up to symmetry of ${c}`)],
  },
};

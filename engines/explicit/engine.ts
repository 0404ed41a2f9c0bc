/** The explicit-state engines as the registry sees them (core/engine.ts): one declaration, two searches. */
import type { Engine, LivenessEngine, OptionsOf } from '../../core/engine.js';
import { checkLivenessGlobal, type GlobalLivenessStats } from '../state-space/liveness.js';
import { parseCount, parseRange } from '../../core/options.js';
import { DEFAULT_MAX_STATES, DEFAULT_NONDET_RANGE } from '../state-space/explore.js';
import { explicitReport } from './report.js';
import { verifyExplicit, type ExplicitEngine, type ExplicitProof, type ExplicitStats } from './verify.js';

export interface ExplicitEngineOptions {
  intRange?: [bigint, bigint];
  maxStates?: number;
}

/** Both engines read the same options. */
const explicitOptions: OptionsOf<ExplicitEngineOptions> = {
  intRange: {
    flags: '--int-range <LO..HI>',
    description: `int variables range over LO..HI (nondeterministic ints are drawn from it, values outside are not explored); without it values are exact and nondeterministic ints are drawn from ${DEFAULT_NONDET_RANGE[0]}..${DEFAULT_NONDET_RANGE[1]}. A result that depends on the bound is UNKNOWN and says so`,
    parse: parseRange,
  },
  maxStates: { flags: '--max-states <N>', description: `stop after this many states (default ${DEFAULT_MAX_STATES})`, parse: parseCount },
};

const explicitEngine = (name: ExplicitEngine, description: string): Engine<ExplicitEngineOptions, ExplicitProof, ExplicitStats> => ({
  name,
  description,
  decides: 'assertions',
  // They run procedures with their own stacks, so recursion is allowed.
  lowering: 'keep',
  options: explicitOptions,
  async run(p, o, ctx) {
    const verdict = verifyExplicit(p, name, {
      intRange: o.intRange,
      nondetRange: o.intRange,
      maxStates: o.maxStates,
      budget: ctx.budget,
      onInternalError: (message) => ctx.log.error({ file: p.file }, message),
    });
    return { verdict, backend: null };
  },
  report: explicitReport,
});

export const explicitGlobalEngine = explicitEngine('explicit-global', 'every reachable state of the product program, up to permutations of identical threads (finite-state programs; the explorer under the verdict rules)');
export const explicitModularEngine: Engine<ExplicitEngineOptions, ExplicitProof, ExplicitStats> = {
  ...explicitEngine('explicit-modular', 'Flanagan–Qadeer thread-modular model checking, one thread at a time against the others\' guarantees'),
  templates: true, // a template's own guarantee is part of its environment (Environment in modular.ts)
};

/** `--ltl` with explicit-global: the product of all threads with the automaton (liveness.ts), the baseline and oracle of the split engine. */
export const explicitGlobalLivenessEngine: LivenessEngine<GlobalLivenessStats> = {
  name: 'explicit-global',
  description: 'the product of all threads with the Büchi automaton of the negated property, fair accepting cycles by strongly connected components (the global baseline)',
  decides: 'ltl',
  lowering: 'inline',
  options: {},
  run: async (p, _o, ctx, prop) => ({ verdict: checkLivenessGlobal(p, prop, { budget: ctx.budget }), backend: null }),
  report: {
    proof: (s) => [`no fair accepting cycle in the product of all ${s.programStates} program states with the ${s.automatonStates}-state automaton of the negated property (${s.states} product states, explored exhaustively)`],
    stats: (s) => [`${s.programStates} program states`, `${s.automatonStates} automaton states`],
  },
};

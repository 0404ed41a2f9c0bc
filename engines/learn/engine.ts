/** The learn engine as the registry sees it (core/engine.ts): assume-guarantee reasoning with an assumption L* learns (assume-guarantee.ts). */
import type { Engine } from '../../core/engine.js';
import { OptionError } from '../../core/engine.js';
import { hasArrays, type Program } from '../../program/program.js';
import { arraysReason } from '../../core/errors.js';
import { InputError } from '../../program/diagnostics.js';
import { checkAssumeGuarantee, type AgStats } from './assume-guarantee.js';
import type { AssumptionTarget } from './round.js';
import type { Dfa } from './lstar.js';
import { dfaGraph } from '../../core/dot.js';

export interface LearnOptions {
  /** The threads of each component, by name, as --split gives them (S1 first); undefined: rely picks. */
  split?: readonly (readonly string[])[];
  /** Every component after S1 split into one per thread: Cobleigh's generalized decomposition. */
  generalized?: boolean;
  /** What L* learns: the strongest assumption (what S2 does) or the weakest (Cobleigh's). */
  assumption?: AssumptionTarget;
}

export interface LearnProof {
  readonly split: string;
  readonly assumption: Dfa;
  readonly events: readonly string[];
}

export interface LearnStats extends AgStats {
  readonly split: string;
}

/** `T1,T2|T3` as the components' names. */
function parseSplit(v: string): string[][] {
  const sides = v.split('|').map((s) => s.split(',').map((n) => n.trim()).filter((n) => n));
  if (sides.length < 2 || sides.some((s) => !s.length)) throw new OptionError("expected two or more non-empty lists of threads, e.g. 'main,thr1|thr2'");
  return sides;
}

/** The split's thread indices: the names given (a function's name stands for all its instances), or main with every thread that has an error location against the rest. */
function resolveSplit(p: Program, split: LearnOptions['split']): number[][] {
  if (!split) {
    const s1 = p.threads.filter((t) => t.index === 0 || t.errorPc !== undefined).map((t) => t.index);
    const s2 = p.threads.map((t) => t.index).filter((k) => !s1.includes(k));
    return s2.length ? [s1, s2] : [s1.slice(0, -1), s1.slice(-1)];
  }
  let col = 1;
  const side = (names: readonly string[]): number[] =>
    names.flatMap((n) => {
      const ts = p.threads.filter((t) => t.name === n || t.fn === n);
      if (!ts.length) throw new InputError({ file: '--split', line: 1, col }, `no thread '${n}' (threads: ${p.threads.map((t) => t.name).join(', ')})`);
      col += n.length + 1;
      return ts.map((t) => t.index);
    });
  const sides = split.map(side);
  const all = sides.flat();
  const missing = p.threads.filter((t) => !all.includes(t.index));
  const twice = all.find((k, i) => all.indexOf(k) !== i);
  if (missing.length || twice !== undefined) throw new InputError({ file: '--split', line: 1, col: 1 }, missing.length ? `every thread goes to one side; missing: ${missing.map((t) => t.name).join(', ')}` : `${p.threads[twice!].name} is on two sides`);
  return sides;
}

const names = (p: Program, ks: readonly number[]): string => ks.map((k) => p.threads[k].name).join(',');

/** The assumption's transitions that stay in accepting states, one line each (`q0 --x==1 / x=0--> q1`), at most `max`. */
function showAssumption(d: Dfa, events: readonly string[], max = 20): string[] {
  const lines: string[] = [];
  d.next.forEach((row, q) => {
    if (d.accepting[q]) row.forEach((t, e) => d.accepting[t] && lines.push(`    q${q} --${events[e]}--> q${t}`));
  });
  return lines.length > max ? [...lines.slice(0, max), `    … and ${lines.length - max} more`] : lines;
}

export const learnEngine: Engine<LearnOptions, LearnProof, LearnStats> = {
  name: 'learn',
  description: "assume-guarantee reasoning (Cobleigh): the threads split in two, an assumption on the second side's reads and writes of globals learned by L* until both premises hold (finite-state programs)",
  decides: 'assertions',
  lowering: 'inline',
  options: {
    split: {
      flags: '--split <S1|S2>',
      description:
        "the threads of each component, e.g. 'main,thr1|thr2' (a function's name stands for all its instances; the globals go with S1); three or more components are checked by the rule applied again on S2 (Cobleigh's generalized decomposition); default: main and the threads with assertions against the rest",
      parse: parseSplit,
    },
    generalized: { flags: '--generalized', description: "every component after S1 split into one per thread: 'S1|t1|t2|…', the rule applied recursively", default: false },
    assumption: {
      flags: '--assumption <target>',
      description: "what L* learns over the events the assumption sees: strongest, what S2 does (small when S2 is); weakest, every word S1 stays safe with (Cobleigh's target: large when S1's memory is observed through S2's reads)",
      choices: ['strongest', 'weakest'],
      default: 'strongest',
    },
  },
  async run(p, o, ctx) {
    const resolved = resolveSplit(p, o.split);
    const components = o.generalized ? [resolved[0], ...resolved.slice(1).flat().sort((a, b) => a - b).map((k) => [k])] : resolved;
    const split = components.map((ks) => names(p, ks)).join(' | ');
    if (hasArrays(p)) return { verdict: { verdict: 'unknown', reason: arraysReason('learn'), stats: { ...emptyStats(), split } }, backend: null };
    if (components.some((ks) => !ks.length)) return { verdict: { verdict: 'unknown', reason: 'assume-guarantee needs two sides: the program has one thread', stats: { ...emptyStats(), split } }, backend: null };
    const debug = ctx.log.isLevelEnabled('debug');
    const r = checkAssumeGuarantee(p, components, { budget: ctx.budget, assumption: o.assumption, onProgress: debug ? (n) => ctx.log.debug(n, n.kind === 'round' ? `round ${n.round}: ${n.end}` : 'conjecture') : undefined });
    const stats = { ...r.stats, split };
    if (r.verdict === 'safe') return { verdict: { verdict: 'safe', proof: { split, assumption: r.assumption, events: r.events }, proofChecked: true, stats }, backend: null };
    if (r.verdict === 'unsafe') return { verdict: { verdict: 'unsafe', trace: r.trace, traceReplayed: true, stats }, backend: null };
    return { verdict: { verdict: 'unknown', reason: r.reason, stats }, backend: null };
  },
  report: {
    graphs: (_p, v) => (v.verdict === 'safe' ? [dfaGraph('assumption', v.proof.assumption.accepting, v.proof.assumption.next, v.proof.events)] : []),
    proof: (_p, proof) =>
      [
        `proof: ⟨A⟩ S1 ⟨no error⟩ and ⟨true⟩ S2 ⟨A⟩ for S1 | S2 = ${proof.split}${proof.split.split(' | ').length > 2 ? ' (S2 = C2 | C3 | …, ⟨true⟩ S2 ⟨A⟩ by the rule again with an assumption learned per level)' : ''}, every premise re-checked by a fresh search; the learned assumption A (${proof.assumption.accepting.filter(Boolean).length} states, over the ${proof.events.length} of S2's events "reads / writes" it sees; S2's other events may come at any time):`,
        ...showAssumption(proof.assumption, proof.events),
      ].join('\n'),
    stats: (s, run) => [
      `engine: ${run.engine}, split ${s.split}, ${s.events} events (${s.visible} seen by the assumption), ${s.read} valuations read, ${s.rounds} rounds, assumption${s.assumptions.length > 1 ? `s ${s.assumptions.join(', ')}` : ` ${s.assumptionStates}`} states, ${s.queries} queries, ${s.conjectures} conjectures`,
      `largest single check: ${s.largestCheck} states (S1's states kept between checks: ${s.cachedStates})`,
    ],
  },
};

function emptyStats(): AgStats {
  return { timeMs: 0, queries: 0, conjectures: 0, events: 0, visible: 0, rounds: 0, read: 0, largestCheck: 0, cachedStates: 0, assumptionStates: 0, assumptions: [] };
}

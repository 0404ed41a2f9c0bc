/**
 * `rely decompose`: the question of Cobleigh's Chapter 5 on one program — does
 * assume-guarantee reasoning with a learned assumption check it in less memory than
 * monolithic verification? Every two-way split of the threads (the globals with S1), and
 * with an S2 of several threads its generalized decomposition S1 | t | t | … (Chapter 5),
 * is checked by `learn` (engines/learn/assume-guarantee.ts), side by side with explicit-global's
 * exhaustive search and explicit-modular's thread-modular fixpoint (which the thesis
 * did not have); the memory proxy is the largest state space any one check held.
 */
import type { Command } from 'commander';
import { loadProgram } from '../frontend/index.js';
import { parseCount } from '../core/options.js';
import { Budget } from '../core/budget.js';
import { explore } from '../engines/state-space/explore.js';
import { checkModular } from '../engines/state-space/modular.js';
import { checkAssumeGuarantee, type AgOutcome } from '../engines/learn/assume-guarantee.js';
import { EXIT, addCommon, cliParser, frontendOptions, logger, parseSeconds, warnAll, type Common, type Session } from './common.js';

const DEFAULT_MAX_SPLITS = 32;

interface Row {
  readonly split: string;
  readonly outcome: AgOutcome;
}

export function decomposeCommand(program: Command, session: Session): void {
  const { io } = session;
  addCommon(
    program
      .command('decompose')
      .description('check every two-way split of the threads, and its generalized decomposition (S2 one component per thread), by assume-guarantee reasoning with a learned assumption (--engine learn), against explicit-global and explicit-modular: verdict, assumption, queries, conjectures and the largest state space of any one check (the memory proxy), with the best split named')
      .argument('<file>', 'C source (.c) or preprocessed (.i) file')
      .option('--max <N>', `check at most N splits (default ${DEFAULT_MAX_SPLITS})`, cliParser(parseCount))
      .option('--timeout <S>', 'time limit per split and for explicit-global, in seconds (default 30)', parseSeconds)
      .option('--json', 'print one JSON object'),
  ).action((file: string, o: Common & { max?: number; timeout?: number; json?: boolean }) => {
    session.log = logger(o.logLevel, io);
    const p = loadProgram(file, { ...frontendOptions(o), calls: 'inline' });
    warnAll(p, io);
    const limit = (o.timeout ?? 30) * 1000;
    const n = p.threads.length;
    const rows: Row[] = [];
    // Each mask puts its threads in S1; S1 | S2 and S2 | S1 differ (the globals go with S1).
    // An S2 of several threads is also checked as the generalized decomposition S1 | t | t | ….
    const max = o.max ?? DEFAULT_MAX_SPLITS;
    /** Each check's own time limit, from when it starts. */
    const own = (): Budget => new Budget({ deadline: performance.now() + limit });
    for (let mask = 1; mask < 2 ** n - 1 && rows.length < max; mask++) {
      const s1 = p.threads.filter((t) => mask & (1 << t.index)).map((t) => t.index);
      const s2 = p.threads.filter((t) => !(mask & (1 << t.index))).map((t) => t.index);
      const name = (ks: readonly number[]): string => ks.map((k) => p.threads[k].name).join(',');
      for (const components of s2.length > 1 ? [[s1, s2], [s1, ...s2.map((k) => [k])]] : [[s1, s2]])
        if (rows.length < max) rows.push({ split: components.map(name).join(' | '), outcome: checkAssumeGuarantee(p, components, { budget: own() }) });
    }
    const global = explore(p, { budget: own() });
    const globalVerdict = !global.complete ? 'unknown' : global.errorReachable ? 'unsafe' : 'safe';
    // Thread-modular model checking over-approximates: an error it reaches may not be one.
    const modular = checkModular(p, { budget: own() });
    const modularVerdict = !modular.complete ? 'unknown' : modular.errorReachable ? 'error in the abstraction' : 'safe';
    const decided = rows.filter((r) => r.outcome.verdict !== 'unknown');
    const best = decided.reduce<Row | undefined>((b, r) => (!b || r.outcome.stats.largestCheck < b.outcome.stats.largestCheck ? r : b), undefined);
    const ratio = (r: Row): string => (global.complete && global.states ? (r.outcome.stats.largestCheck / global.states).toFixed(2) : '–');
    if (o.json)
      io.out(
        JSON.stringify({
          file,
          global: { verdict: globalVerdict, states: global.states, timeMs: global.timeMs },
          modular: { verdict: modularVerdict, states: modular.states, timeMs: modular.timeMs },
          splits: rows.map((r) => ({ split: r.split, verdict: r.outcome.verdict, ...(r.outcome.verdict === 'unknown' && { reason: r.outcome.reason }), ...r.outcome.stats })),
          best: best?.split ?? null,
        }) + '\n',
      );
    else {
      const lines = [
        `explicit-global: ${globalVerdict}, ${global.states} states, ${(global.timeMs / 1000).toFixed(2)} s`,
        `explicit-modular: ${modularVerdict}, ${modular.states} states, ${(modular.timeMs / 1000).toFixed(2)} s`,
        '',
        '| split (S1 with the globals \\| S2, or \\| C2 \\| C3 … generalized) | verdict | assumption states | events | queries | conjectures | largest check (states) | memory ratio to explicit-global | time |',
        '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
        ...rows.map((r) => {
          const s = r.outcome.stats;
          const v = r.outcome.verdict === 'unknown' ? `unknown (${r.outcome.reason})` : r.outcome.verdict;
          return `| ${r.split.replaceAll('|', '\\|')} | ${v} | ${s.assumptions.join(', ') || '–'} | ${s.events} | ${s.queries} | ${s.conjectures} | ${s.largestCheck} | ${ratio(r)} | ${(s.timeMs / 1000).toFixed(2)} s |`;
        }),
        '',
        best ? `best split: ${best.split} (largest check ${best.outcome.stats.largestCheck} states, memory ratio ${ratio(best)})` : 'no split decided the program',
      ];
      io.out(lines.join('\n') + '\n');
    }
    // A split that contradicts the exhaustive search is a soundness bug: said, and exit 4.
    const wrong = globalVerdict === 'unknown' ? [] : decided.filter((r) => r.outcome.verdict !== globalVerdict);
    if (wrong.length) {
      io.err(`rely: internal error: ${wrong.map((r) => r.split).join('; ')} contradict${wrong.length === 1 ? 's' : ''} explicit-global (${globalVerdict})\n`);
      session.code = EXIT.internal;
      return;
    }
    const unsafe = rows.some((r) => r.outcome.verdict === 'unsafe') || globalVerdict === 'unsafe';
    session.code = unsafe ? EXIT.errorFound : decided.length || globalVerdict === 'safe' ? EXIT.ok : EXIT.unknown;
  });
}

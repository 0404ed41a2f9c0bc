/**
 * `rely decompose`: the question of Cobleigh's Chapter 5 on one program — does
 * assume-guarantee reasoning with a learned assumption check it in less memory than
 * monolithic verification? Every two-way split of the threads (the globals with S1), and
 * with an S2 of several threads its generalized decomposition S1 | t | t | … (Chapter 5),
 * is checked by `learn` (engines/learn/assume-guarantee.ts), side by side with explicit-global's
 * exhaustive search and explicit-modular's thread-modular fixpoint (which the thesis
 * did not have); the memory proxy is the largest state space any one check held.
 *
 * The checks are synchronous: the command turns the event loop between them, so each
 * row is written as soon as its split is checked and a SIGINT (or the end of --timeout)
 * stops the command before the next split, with the best split so far named.
 */
import type { Command } from 'commander';
import { loadProgram } from '../frontend/index.js';
import { parseCount } from '../core/options.js';
import { Budget } from '../core/budget.js';
import { explore } from '../engines/state-space/explore.js';
import { checkModular } from '../engines/state-space/modular.js';
import { checkAssumeGuarantee, type AgOutcome } from '../engines/learn/assume-guarantee.js';
import { EXIT, addCommon, cliParser, frontendOptions, logger, onInterrupt, parseSeconds, statusLine, warnAll, type Common, type Session } from './common.js';

const DEFAULT_MAX_SPLITS = 32;
// 32 splits and the two explicit checks fit in the default --timeout, and the first row comes within seconds.
const DEFAULT_SPLIT_TIMEOUT_S = 3;
const DEFAULT_TIMEOUT_S = 120;

/** A split as checked: its components (thread indices, S1 first) and its name. */
interface Split {
  readonly name: string;
  readonly components: readonly (readonly number[])[];
}

interface Row {
  readonly split: string;
  readonly outcome: AgOutcome;
}

/** Why the command stopped before its last split. */
type Stop = 'timeout' | 'interrupted';

/**
 * The splits in the order they are checked, at most `max`: each mask puts its threads in
 * S1, so S1 | S2 and S2 | S1 differ (the globals go with S1); an S2 of several threads
 * is also checked as the generalized decomposition S1 | t | t | ….
 */
function splitsOf(threads: readonly { readonly index: number; readonly name: string }[], max: number): Split[] {
  const n = threads.length;
  const name = (ks: readonly number[]): string => ks.map((k) => threads[k].name).join(',');
  const splits: Split[] = [];
  for (let mask = 1; mask < 2 ** n - 1 && splits.length < max; mask++) {
    const s1 = threads.filter((t) => mask & (1 << t.index)).map((t) => t.index);
    const s2 = threads.filter((t) => !(mask & (1 << t.index))).map((t) => t.index);
    for (const components of s2.length > 1 ? [[s1, s2], [s1, ...s2.map((k) => [k])]] : [[s1, s2]])
      if (splits.length < max) splits.push({ name: components.map(name).join(' | '), components });
  }
  return splits;
}

/** One turn of the event loop: a SIGINT's handler runs, written output goes out. */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const TABLE_HEAD = [
  '| split (S1 with the globals \\| S2, or \\| C2 \\| C3 … generalized) | verdict | assumption states | events | queries | conjectures | largest check (states) | memory ratio to explicit-global | time |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
];

export function decomposeCommand(program: Command, session: Session): void {
  const { io } = session;
  addCommon(
    program
      .command('decompose')
      .description('check every two-way split of the threads, and its generalized decomposition (S2 one component per thread), by assume-guarantee reasoning with a learned assumption (--engine learn), against explicit-global and explicit-modular: verdict, assumption, queries, conjectures and the largest state space of any one check (the memory proxy), with the best split named')
      .argument('<file>', 'C source (.c) or preprocessed (.i) file')
      .option('--max <N>', `check at most N splits (default ${DEFAULT_MAX_SPLITS})`, cliParser(parseCount))
      .option('--split-timeout <S>', `time limit of each check (explicit-global, explicit-modular, each split), in seconds (default ${DEFAULT_SPLIT_TIMEOUT_S}); a check also stops where --timeout ends`, parseSeconds)
      .option('--timeout <S>', `time limit of the whole command, in seconds (default ${DEFAULT_TIMEOUT_S}): when it runs out, the splits not yet checked are skipped (their number is printed) and the best split so far is named`, parseSeconds)
      .option('--json', 'print one JSON object at the end (with `stopped`: null, "timeout" or "interrupted", and `skipped`: the splits not checked)')
      .addHelpText(
        'after',
        '\nPrints explicit-global\'s and explicit-modular\'s lines (each checked first, each printed when checked), then a row per split as soon as it is checked, then the best split (the decided one with the smallest largest check). On a terminal, stderr shows the split being checked. Ctrl-C (SIGINT) stops after the split being checked: the splits left are skipped and the best split so far is named. Exit codes: 0 no error found (a split or explicit-global decided), 1 error reachable, 2 usage, 3 nothing decided, 4 a split contradicts explicit-global (internal error).',
      ),
  ).action(async (file: string, o: Common & { max?: number; splitTimeout?: number; timeout?: number; json?: boolean }) => {
    session.log = logger(o.logLevel, io);
    const p = loadProgram(file, { ...frontendOptions(o), calls: 'inline' });
    warnAll(p, io);
    const splitMs = (o.splitTimeout ?? DEFAULT_SPLIT_TIMEOUT_S) * 1000;
    const totalS = o.timeout ?? DEFAULT_TIMEOUT_S;
    const end = performance.now() + totalS * 1000;
    let interrupted = false;
    /** A check's own budget: its split time limit, within what is left of the command's (none once interrupted). */
    const own = (): Budget => new Budget({ deadline: interrupted ? performance.now() : Math.min(performance.now() + splitMs, end) });
    const splits = splitsOf(p.threads, o.max ?? DEFAULT_MAX_SPLITS);
    const progress = io.errIsTty ? statusLine(io) : undefined;
    const rows: Row[] = [];
    let stopped: Stop | undefined;
    const stopListening = onInterrupt(() => (interrupted = true));
    try {
      progress?.show('explicit-global: checking…');
      const global = explore(p, { budget: own() });
      progress?.clear();
      const globalVerdict = !global.complete ? 'unknown' : global.errorReachable ? 'unsafe' : 'safe';
      if (!o.json) io.out(`explicit-global: ${globalVerdict}, ${global.states} states, ${(global.timeMs / 1000).toFixed(2)} s\n`);
      await turn();
      progress?.show('explicit-modular: checking…');
      const modular = checkModular(p, { budget: own() });
      progress?.clear();
      // Thread-modular model checking over-approximates: an error it reaches may not be one.
      const modularVerdict = !modular.complete ? 'unknown' : modular.errorReachable ? 'error in the abstraction' : 'safe';
      const ratio = (r: Row): string => (global.complete && global.states ? (r.outcome.stats.largestCheck / global.states).toFixed(2) : '–');
      if (!o.json) io.out([`explicit-modular: ${modularVerdict}, ${modular.states} states, ${(modular.timeMs / 1000).toFixed(2)} s`, '', ...TABLE_HEAD].join('\n') + '\n');
      await turn();
      for (const [k, s] of splits.entries()) {
        if (interrupted || performance.now() >= end) {
          stopped = interrupted ? 'interrupted' : 'timeout';
          break;
        }
        progress?.show(`[${k + 1}/${splits.length}] ${s.name}: checking…`);
        const r: Row = { split: s.name, outcome: checkAssumeGuarantee(p, s.components, { budget: own() }) };
        progress?.clear();
        rows.push(r);
        if (!o.json) {
          const st = r.outcome.stats;
          const v = r.outcome.verdict === 'unknown' ? `unknown (${r.outcome.reason})` : r.outcome.verdict;
          io.out(`| ${r.split.replaceAll('|', '\\|')} | ${v} | ${st.assumptions.join(', ') || '–'} | ${st.events} | ${st.queries} | ${st.conjectures} | ${st.largestCheck} | ${ratio(r)} | ${(st.timeMs / 1000).toFixed(2)} s |\n`);
        }
        await turn();
      }
      const skipped = splits.length - rows.length;
      const decided = rows.filter((r) => r.outcome.verdict !== 'unknown');
      const best = decided.reduce<Row | undefined>((b, r) => (!b || r.outcome.stats.largestCheck < b.outcome.stats.largestCheck ? r : b), undefined);
      if (o.json)
        io.out(
          JSON.stringify({
            file,
            global: { verdict: globalVerdict, states: global.states, timeMs: global.timeMs },
            modular: { verdict: modularVerdict, states: modular.states, timeMs: modular.timeMs },
            splits: rows.map((r) => ({ split: r.split, verdict: r.outcome.verdict, ...(r.outcome.verdict === 'unknown' && { reason: r.outcome.reason }), ...r.outcome.stats })),
            best: best?.split ?? null,
            stopped: stopped ?? null,
            skipped,
          }) + '\n',
        );
      else {
        const why = stopped === 'timeout' ? `the time limit of the whole command (--timeout ${totalS} s) ran out` : 'interrupted (SIGINT)';
        const so = stopped ? ' so far' : '';
        io.out(
          [
            '',
            ...(stopped ? [`stopped: ${why}: ${skipped} of ${splits.length} splits skipped`] : []),
            best ? `best split${so}: ${best.split} (largest check ${best.outcome.stats.largestCheck} states, memory ratio ${ratio(best)})` : `no split decided the program${so}`,
          ].join('\n') + '\n',
        );
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
    } finally {
      progress?.clear();
      stopListening();
    }
  });
}

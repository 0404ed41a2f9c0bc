/**
 * The study of Cobleigh's Chapter 5 on a run of the `ag` suite: per subject and n, the
 * memory ratio — the largest state space any one check of a configuration held, over
 * the states of the monolithic search (explicit-global) — the largest n each
 * configuration decides within the run's limit, and a plot of the learn engine's ratio
 * against n. Only runs whose verdict agrees with the manifest are measured: a timeout
 * is a lower bound, not a size.
 */
import type { Config, RunResult } from './bench.js';
import type { AgEntry } from './ag-bench.js';
import { cell, definite, line } from './bench-report.js';
import { plotSvg, type Series } from './scaling-report.js';

const MONOLITHIC = 'explicit-global';

/** What a configuration's run held at once: the learn engine's largest check, an explicit-state engine's states. */
const memoryOf = (r: RunResult): number | null => r.largestCheck ?? r.states;

export function agStudy(entries: readonly AgEntry[], configs: readonly Config[], results: readonly RunResult[], timeoutS: number): { markdown: string; svg: string } | null {
  if (!configs.some((c) => c.key === MONOLITHIC)) return null;
  const others = configs.filter((c) => c.key !== MONOLITHIC);
  const find = (e: AgEntry, c: Config): RunResult | undefined => results.find((r) => r.program === e.name && r.config === c.key);
  const ratio = (e: AgEntry, c: Config): number | null => {
    const [g, r] = [find(e, configs.find((x) => x.key === MONOLITHIC)!), find(e, c)];
    const [mg, mr] = [definite(g) ? memoryOf(g) : null, definite(r) ? memoryOf(r) : null];
    return mg && mr ? mr / mg : null;
  };
  const measured = (e: AgEntry, c: Config): string => {
    const r = find(e, c);
    const m = definite(r) ? memoryOf(r) : null;
    const q = ratio(e, c);
    return [cell(r), m !== null ? `${m.toLocaleString('en-US')} states` : '', q !== null ? `ratio ${q.toFixed(2)}` : ''].filter(Boolean).join(', ');
  };
  const families = [...new Set(entries.map((e) => e.family))];
  const largestN = (family: string, c: Config): string => {
    const ns = entries.filter((e) => e.family === family && e.expected === 'safe' && definite(find(e, c))).map((e) => e.n);
    const tried = entries.filter((e) => e.family === family && e.expected === 'safe').map((e) => e.n);
    return ns.length ? `${Math.max(...ns)}${Math.max(...ns) === Math.max(...tried) ? ' (all)' : ''}` : '–';
  };
  const global = configs.find((c) => c.key === MONOLITHIC)!;
  const learnConfigs = others.filter((c) => c.key.startsWith('learn'));
  const pseudo = families.map((f): Config => ({ key: f, label: f, args: [] }));
  const series = (c: Config): Series[] =>
    pseudo.map((f) => ({
      config: f,
      points: entries
        .filter((e) => e.family === f.key && e.expected === 'safe')
        .map((e) => ({ n: e.n, y: ratio(e, c) }))
        .filter((p): p is { n: number; y: number } => p.y !== null)
        .sort((a, b) => a.n - b.n),
    }));
  const ns = entries.map((e) => e.n);
  const svg = plotSvg(
    learnConfigs.map((c) => [{ id: c.key, title: `${c.label}: memory ratio vs n`, yTitle: 'largest check / explicit-global states', unit: '', empty: 'no run decided by both' }, series(c)] as const),
    pseudo,
    [Math.min(...ns), Math.max(...ns)],
  );
  const markdown = [
    '',
    "## Memory: Cobleigh's Chapter 5 study",
    '',
    `Per subject and n: each configuration's verdict and time, the largest state space any one of its checks held (learn: the largest query or premise check, as the thesis counts; explicit-modular: its facts; explicit-global: the states of the monolithic search) and the memory ratio to ${MONOLITHIC} (below 1: less memory than monolithic checking). \`ag-memory.svg\` plots the learn engine's ratio against n per family.`,
    '',
    line(['subject', 'n', 'expected', `${MONOLITHIC} (monolithic)`, ...others.map((c) => c.label)]),
    line(['---', '---', '---', '---', ...others.map(() => '---')]),
    ...entries.map((e) => line([e.family + (e.expected === 'unsafe' ? ' (bug)' : ''), String(e.n), e.expected, measured(e, global), ...others.map((c) => measured(e, c))])),
    '',
    `The largest n of each family decided within ${timeoutS} s ("all": every size in the suite).`,
    '',
    line(['family', ...configs.map((c) => c.label)]),
    line(['---', ...configs.map(() => '---')]),
    ...families.map((f) => line([f, ...configs.map((c) => largestN(f, c))])),
    '',
  ].join('\n');
  return { markdown, svg };
}

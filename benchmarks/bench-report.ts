/**
 * Tables of a benchmark run: a Markdown table laid out like the paper's Table 1
 * (our columns beside Threader's published times, with speed-ups) and a CSV with one
 * line per run.
 */
import { basename, dirname } from 'node:path';
import { CANNOT_READ, type Config, type Expected, type Machine, type ManifestEntry, type RunResult } from './bench.js';

const secs = (ms: number): string => (ms < 1000 ? `${(ms / 1000).toFixed(2)} s` : `${(ms / 1000).toFixed(1)} s`);

/**
 * ✓ safe, ✓-M with a modular proof, × unsafe, ? unknown (T/O for a timeout); WRONG
 * marks a wrong verdict; a portfolio's verdict names the lane that decided.
 */
/** SV-COMP's points for one answer: a proof +2, a bug +1, a wrong proof −32, a wrong bug −16, no answer 0. */
export function svcompPoints(expected: Expected, r: RunResult | undefined): number {
  if (!r || (r.verdict !== 'safe' && r.verdict !== 'unsafe')) return 0;
  if (r.verdict === 'safe') return expected === 'safe' ? 2 : -32;
  return expected === 'unsafe' ? 1 : -16;
}

export function cell(r: RunResult | undefined): string {
  if (!r) return '';
  if (r.verdict === 'error') return `ERROR (${r.reason})`;
  if (r.verdict === 'unknown') return r.reason === 'timeout' ? `T/O ${secs(r.timeMs)}` : `? ${secs(r.timeMs)} (${r.reason})`;
  const mark = r.verdict === 'unsafe' ? '×' : r.modular ? '✓-M' : '✓';
  const by = r.decidedBy && !r.config.startsWith(r.decidedBy) ? ` (${r.decidedBy})` : '';
  return `${r.wrong ? '**WRONG** ' : ''}${mark} ${secs(r.timeMs)}${by}`;
}

/** The geometric mean of `xs` (none: NaN). */
const geomean = (xs: readonly number[]): number => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);

function threaderCell(t: { verdict: string; modular: boolean; timeS: number | null } | undefined): string {
  if (!t) return '';
  if (t.verdict === 'timeout' || t.timeS === null) return 'T/O';
  return `${t.verdict === 'unsafe' ? '×' : t.modular ? '✓-M' : '✓'} ${t.timeS} s`;
}

/** A safe or unsafe verdict that agrees with the manifest: the runs whose time means something. */
export const definite = (r: RunResult | undefined): r is RunResult => r !== undefined && (r.verdict === 'safe' || r.verdict === 'unsafe') && !r.wrong;

/** `other / ours`, or `> x` when the other timed out and we did not. */
function speedup(ours: RunResult | undefined, otherMs: number | null | undefined, otherTimedOut = false): string {
  if (!definite(ours) || otherMs === undefined || otherMs === null) return '';
  const x = otherMs / Math.max(ours.timeMs, 1);
  return `${otherTimedOut ? '> ' : ''}${x >= 10 ? x.toFixed(0) : x.toFixed(1)}×`;
}

/** One row of a Markdown table. */
export const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;

export function markdownTable(entries: readonly ManifestEntry[], configs: readonly Config[], results: readonly RunResult[], m: Machine, timeoutS: number): string {
  const get = (e: ManifestEntry, c: Config) => results.find((r) => r.program === e.name && r.config === c.key);
  const withBias = configs[0];
  const mono = configs.find((c) => c.key === 'monolithic');
  const table1 = entries.some((e) => e.threader);
  const head = ['program', 'LOC', 'modular proof exists', ...configs.map((c) => c.label)];
  if (table1) head.push('Threader with bias', 'Threader no bias', `speed-up vs Threader (${withBias.label})`);
  if (mono && mono !== withBias) head.push(`speed-up vs monolithic (${withBias.label})`);
  const rows = entries.map((e) => {
    const row = [e.name, String(e.loc), e.modularProofExists === null ? '' : e.modularProofExists ? 'yes' : 'no', ...configs.map((c) => cell(get(e, c)))];
    if (table1) {
      const t = e.threader;
      const ours = get(e, withBias);
      // A speed-up compares like with like: not across different verdicts.
      const same = t !== undefined && t.withBias.timeS !== null && ours?.verdict === t.withBias.verdict;
      row.push(threaderCell(t?.withBias), threaderCell(t?.noBias), same ? speedup(ours, t.withBias.timeS! * 1000) : '');
    }
    if (mono && mono !== withBias) {
      const r = get(e, mono);
      // A lower bound only against a run that was stopped by the time limit; another UNKNOWN (unsupported, say) says nothing of speed.
      const timedOut = r?.verdict === 'unknown' && (r.reason ?? '').startsWith('timeout');
      row.push(r && !definite(r) && !timedOut ? '' : speedup(get(e, withBias), r ? r.timeMs : undefined, timedOut));
    }
    return row;
  });
  const totals = ['**total**', '', '', ...configs.map((c) => {
    const rs = entries.map((e) => get(e, c)).filter((r): r is RunResult => r !== undefined);
    const ok = rs.filter(definite).length;
    return `${ok}/${rs.length} decided, ${secs(rs.reduce((s, r) => s + r.timeMs, 0))}`;
  })];
  if (table1) {
    const sum = (k: 'withBias' | 'noBias') => {
      const s = entries.reduce((a, e) => a + (e.threader?.[k].timeS ?? 0), 0);
      return `${s.toFixed(1)} s${entries.some((e) => e.threader && e.threader[k].timeS === null) ? ' + T/O' : ''}`;
    };
    totals.push(sum('withBias'), sum('noBias'), '');
  }
  if (mono && mono !== withBias) {
    // Over the programs both decide: how many times faster the first column is, in geometric mean.
    const both = entries.map((e) => [get(e, withBias), get(e, mono)]).filter((pair): pair is [RunResult, RunResult] => pair.every(definite));
    totals.push(both.length ? `${geomean(both.map(([a, b]) => b.timeMs / Math.max(a.timeMs, 1))).toFixed(1)}× geometric mean over ${both.length}` : '');
  }
  const wrong = results.filter((r) => r.wrong);
  const errors = results.filter((r) => r.verdict === 'error');
  const param = entries.filter((e) => e.parameterized);
  const perConfig = (f: (c: Config) => string): string => configs.map((c) => `${c.label} ${f(c)}`).join('; ');
  return [
    `Run ${m.date} on ${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB, Node ${m.node}; SMT back end ${m.solver}; time limit ${timeoutS} s per run, each run a fresh process.`,
    'Times are the engine\'s (parsing and process start-up excluded: results.csv has the wall times); ✓ safe (proof re-checked), ✓-M with a modular proof, × unsafe (trace replayed), T/O timeout, ? unknown with its reason.',
    '',
    line(head),
    line(head.map(() => '---')),
    ...rows.map(line),
    line(totals),
    '',
    `Wrong verdicts: ${wrong.length}${wrong.length ? ` (${wrong.map((r) => `${r.program} ${r.config}`).join(', ')})` : ''}. Errors: ${errors.length}${errors.length ? ` (${errors.map((r) => `${r.program} ${r.config}: ${r.reason}`).join('; ')})` : ''}.`,
    '',
    `SV-COMP score (TRUE +2, FALSE +1, wrong TRUE −32, wrong FALSE −16): ${perConfig((c) => String(entries.reduce((s, e) => s + svcompPoints(e.expected, get(e, c)), 0)))}.`,
    ...(param.length ? [`Parameterized tasks (threads created without a static bound) correct: ${perConfig((c) => `${param.filter((e) => definite(get(e, c))).length}/${param.length}`)}.`] : []),
    '',
  ].join('\n');
}

/** An UNKNOWN's (or failed run's) reason as a group: quoted names and numbers elided, so one construct is one group. */
const reasonGroup = (r: RunResult): string => {
  const why = r.verdict === 'error' ? `error: ${r.reason ?? ''}` : (r.reason ?? 'unknown');
  const g = why.replace(/'[^']*'/g, "'…'").replace(/\b\d+\b/g, 'N');
  return g.length > 110 ? `${g.slice(0, 110)}…` : g;
};

/**
 * Per folder of the programs and per configuration, as SV-COMP counts: tasks, read
 * (the rest are UNKNOWN because rely cannot read them), right and wrong verdicts,
 * UNKNOWN (failed runs included), the score, and the UNKNOWNs' reasons grouped, most
 * frequent first.
 */
export function folderTable(entries: readonly ManifestEntry[], configs: readonly Config[], results: readonly RunResult[]): string {
  const folders = [...new Set(entries.map((e) => basename(dirname(e.file))))];
  const head = ['folder', 'configuration', 'tasks', 'read', 'right', 'wrong', 'UNKNOWN', 'SV-COMP score', 'UNKNOWN reasons (count)'];
  const rows = folders.flatMap((f) =>
    configs.map((c) => {
      const mine = entries.filter((e) => basename(dirname(e.file)) === f);
      const rs = mine.map((e) => [e, results.find((r) => r.program === e.name && r.config === c.key)] as const);
      const undecided = rs.flatMap(([, r]) => (r && r.verdict !== 'safe' && r.verdict !== 'unsafe' ? [r] : []));
      const groups = new Map<string, number>();
      for (const r of undecided) groups.set(reasonGroup(r), (groups.get(reasonGroup(r)) ?? 0) + 1);
      const reasons = [...groups].sort((a, b) => b[1] - a[1]).map(([g, n]) => `${g} (${n})`).join('; ');
      const read = rs.filter(([, r]) => r && !(r.reason ?? '').startsWith(CANNOT_READ)).length;
      const score = rs.reduce((s, [e, r]) => s + svcompPoints(e.expected, r), 0);
      return [f, c.label, String(mine.length), String(read), String(rs.filter(([, r]) => definite(r)).length), String(rs.filter(([, r]) => r?.wrong).length), String(undecided.length), String(score), reasons.replaceAll('|', '\\|')];
    }),
  );
  return ['', '## Per folder', '', line(head), line(head.map(() => '---')), ...rows.map(line), ''].join('\n');
}

const csvField = (s: string | number | boolean | null): string => {
  const t = s === null ? '' : String(s);
  return /[",\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
};

export function csv(entries: readonly ManifestEntry[], results: readonly RunResult[]): string {
  const expected = new Map(entries.map((e) => [e.name, e.expected] as const));
  const head = ['program', 'config', 'expected', 'verdict', 'decided_by', 'wrong', 'modular', 'time_ms', 'wall_ms', 'iterations', 'predicates', 'states', 'guarantee', 'reason'];
  const rows = results.map((r) =>
    [r.program, r.config, expected.get(r.program) ?? '', r.verdict, r.decidedBy, r.wrong, r.modular, Math.round(r.timeMs), Math.round(r.wallMs), r.iterations, r.predicates, r.states, r.guarantee, r.reason].map(csvField).join(','),
  );
  return [head.join(','), ...rows].join('\n') + '\n';
}

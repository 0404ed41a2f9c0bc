/**
 * The liveness suite of `rely bench`: the properties of
 * benchmarks/liveness.json — MUX-SEM (Cohen–Namjoshi Fig. 1(a), gen-mux-sem.ts) for
 * growing N with and without an irrelevant per-process counter, and response
 * properties of mutual-exclusion protocols — as manifest entries whose runs pass
 * `--ltl` and `--fairness`, so the runner, tables and scaling plots are bench.ts's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, type ManifestEntry } from './bench.js';

export interface LivenessEntry {
  readonly file: string;
  readonly name: string;
  readonly family: 'mux-sem' | 'mux-sem-counter' | 'protocol';
  readonly n: number | null;
  readonly ltl: string;
  readonly fairness: 'unconditional' | 'weak' | 'none';
  /** holds: SAFE; fails: UNSAFE with a lasso; deadlock: UNSAFE with a deadlock. */
  readonly expected: 'holds' | 'fails' | 'deadlock';
  readonly note: string;
}

export function loadLiveness(): LivenessEntry[] {
  return JSON.parse(readFileSync(join(ROOT, 'benchmarks/liveness.json'), 'utf8')) as LivenessEntry[];
}

/** The run's name of an entry: its program, property and fairness (a program has several). */
export const livenessName = (e: LivenessEntry): string => `${e.name}: ${e.ltl} [${e.fairness}]`;

/** The entries as the runner's manifest entries. */
export function livenessManifest(entries: readonly LivenessEntry[]): ManifestEntry[] {
  return entries.map((e) => ({
    file: e.file,
    name: livenessName(e),
    suite: 'liveness',
    expected: e.expected === 'holds' ? 'safe' : 'unsafe',
    args: ['--ltl', e.ltl, '--fairness', e.fairness],
    modularProofExists: null,
    loc: readFileSync(join(ROOT, e.file), 'utf8').split('\n').length,
    note: e.note,
  }));
}

/** The scaling series: per family and property, the entries by N (name → N). */
export function livenessSeries(entries: readonly LivenessEntry[]): { title: string; key: string; nOf: Map<string, number> }[] {
  const out = new Map<string, { title: string; key: string; nOf: Map<string, number> }>();
  for (const e of entries) {
    if (e.n === null) continue;
    const title = `${e.family === 'mux-sem' ? 'MUX-SEM' : 'MUX-SEM with a counter'}: ${e.ltl} [${e.fairness}]`;
    if (!out.has(title)) out.set(title, { title, key: `${e.family}-${out.size + 1}`, nOf: new Map() });
    out.get(title)!.nOf.set(livenessName(e), e.n);
  }
  return [...out.values()].filter((s) => s.nOf.size > 1);
}

/**
 * The assume-guarantee suite of `rely bench`: Cobleigh's Appendix A
 * subjects of benchmarks/ag.json (gen-ag.ts) for growing n, as manifest entries, so the
 * runner, tables and scaling plots are bench.ts's; one scaling series per family.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgEntry } from './ag/families.js';
import { ROOT, type ManifestEntry } from './bench.js';

export type { AgEntry };

export function loadAg(): AgEntry[] {
  return JSON.parse(readFileSync(join(ROOT, 'benchmarks/ag.json'), 'utf8')) as AgEntry[];
}

export function agManifest(entries: readonly AgEntry[]): ManifestEntry[] {
  return entries.map((e) => ({ file: e.file, name: e.name, suite: 'ag', expected: e.expected, modularProofExists: null, loc: e.loc, note: e.note }));
}

/** Per family, its correct programs by n (name → n): a scaling section and plot each. */
export function agSeries(entries: readonly AgEntry[]): { title: string; key: string; nOf: Map<string, number> }[] {
  const out = new Map<string, { title: string; key: string; nOf: Map<string, number> }>();
  for (const e of entries) {
    if (e.expected !== 'safe') continue;
    if (!out.has(e.family)) out.set(e.family, { title: e.family, key: `ag-${e.family}`, nOf: new Map() });
    out.get(e.family)!.nOf.set(e.name, e.n);
  }
  return [...out.values()].filter((s) => s.nOf.size > 1);
}

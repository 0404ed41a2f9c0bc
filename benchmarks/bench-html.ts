/**
 * `rely bench --out DIR`'s index.html: the run's results.md as a page (marked), its
 * plots inline, and — for the programs with Threader's published times — a plot of
 * each configuration's time against Threader's, log–log, the diagonal marking equal
 * times. Self-contained: no script, no network.
 */
import { marked } from 'marked';
import type { Config, ManifestEntry, RunResult } from './bench.js';
import { definite } from './bench-report.js';

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f'];
const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Our time (s) against Threader's (with bias), per configuration: a point per program both decided alike. */
export function threaderSvg(entries: readonly ManifestEntry[], configs: readonly Config[], results: readonly RunResult[]): string | null {
  const points = configs.map((c) =>
    entries.flatMap((e) => {
      const t = e.threader?.withBias;
      const r = results.find((x) => x.program === e.name && x.config === c.key);
      return t && t.timeS !== null && definite(r) && r.verdict === t.verdict ? [{ name: e.name, x: Math.max(t.timeS, 0.01), y: Math.max(r.timeMs / 1000, 0.01) }] : [];
    }),
  );
  const all = points.flat();
  if (!all.length) return null;
  const [W, H, L, R, T, B] = [640, 520, 64, 170, 30, 48];
  const lo = 10 ** Math.floor(Math.log10(Math.min(...all.flatMap((p) => [p.x, p.y]))));
  const hi = 10 ** Math.ceil(Math.log10(Math.max(...all.flatMap((p) => [p.x, p.y]))));
  const sx = (v: number): number => L + ((Math.log10(v) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))) * (W - L - R);
  const sy = (v: number): number => H - B - ((Math.log10(v) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))) * (H - T - B);
  const ticks: number[] = [];
  for (let v = lo; v <= hi * 1.001; v *= 10) ticks.push(v);
  const f = (v: number): string => v.toFixed(1);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${(L + W - R) / 2}" y="18" text-anchor="middle" font-size="14">Time per program: rely vs Threader (with bias)</text>`,
    ...ticks.flatMap((v) => [
      `<line x1="${f(sx(v))}" y1="${T}" x2="${f(sx(v))}" y2="${H - B}" stroke="#ddd"/><text x="${f(sx(v))}" y="${H - B + 16}" text-anchor="middle">${v}</text>`,
      `<line x1="${L}" y1="${f(sy(v))}" x2="${W - R}" y2="${f(sy(v))}" stroke="#ddd"/><text x="${L - 6}" y="${f(sy(v) + 4)}" text-anchor="end">${v}</text>`,
    ]),
    `<line x1="${f(sx(lo))}" y1="${f(sy(lo))}" x2="${f(sx(hi))}" y2="${f(sy(hi))}" stroke="#888" stroke-dasharray="4 3"/>`,
    `<rect x="${L}" y="${T}" width="${W - L - R}" height="${H - T - B}" fill="none" stroke="#444"/>`,
    `<text x="${(L + W - R) / 2}" y="${H - 10}" text-anchor="middle">Threader (s)</text>`,
    `<text x="16" y="${(T + H - B) / 2}" text-anchor="middle" transform="rotate(-90 16 ${(T + H - B) / 2})">rely (s); below the diagonal: faster</text>`,
    ...points.flatMap((ps, i) => ps.map((p) => `<circle cx="${f(sx(p.x))}" cy="${f(sy(p.y))}" r="4" fill="${COLORS[i % COLORS.length]}"><title>${esc(`${configs[i].label}, ${p.name}: ${p.y} s (Threader ${p.x} s)`)}</title></circle>`)),
    ...configs.map((c, i) => `<circle cx="${W - R + 16}" cy="${T + 10 + i * 20}" r="4" fill="${COLORS[i % COLORS.length]}"/><text x="${W - R + 26}" y="${T + 14 + i * 20}">${esc(c.label)}</text>`),
    '</svg>',
    '',
  ].join('\n');
}

/** The page: the Markdown of the run, then every plot, inline. */
export function benchIndex(title: string, markdown: string, plots: readonly { file: string; svg: string }[]): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${esc(title)}</title>`,
    '<style>body { font-family: system-ui, sans-serif; margin: 1.5em; } table { border-collapse: collapse; font-size: 0.85em; } th, td { border: 1px solid #ccc; padding: 0.2em 0.4em; } figure { margin: 1em 0; } svg { max-width: 100%; height: auto; }</style>',
    '</head><body>',
    `<h1>${esc(title)}</h1>`,
    marked.parse(markdown, { async: false }),
    '<h2>Plots</h2>',
    ...plots.map((p) => `<figure id="${esc(p.file)}">${p.svg}<figcaption>${esc(p.file)}</figcaption></figure>`),
    '</body></html>',
    '',
  ].join('\n');
}

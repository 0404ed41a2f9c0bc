/**
 * The scaling report of a benchmark run: for the programs named Simple(n), states
 * explored and time against n, as a Markdown section (a table n × configuration and the
 * fitted growth of each configuration) and an SVG plot with two log–log panels. Pure
 * functions of the results; `rely bench` writes them to results.md and scaling.svg.
 *
 * Only decided runs (a verdict that agrees with the manifest) are plotted and fitted:
 * a timeout or a state limit gives a lower bound, not a measurement.
 */
import { simpleN, type Config, type RunResult } from './bench.js';
import { cell, definite, line } from './bench-report.js';

/** A program's n in a scaling series (null: not in it); Simple(n) by default. */
export type NOf = (program: string) => number | null;

/** One decided run: the program's n and the measured value (states, or seconds). */
export interface Point {
  readonly n: number;
  readonly y: number;
}

/** The decided points of one configuration, by increasing n. */
export interface Series {
  readonly config: Config;
  readonly points: readonly Point[];
}

/** A fitted growth law over `points` decided runs; r2 is the R² of the log-space fit. */
export interface Fit {
  /** k of c·n^k, or b of c·b^n. */
  readonly growth: number;
  readonly c: number;
  readonly r2: number;
  readonly points: number;
}

/** Least squares y ≈ a + s·x, with R²; null below two distinct x (no slope to fit). */
function leastSquares(xs: readonly number[], ys: readonly number[]): { a: number; s: number; r2: number } | null {
  const m = xs.length;
  if (m < 2) return null;
  const mx = xs.reduce((t, x) => t + x, 0) / m;
  const my = ys.reduce((t, y) => t + y, 0) / m;
  const sxx = xs.reduce((t, x) => t + (x - mx) ** 2, 0);
  if (sxx === 0) return null;
  const s = xs.reduce((t, x, i) => t + (x - mx) * (ys[i] - my), 0) / sxx;
  const a = my - s * mx;
  const ssTot = ys.reduce((t, y) => t + (y - my) ** 2, 0);
  const ssRes = ys.reduce((t, y, i) => t + (y - a - s * xs[i]) ** 2, 0);
  // Constant data lies exactly on the fitted (flat) line.
  return { a, s, r2: ssTot === 0 ? 1 : 1 - ssRes / ssTot };
}

/** y ≈ c·n^k: least squares of ln y on ln n (a straight line on the log–log plot). */
export function powerFit(points: readonly Point[]): Fit | null {
  const f = leastSquares(points.map((p) => Math.log(p.n)), points.map((p) => Math.log(p.y)));
  return f && { growth: f.s, c: Math.exp(f.a), r2: f.r2, points: points.length };
}

/** y ≈ c·b^n: least squares of ln y on n, the model for a product state space (b = 2 for Simple(n)). */
export function exponentialFit(points: readonly Point[]): Fit | null {
  const f = leastSquares(points.map((p) => p.n), points.map((p) => Math.log(p.y)));
  return f && { growth: Math.exp(f.s), c: Math.exp(f.a), r2: f.r2, points: points.length };
}

/**
 * Per configuration, the decided Simple(n) runs with a positive value: a time that
 * rounds to 0 ms has no place on a log axis (nor in a log-space fit).
 */
function series(configs: readonly Config[], results: readonly RunResult[], value: (r: RunResult) => number | null, nOf: NOf): Series[] {
  return configs.map((config) => ({
    config,
    points: results
      .filter((r) => r.config === config.key && nOf(r.program) !== null && definite(r))
      .map((r) => ({ n: nOf(r.program)!, y: value(r) ?? 0 }))
      .filter((p) => p.y > 0)
      .sort((a, b) => a.n - b.n),
  }));
}

/** The scaling section of results.md and the plot, or null when the run has no Simple(n). */
export function scalingReport(configs: readonly Config[], results: readonly RunResult[], nOf: NOf = simpleN): { markdown: string; svg: string } | null {
  if (!results.some((r) => nOf(r.program) !== null)) return null;
  const states = series(configs, results, (r) => r.states, nOf);
  const time = series(configs, results, (r) => r.timeMs / 1000, nOf);
  return { markdown: scalingMarkdown(configs, results, states, time, nOf), svg: scalingSvg(configs, results, states, time, nOf) };
}

const fitText = (f: Fit | null, law: (f: Fit) => string): string =>
  f ? `${law(f)} (R² = ${f.r2.toFixed(3)}, ${f.points} points)` : '—';
/** Two significant digits, written out (0.000064, 230) rather than in exponent form. */
const coef = (c: number): string => c.toLocaleString('en-US', { maximumSignificantDigits: 2, useGrouping: false });

function scalingMarkdown(configs: readonly Config[], results: readonly RunResult[], states: readonly Series[], time: readonly Series[], nOf: NOf): string {
  const programs = new Map(results.filter((r) => nOf(r.program) !== null).map((r) => [nOf(r.program)!, r.program] as const));
  const ns = [...programs.keys()].sort((a, b) => a - b);
  const at = (n: number, c: Config) => {
    const r = results.find((x) => x.program === programs.get(n) && x.config === c.key);
    if (!r) return '';
    const counts = [r.states !== null ? `${r.states.toLocaleString('en-US')} states` : '', r.guarantee !== null ? `${r.guarantee.toLocaleString('en-US')} guarantee` : ''];
    return [cell(r), ...counts].filter(Boolean).join(', ');
  };
  const withStates = (i: number) => states[i].points.length > 0;
  return [
    '',
    '## Scaling',
    '',
    'Simple(n) in this run: the verdict and time of each configuration, and the states explored (and guarantee entries) of the explicit-state engines. `scaling.svg` plots states and time against n on log–log axes; undecided runs are neither plotted nor fitted.',
    '',
    line(['n', ...configs.map((c) => c.label)]),
    line(['---', ...configs.map(() => '---')]),
    ...ns.map((n) => line([String(n), ...configs.map((c) => at(n, c))])),
    '',
    'Growth fitted by least squares over the decided runs: ln y on ln n for c·n^k (time in seconds), ln states on n for c·b^n (a product state space grows so, b = 2 for Simple(n)). The better law has R² nearer 1.',
    '',
    line(['configuration', 'states ≈ c·n^k', 'time ≈ c·n^k', 'states ≈ c·b^n']),
    line(['---', '---', '---', '---']),
    ...configs.map((c, i) =>
      line([
        c.label,
        withStates(i) ? fitText(powerFit(states[i].points), (f) => `k = ${f.growth.toFixed(2)}, c = ${coef(f.c)}`) : '',
        fitText(powerFit(time[i].points), (f) => `k = ${f.growth.toFixed(2)}, c = ${coef(f.c)} s`),
        withStates(i) ? fitText(exponentialFit(states[i].points), (f) => `b = ${f.growth.toFixed(3)}, c = ${coef(f.c)}`) : '',
      ]),
    ),
    '',
  ].join('\n');
}

// The plot: two panels side by side, each W × H, the legend below them.
const W = 480;
const H = 380;
const LEGEND_H = 30;
const MARGIN = { left: 64, right: 16, top: 36, bottom: 48 };
const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f'];

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const fmt = (v: number): string => v.toFixed(1);

/** 1, 10, 100, 1k, 10k, …, 1M, …; 0.5, 0.01, …: short labels for a log axis. */
function tickLabel(v: number): string {
  for (const [unit, suffix] of [[1e9, 'G'], [1e6, 'M'], [1e3, 'k']] as const) if (v >= unit) return `${Number((v / unit).toPrecision(3))}${suffix}`;
  return String(Number(v.toPrecision(3)));
}

/** The decades enclosing [lo, hi] (at least one), so every point lies between two labelled ticks. */
function decades(lo: number, hi: number): [number, number] {
  const a = Math.floor(Math.log10(lo) + 1e-9);
  const b = Math.max(Math.ceil(Math.log10(hi) - 1e-9), a + 1);
  return [10 ** a, 10 ** b];
}

/** Ticks of a log value axis: every decade (every few when there are many), with 2 and 5 between when there are at most two. */
function valueTicks(lo: number, hi: number): number[] {
  const a = Math.round(Math.log10(lo));
  const b = Math.round(Math.log10(hi));
  const step = Math.ceil((b - a) / 8);
  const ticks: number[] = [];
  for (let e = a; e <= b; e += step) ticks.push(...(b - a <= 2 && e < b ? [1, 2, 5] : [1]).map((m) => m * 10 ** e));
  return ticks;
}

/** n on a log axis: powers of two, as Simple(n)'s sizes double (or lo, when no power of two is in range). */
function nTicks(lo: number, hi: number): number[] {
  const ticks: number[] = [];
  for (let v = 2 ** Math.ceil(Math.log2(lo)); v <= hi; v *= 2) ticks.push(v);
  return ticks.length > 0 ? ticks : [lo];
}

/** Maps [lo, hi] logarithmically onto [a, b]. */
const logScale = (lo: number, hi: number, a: number, b: number) => (v: number) => a + ((Math.log(v) - Math.log(lo)) / (Math.log(hi) - Math.log(lo))) * (b - a);

/** What a panel shows: its element id, x offset, titles, the unit in a marker's tooltip, and the note when it has no point. */
interface PanelSpec {
  readonly id: string;
  readonly x0: number;
  readonly title: string;
  readonly yTitle: string;
  readonly unit: string;
  readonly empty: string;
}

/** One panel: frame, grid, ticks, axis titles, a polyline with markers per series. */
function panel({ id, x0, title, yTitle, unit, empty }: PanelSpec, series: readonly Series[], nRange: [number, number], color: (c: Config) => string): string {
  const left = x0 + MARGIN.left;
  const right = x0 + W - MARGIN.right;
  const top = MARGIN.top;
  const bottom = H - MARGIN.bottom;
  const out = [
    `<g id="${id}">`,
    `<text x="${fmt((left + right) / 2)}" y="20" text-anchor="middle" font-size="14">${esc(title)}</text>`,
    `<rect x="${left}" y="${top}" width="${right - left}" height="${bottom - top}" fill="none" stroke="#444"/>`,
    `<text x="${fmt((left + right) / 2)}" y="${H - 10}" text-anchor="middle">n (threads)</text>`,
    `<text x="${x0 + 16}" y="${fmt((top + bottom) / 2)}" text-anchor="middle" transform="rotate(-90 ${x0 + 16} ${fmt((top + bottom) / 2)})">${esc(yTitle)}</text>`,
  ];
  const drawn = series.filter((s) => s.points.length > 0);
  const ys = drawn.flatMap((s) => s.points.map((p) => p.y));
  if (ys.length === 0) {
    out.push(`<text x="${fmt((left + right) / 2)}" y="${fmt((top + bottom) / 2)}" text-anchor="middle" fill="#888">${esc(empty)}</text>`, '</g>');
    return out.join('\n');
  }
  // Some room around the n range, so markers do not sit on the frame.
  const x = logScale(nRange[0] / 1.15, nRange[1] * 1.15, left, right);
  const [yLo, yHi] = decades(Math.min(...ys), Math.max(...ys));
  const y = logScale(yLo, yHi, bottom, top);
  for (const n of nTicks(nRange[0], nRange[1]))
    out.push(
      `<line x1="${fmt(x(n))}" y1="${top}" x2="${fmt(x(n))}" y2="${bottom}" stroke="#ddd"/>`,
      `<text x="${fmt(x(n))}" y="${bottom + 16}" text-anchor="middle">${n}</text>`,
    );
  for (const v of valueTicks(yLo, yHi))
    out.push(
      `<line x1="${left}" y1="${fmt(y(v))}" x2="${right}" y2="${fmt(y(v))}" stroke="#ddd"/>`,
      `<text x="${left - 6}" y="${fmt(y(v) + 4)}" text-anchor="end">${tickLabel(v)}</text>`,
    );
  for (const s of drawn) {
    const c = color(s.config);
    out.push(`<polyline fill="none" stroke="${c}" stroke-width="1.5" points="${s.points.map((p) => `${fmt(x(p.n))},${fmt(y(p.y))}`).join(' ')}"/>`);
    for (const p of s.points)
      out.push(`<circle cx="${fmt(x(p.n))}" cy="${fmt(y(p.y))}" r="3.5" fill="${c}"><title>${esc(`${s.config.label}, n = ${p.n}: ${Number(p.y.toPrecision(4)).toLocaleString('en-US')}${unit}`)}</title></circle>`);
  }
  out.push('</g>');
  return out.join('\n');
}

/**
 * The plot: states vs n and time vs n, log–log, one polyline with markers per
 * configuration that has decided points in the panel (a marker's tooltip gives its
 * value), and a legend of those configurations. The n axis spans every Simple(n) of
 * the run, decided or not, so both panels share it.
 */
function scalingSvg(configs: readonly Config[], results: readonly RunResult[], states: readonly Series[], time: readonly Series[], nOf: NOf): string {
  const ns = results.map((r) => nOf(r.program)).filter((n): n is number => n !== null);
  return plotSvg(
    [
      [{ id: 'states', title: 'States explored vs n (Simple(n))', yTitle: 'states', unit: ' states', empty: 'no decided run of an explicit-state engine' }, states],
      [{ id: 'time', title: 'Time vs n (Simple(n))', yTitle: 'time (s)', unit: ' s', empty: 'no decided run' }, time],
    ],
    configs,
    [Math.min(...ns), Math.max(...ns)],
  );
}

/** Panels side by side (log–log, n across), one polyline per series, and a legend of the configurations drawn; colours follow `configs`' order. */
export function plotSvg(panels: readonly (readonly [Omit<PanelSpec, 'x0'>, readonly Series[]])[], configs: readonly Config[], nRange: [number, number]): string {
  const color = (c: Config) => COLORS[configs.indexOf(c) % COLORS.length];
  const width = panels.length * W;
  const height = H + LEGEND_H;
  const shown = configs.filter((c) => panels.some(([, series]) => series.some((s) => s.config === c && s.points.length > 0)));
  const spacing = Math.min(180, Math.floor((width - MARGIN.left) / Math.max(shown.length, 1)));
  const legend = shown.map((c, i) => {
    const x = MARGIN.left + i * spacing;
    const yMid = H + LEGEND_H / 2;
    return [
      `<line x1="${x}" y1="${yMid}" x2="${x + 24}" y2="${yMid}" stroke="${color(c)}" stroke-width="1.5"/>`,
      `<circle cx="${x + 12}" cy="${yMid}" r="3.5" fill="${color(c)}"/>`,
      `<text x="${x + 30}" y="${yMid + 4}">${esc(c.label)}</text>`,
    ].join('\n');
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    ...panels.map(([spec, series], i) => panel({ ...spec, x0: i * W }, series, nRange, color)),
    '<g id="legend">',
    ...legend,
    '</g>',
    '</svg>',
    '',
  ].join('\n');
}

/**
 * `rely verify --report OUT.html`: one self-contained page (no network: styles inline,
 * no script needed) with the verdict, the text output, for UNSAFE the trace as
 * swimlanes — one column per thread, one row per step, each step a link to its source
 * line with the values it set — for SAFE the proof as the engine prints it (and its
 * invariant per location, where the engine gives one), the graphs drawn as SVG, and
 * the source listing with the lines the verdict touches marked.
 */
import { showValue } from '../solver/formula.js';
import type { Program } from '../program/program.js';
import type { EngineReport, EngineStats, EngineVerdict, Invariant, Round, RunInfo } from '../core/engine.js';
import { stepText, type TraceStep } from '../core/trace.js';
import { instance } from '@viz-js/viz';
import type { Graph } from '../core/dot.js';
import { verifyText } from './report.js';

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const STYLE = `
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.3em; } h2 { font-size: 1.1em; margin-top: 1.5em; }
.verdict { padding: 0.1em 0.5em; border-radius: 4px; color: white; }
.safe { background: #2a7d2a; } .unsafe { background: #b22222; } .unknown { background: #777; }
pre { background: #f6f6f6; padding: 0.6em; overflow-x: auto; }
table.swimlanes { border-collapse: collapse; font-size: 0.9em; }
.swimlanes th, .swimlanes td { border: 1px solid #ccc; padding: 0.2em 0.5em; vertical-align: top; }
.swimlanes td.step { color: #777; text-align: right; }
.swimlanes td.acts { background: #fff8dc; }
.swimlanes .vals { color: #555; font-family: monospace; }
.swimlanes tr.last td.acts { background: #ffd6d6; }
.swimlanes tr.cycle td.step { border-left: 4px solid #b22222; }
.swimlanes tr.cycle td.acts { background: #ffe9d6; }
#source { counter-reset: line; line-height: 1.35; }
#source span.line { display: block; white-space: pre; }
#source span.line::before { counter-increment: line; content: counter(line); display: inline-block; width: 3.5em; color: #999; }
#source span.touched { background: #eef5ff; }
#source span.line:target { background: #ffe066; }
details.graph svg { max-width: 100%; height: auto; }
`;

/** The trace as swimlanes: a column per thread of the program, a row per step; the acting thread's cell links to the step's line. */
function swimlanes(p: Program, trace: readonly TraceStep[], cycleFrom?: number): string {
  const threads = p.threads.map((t) => t.name);
  const rows = trace.map((s, i) => {
    const what = stepText(s);
    const vals = s.values.map(([v, x]) => `${v}=${showValue(x)}`).join(' ');
    const cells = threads.map((t) =>
      t === s.thread ? `<td class="acts"><a href="#L${s.pos.line}" title="${esc(`${s.pos.file}:${s.pos.line}`)}">${esc(what)}</a>${vals ? `<div class="vals">${esc(vals)}</div>` : ''}</td>` : '<td></td>',
    );
    const cls = [...(cycleFrom !== undefined && i >= cycleFrom ? ['cycle'] : []), ...(cycleFrom === undefined && i === trace.length - 1 ? ['last'] : [])];
    return `<tr${cls.length ? ` class="${cls.join(' ')}"` : ''}><td class="step">${i + 1}</td>${cells.join('')}</tr>`;
  });
  return `<table id="trace" class="swimlanes"><thead><tr><th>step</th>${threads.map((t) => `<th>${esc(t)}</th>`).join('')}</tr></thead><tbody>${rows.join('\n')}</tbody></table>`;
}

/** The proof's invariants by source line: thread, line (a link), what holds there. */
function invariantTable(p: Program, invariants: readonly Invariant[]): string[] {
  const rows = invariants.flatMap((inv) => {
    const pos = p.threads[inv.thread].locations.find((l) => l.pc === inv.pc)?.pos;
    if (!pos || pos.file !== p.file) return [];
    return [`<tr><td>${esc(p.threads[inv.thread].name)}</td><td><a href="#L${pos.line}">${pos.line}</a></td><td>${inv.pc}</td><td><code>${esc(inv.text)}</code></td></tr>`];
  });
  return rows.length ? ['<h2>Invariants</h2>', '<p>What the proof says holds when a thread is at the line (false: never reached).</p>', `<table id="invariants" class="swimlanes"><thead><tr><th>thread</th><th>line</th><th>location (pc)</th><th>invariant</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>`] : [];
}

/** Per thread, the environment steps the proof admits (E_i: unprimed values before, primed after). */
function environmentTable(p: Program, rows: readonly { readonly thread: number; readonly text: string }[]): string[] {
  const trs = rows.map((r) => `<tr><td>${esc(p.threads[r.thread].name)}</td><td><code>${esc(r.text)}</code></td></tr>`);
  return ['<h2>Environment transitions</h2>', '<p>The steps of the other threads each thread\'s proof tolerates (x before the step, x\' after).</p>', `<table id="environments" class="swimlanes"><thead><tr><th>thread</th><th>E</th></tr></thead><tbody>${trs.join('\n')}</tbody></table>`];
}

/** Per refinement round: the clauses and solver that answered it, the predicates it added. */
function roundTable(rounds: readonly Round[]): string[] {
  const rows = rounds.map((r) => `<tr><td>${r.iteration}</td><td>${esc(r.how)}</td><td>${r.learned.map((l) => `<code>${esc(l)}</code>`).join('<br>')}</td></tr>`);
  return ['<h2>Refinements</h2>', `<table id="rounds" class="swimlanes"><thead><tr><th>iteration</th><th>answered by</th><th>predicates added</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>`];
}

/** The source, a span per line (id L<n>), the lines in `touched` marked. */
function listing(source: string, touched: ReadonlySet<number>): string {
  const lines = source.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return `<pre id="source">${lines.map((l, i) => `<span class="line${touched.has(i + 1) ? ' touched' : ''}" id="L${i + 1}">${esc(l)}</span>`).join('')}</pre>`;
}

/**
 * Graphs whose DOT text is longer are named, not drawn: Graphviz's layout time grows
 * with the labels (Scull's CFG of 135 nodes and edges and 40 kB took 1.4 s, one of
 * 233 took 11 s; an ARET of 133 with 9 kB, 0.3 s), and the page stays quick to write.
 */
const MAX_DRAWN_BYTES = 20_000;

/** Each graph as inline SVG (Graphviz compiled to WebAssembly: no system binary), or a note when it is too large. */
async function drawn(graphs: readonly Graph[]): Promise<string[]> {
  if (!graphs.length) return [];
  const viz = await instance();
  const one = (g: Graph): string =>
    g.dot.length > MAX_DRAWN_BYTES
      ? `<p class="capped">${esc(g.name)}: ${g.nodes} nodes and ${g.edges} edges, not drawn (its DOT text is over ${MAX_DRAWN_BYTES / 1000} kB); --dot writes it.</p>`
      : `<details class="graph" open><summary>${esc(g.name)} (${g.nodes} nodes)</summary>${viz.renderString(g.dot, { format: 'svg' }).replace(/^<\?xml[^>]*>\s*(<!DOCTYPE[^>]*>\s*)?/, '')}</details>`;
  return ['<h2>Graphs</h2>', ...graphs.map(one)];
}

/** What a page shows, whatever checked the program. */
export interface ReportPage {
  readonly verdict: 'safe' | 'unsafe' | 'unknown';
  readonly engine: string;
  readonly reason?: string;
  /** A counterexample: its steps, and where a lasso's cycle starts (the rows from there repeat forever). */
  readonly trace?: { readonly steps: readonly TraceStep[]; readonly what: string; readonly cycleFrom?: number };
  readonly invariants?: readonly Invariant[];
  readonly environments?: readonly { readonly thread: number; readonly text: string }[];
  readonly rounds?: readonly Round[];
  /** The text output, as rely prints it. */
  readonly output: string;
  readonly graphs: readonly Graph[];
}

/** The page of a verdict of `rely verify`'s assertion engines. */
export function verifyPage<O, P, S extends EngineStats>(p: Program, report: EngineReport<O, P, S>, v: EngineVerdict<P, S>, run: RunInfo<O>, graphs: readonly Graph[]): ReportPage {
  return {
    verdict: v.verdict,
    engine: run.engine,
    reason: v.verdict === 'unknown' ? v.reason : undefined,
    trace: v.verdict === 'unsafe' ? { steps: v.trace, what: 'Counterexample' } : undefined,
    invariants: v.verdict === 'safe' ? report.invariants?.(p, v.proof) : undefined,
    environments: v.verdict === 'safe' ? report.environments?.(p, v.proof) : undefined,
    rounds: report.rounds?.(v.stats),
    output: verifyText(p, report, v, run),
    graphs,
  };
}

export async function htmlReport(p: Program, source: string, page: ReportPage): Promise<string> {
  const { verdict, trace } = page;
  // Positions in included files are not in the listing.
  const touched = new Set<number>(
    trace
      ? trace.steps.filter((s) => s.pos.file === p.file).map((s) => s.pos.line)
      : p.threads.flatMap((t) => t.transitions.filter((x) => x.pos.file === p.file).map((x) => x.pos.line)),
  );
  const n = trace?.steps.length ?? 0;
  const cycle = trace?.cycleFrom !== undefined ? ` Rows ${trace.cycleFrom + 1}–${n} (marked) are the cycle: it returns to its first state and repeats forever.` : '';
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${esc(`${p.file}: ${verdict.toUpperCase()}`)}</title>`,
    `<style>${STYLE}</style></head><body>`,
    `<h1>${esc(p.file)} <span class="verdict ${verdict}" id="verdict">${verdict.toUpperCase()}</span></h1>`,
    `<p>engine ${esc(page.engine)}, ${p.threads.length} threads${page.reason ? `; ${esc(page.reason)}` : ''}</p>`,
    ...(trace ? [`<h2>${esc(trace.what)}</h2>`, `<p>${n} step${n === 1 ? '' : 's'}, replayed in the interpreter; a step links to its line.${cycle}</p>`, swimlanes(p, trace.steps, trace.cycleFrom)] : []),
    ...(page.invariants ? invariantTable(p, page.invariants) : []),
    ...(page.environments?.length ? environmentTable(p, page.environments) : []),
    ...(page.rounds?.length ? roundTable(page.rounds) : []),
    `<h2>${verdict === 'safe' ? 'Proof and statistics' : 'Output'}</h2>`,
    `<pre id="output">${esc(page.output)}</pre>`,
    ...(await drawn(page.graphs)),
    '<h2>Source</h2>',
    listing(source, touched),
    '</body></html>',
    '',
  ].join('\n');
}

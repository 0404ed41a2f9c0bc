/**
 * `rely verify --ltl`: a linear-time property of a program. The formula
 * is parsed (core/ltl.ts), each atom read in the program — a C condition over
 * globals, or `at(thread, label)` for a thread at a C label of its function — and
 * the chosen liveness engine decides it under the chosen fairness. Errors in the
 * formula are located in it (`--ltl:1:COL`, or the --ltl-file's line and column).
 */
import { readFileSync } from 'node:fs';
import { eq, mkVar, num, showValue, varsOf, type Term } from '../solver/formula.js';
import { loadReadableProgram } from '../frontend/index.js';
import { InputError, type SourcePos } from '../program/diagnostics.js';
import type { Program } from '../program/program.js';
import { LtlSyntaxError, parseLtl } from '../core/ltl.js';
import { atomsOf, bindProperty, type LtlProperty } from '../core/property.js';
import type { Fairness } from '../core/fair-cycles.js';
import type { LivenessEngine, LivenessStats } from '../core/engine.js';
import type { LivenessOutcome, StepRun } from '../core/lasso.js';
import { runTraceStep } from '../core/lasso.js';
import { findSymmetry } from '../engines/state-space/api.js';
import { traceText } from './report.js';
import type { Graph } from '../core/dot.js';
import type { ReportPage } from './html-report.js';
import type { FrontendOptions } from '../frontend/index.js';

export const FAIRNESS: readonly Fairness[] = ['unconditional', 'weak', 'none'];

export interface PropertySource {
  readonly ltl?: string;
  readonly ltlFile?: string;
  readonly fairness: Fairness;
}

/** A property bound to its program, with what the binding decided (quantified atoms checked for one instance). */
export interface BoundProperty {
  readonly program: Program;
  readonly property: LtlProperty;
  readonly notes: readonly string[];
}

/** The position of offset `col` (1-based) of `text`, which starts at line 1 column 1 of `file`. */
function positionIn(file: string, text: string, col: number): SourcePos {
  const before = text.slice(0, col - 1).split('\n');
  return { file, line: before.length, col: before[before.length - 1].length + 1 };
}

const AT = /^at\s*\(\s*([A-Za-z_]\w*)(?:#(\d+))?\s*,\s*([A-Za-z_]\w*)\s*\)$/;

/** Reads the program with its labels kept, parses the formula and binds its atoms; throws InputError, located, on anything wrong. */
export function readProperty(file: string, src: PropertySource, opts: FrontendOptions): BoundProperty {
  if ((src.ltl === undefined) === (src.ltlFile === undefined)) throw new InputError({ file: '--ltl', line: 1, col: 1 }, 'give the property either as --ltl FORMULA or as --ltl-file FILE');
  const where = src.ltlFile ?? '--ltl';
  let text = src.ltl ?? '';
  if (src.ltlFile !== undefined)
    try {
      text = readFileSync(src.ltlFile, 'utf8').replace(/\s+$/, '');
    } catch (e) {
      throw new InputError({ file: src.ltlFile, line: 1, col: 1 }, `cannot read the property (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
  let formula;
  try {
    formula = parseLtl(text);
  } catch (e) {
    if (e instanceof LtlSyntaxError) throw new InputError(positionIn(where, text, e.col), e.message);
    throw e;
  }
  const observe = atomsOf(formula).flatMap((a) => (AT.test(a.text) ? [] : (a.text.match(/[A-Za-z_]\w*/g) ?? [])));
  const rp = loadReadableProgram(file, { ...opts, calls: 'inline', keepLabels: true, observe });
  const p = rp.program;
  const notes: string[] = [];
  const bind = (atom: { text: string; col: number }): Term => {
    const pos = positionIn(where, text, atom.col);
    const at = AT.exec(atom.text);
    if (!at) {
      const t = rp.condition(0, new Map(), atom.text, pos);
      const local = [...varsOf(t)].find((v) => p.vars.get(v)?.owner !== null);
      if (local) throw new InputError(pos, `the atom reads ${p.vars.get(local)?.cname ?? local}, which is not a global variable (name a thread's location with at(thread, label))`);
      return t;
    }
    const [, fn, nth, label] = at;
    const instances = p.threads.filter((th) => th.fn === fn || th.name === fn);
    if (!instances.length) throw new InputError(pos, `no thread runs a function '${fn}' (threads: ${p.threads.map((th) => th.name).join(', ')})`);
    let th = instances[0];
    if (nth !== undefined) {
      const k = Number(nth);
      if (k < 1 || k > instances.length) throw new InputError(pos, `${fn}#${nth}: ${instances.length} thread${instances.length === 1 ? ' runs' : 's run'} ${fn} (number them from 1)`);
      th = instances[k - 1];
    } else if (instances.length > 1) {
      // §3.6: over identical instances, a property of every instance holds iff it holds of one.
      const cls = findSymmetry(p)?.classes.find((c) => instances.every((t) => c.threads.includes(t.index)));
      if (!cls) throw new InputError(pos, `at(${fn}, …) names ${instances.length} threads that are not identical up to their identity, so no one of them stands for all; name one as ${fn}#1 … ${fn}#${instances.length}`, 'unsupported');
      const note = `at(${fn}, …) is about every one of the ${instances.length} identical threads running ${fn}: checked for ${fn}#1 (they are symmetric, Cohen–Namjoshi §3.6)`;
      if (!notes.includes(note)) notes.push(note);
    }
    const pc = th.labels?.get(label);
    if (pc === undefined) throw new InputError(pos, `no label '${label}' in ${th.fn} that is a location of thread ${th.name} (a label inside an atomic section is not)`);
    return eq(mkVar(th.pc), num(pc));
  };
  return { program: p, property: bindProperty(formula, src.fairness, bind), notes };
}

function runText(p: Program, run: StepRun, from: number, to: number): string {
  const steps = [...Array(to - from).keys()].map((k) => runTraceStep(p, run, from + k));
  return traceText(steps);
}

/** The verdict line, the proof or counterexample, and statistics. */
export function livenessText<S extends LivenessStats>(bound: BoundProperty, engine: LivenessEngine<S>, r: LivenessOutcome<S>): string {
  const { program: p, property } = bound;
  const what = `${property.text} (fairness: ${property.fairness})`;
  const lines: string[] = [];
  if (r.verdict === 'holds') lines.push(`SAFE: the property holds: ${what}`, ...engine.report.proof(r.stats).map((l) => `  ${l}`), ...(r.caveat ? [`  caveat: ${r.caveat}`] : []));
  else if (r.verdict === 'fails') {
    const { lasso } = r;
    const last = lasso.states.length - 1;
    lines.push(
      `UNSAFE: the property fails: ${what}`,
      `lasso (replayed in the interpreter; the cycle returns to its first state and repeats forever):`,
      `stem (${lasso.loopAt} step${lasso.loopAt === 1 ? '' : 's'}):`,
      ...(lasso.loopAt ? [runText(p, lasso, 0, lasso.loopAt)] : []),
      `cycle (${last - lasso.loopAt} step${last - lasso.loopAt === 1 ? '' : 's'}):`,
      runText(p, lasso, lasso.loopAt, last),
    );
  } else if (r.verdict === 'deadlock') {
    const n = r.run.steps.length;
    lines.push(`UNSAFE: deadlock: a reachable state where no thread can move, though not all have ended (the property is not checked past it)`, `trace (${n} step${n === 1 ? '' : 's'}, replayed in the interpreter):`, runText(p, r.run, 0, n));
  } else lines.push(`UNKNOWN: ${r.reason}`);
  lines.push(...bound.notes.map((n) => `note: ${n}`));
  lines.push(`statistics: engine ${engine.name}, time ${(r.stats.timeMs / 1000).toFixed(2)} s, ${r.stats.states} states, ${engine.report.stats(r.stats).join(', ')}`);
  return lines.join('\n') + '\n';
}

function runJson(p: Program, run: StepRun, from: number, to: number): unknown[] {
  return [...Array(to - from).keys()].map((k) => {
    const s = runTraceStep(p, run, from + k);
    return { thread: s.thread, transition: s.transition < 0 ? null : s.transition, file: s.pos.file, line: s.pos.line, steps: s.steps.map((x) => ({ line: x.pos.line, text: x.text })), values: Object.fromEntries(s.values.map(([v, x]) => [v, showValue(x)])) };
  });
}

/** `--json`: the verdict fields of `rely verify --json` that apply, plus the property, `lasso` and `deadlock`. */
export function livenessJson<S extends LivenessStats>(bound: BoundProperty, engine: LivenessEngine<S>, r: LivenessOutcome<S>): unknown {
  const { program: p, property } = bound;
  const last = r.verdict === 'fails' ? r.lasso.states.length - 1 : 0;
  return {
    file: p.file,
    property: property.text,
    fairness: property.fairness,
    verdict: r.verdict === 'holds' ? 'safe' : r.verdict === 'unknown' ? 'unknown' : 'unsafe',
    violation: r.verdict === 'fails' ? 'lasso' : r.verdict === 'deadlock' ? 'deadlock' : null,
    reason: r.verdict === 'unknown' ? r.reason : null,
    caveat: r.verdict === 'holds' ? (r.caveat ?? null) : null,
    engine: engine.name,
    timeMs: Math.round(r.stats.timeMs),
    traceReplayed: r.verdict === 'fails' || r.verdict === 'deadlock',
    lasso: r.verdict === 'fails' ? { stem: runJson(p, r.lasso, 0, r.lasso.loopAt), cycle: runJson(p, r.lasso, r.lasso.loopAt, last) } : null,
    deadlock: r.verdict === 'deadlock' ? runJson(p, r.run, 0, r.run.steps.length) : null,
    notes: bound.notes,
    threads: p.threads.length,
    stats: r.stats,
  };
}

/** The HTML report's page of a liveness verdict: a lasso as swimlanes with its cycle marked, or a deadlock's run. */
export function livenessPage<S extends LivenessStats>(bound: BoundProperty, engine: LivenessEngine<S>, r: LivenessOutcome<S>, graphs: readonly Graph[]): ReportPage {
  const p = bound.program;
  const steps = (run: StepRun, n: number) => [...Array(n).keys()].map((k) => runTraceStep(p, run, k));
  const output = livenessText(bound, engine, r);
  const base = { engine: engine.name, output, graphs };
  if (r.verdict === 'holds') return { ...base, verdict: 'safe' };
  if (r.verdict === 'fails') return { ...base, verdict: 'unsafe', trace: { steps: steps(r.lasso, r.lasso.states.length - 1), what: 'Lasso', cycleFrom: r.lasso.loopAt } };
  if (r.verdict === 'deadlock') return { ...base, verdict: 'unsafe', trace: { steps: steps(r.run, r.run.steps.length), what: 'Deadlock' } };
  return { ...base, verdict: 'unknown', reason: r.reason };
}

/** Human and JSON renderings of explorer results and traces. */
import type { ExploreResult, TraceStep } from '../explicit/explore.js';
import type { Program } from '../frontend/program.js';

export function traceText(trace: readonly TraceStep[]): string {
  const width = String(trace.length).length;
  return trace
    .map((s, i) => {
      const what = s.steps.map((x) => x.text).filter(Boolean).join('; ') || '(local steps)';
      const vals = s.values.map(([v, x]) => `${v}=${x}`).join(' ');
      return `  ${String(i + 1).padStart(width)}. ${s.thread} ${s.pos.file}:${s.pos.line}  ${what}${vals ? `   | ${vals}` : ''}`;
    })
    .join('\n');
}

export function exploreText(p: Program, r: ExploreResult): string {
  const [lo, hi] = r.nondetRange;
  const stats = `${r.states} states, ${r.transitionsFired} transitions fired, ${Math.round(r.timeMs)} ms`;
  if (r.errorReachable) {
    const last = r.trace![r.trace!.length - 1];
    return `error reachable: thread ${last.thread} reaches its error location at ${last.pos.file}:${last.pos.line}\ntrace (${r.trace!.length} steps):\n${traceText(r.trace!)}\n(${stats})\n`;
  }
  let scope: string;
  if (!r.complete) scope = `within bounds: stopped at the state bound after ${r.states} states (not exhaustive)`;
  else if (r.usedNondetRange) scope = `within bounds: exhaustive for nondeterministic values in ${lo}..${hi}`;
  else scope = 'in any run: exhaustive, and no nondeterministic choice was cut to a range';
  return `no error ${scope}\n(${stats}; ${p.threads.length} threads)\n`;
}

export function exploreJson(p: Program, r: ExploreResult): unknown {
  const trace = (t?: readonly TraceStep[]) =>
    t?.map((s) => ({
      thread: s.thread,
      transition: s.transition,
      file: s.pos.file,
      line: s.pos.line,
      steps: s.steps.map((x) => ({ line: x.pos.line, text: x.text })),
      values: Object.fromEntries(s.values.map(([v, x]) => [v, x.toString()])),
    })) ?? null;
  return {
    result: r.errorReachable ? 'error-reachable' : 'no-error',
    complete: r.complete,
    usedNondetRange: r.usedNondetRange,
    nondetRange: r.nondetRange.map(String),
    states: r.states,
    transitionsFired: r.transitionsFired,
    timeMs: Math.round(r.timeMs),
    threads: p.threads.length,
    trace: trace(r.trace),
    unsignedWrap: r.unsignedWrap ? { variable: r.unsignedWrap.variable, trace: trace(r.unsignedWrap.trace) } : null,
    warnings: p.warnings.map((w) => ({ file: w.pos.file, line: w.pos.line, col: w.pos.col, message: w.message })),
  };
}

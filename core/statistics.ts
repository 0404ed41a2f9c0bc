/**
 * How every engine's statistics read: the block under the verdict (`statistics:`, the
 * engine's own lines, its time), the solver's line, durations in milliseconds.
 */
import type { BackendName, SolverStats } from '../solver/smt.js';

export const ms = (x: number): string => `${Math.round(x)} ms`;

/** The SMT back end's counters; `brief`: queries and time only (an engine that asks no Horn queries and rarely repeats one). */
export function solverLine(backend: BackendName | null, s: SolverStats, brief = false): string {
  const counts = brief ? `queries ${s.queries}` : `queries ${s.queries} (cache hits ${s.cacheHits}), Horn queries ${s.hornQueries}`;
  return `solver: ${backend}, ${counts}, ${ms(s.timeMs)}`;
}

/** The statistics block: the engine's lines (EngineReport.stats) indented under `statistics:`, the run's time last. */
export function statisticsText(lines: readonly string[], timeMs: number): string {
  return ['statistics:', ...lines.map((l) => `  ${l}`), `  time: ${ms(timeMs)}`].join('\n');
}

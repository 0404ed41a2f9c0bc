/** What `rely bench --suite differential|fuzz` hands its runner: the command line's choices (undefined: the runner's default). */
import type { SolverChoice } from '../solver/select.js';

export interface SuiteRun {
  readonly count?: number;
  readonly seed?: number;
  /** The first program or case (default 0). */
  readonly from?: number;
  /** The engines named by --engine; undefined: every engine the suite runs by default. */
  readonly engines?: readonly string[];
  /** Per run (or per case), seconds. */
  readonly timeoutS?: number;
  readonly jobs: number;
  readonly solver: SolverChoice;
  /** differential: the generator's data programs (structs, unions, run-time indices, pointers). */
  readonly data?: boolean;
  /** differential: the generator's sync programs (condition variables, rwlocks, barriers, semaphores, trylock, spinlocks, atomics). */
  readonly sync?: boolean;
  /** Where results.md / results.json and failing inputs go. */
  readonly out: string;
}

/** Where a runner writes its lines: stdout and stderr of the CLI. */
export interface SuiteIo {
  out: (s: string) => void;
  err: (s: string) => void;
}

/**
 * The indices a run has checked, as `a..b` ranges (`450..649, 660..679`): with several jobs
 * a stopped run's set is not a prefix, and a later run must know what is left.
 */
export function indexRanges(indices: Iterable<number>): string {
  const sorted = [...new Set(indices)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    parts.push(i === j ? `${sorted[i]}` : `${sorted[i]}..${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(', ');
}

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
  /** Where results.md / results.json and failing inputs go. */
  readonly out: string;
}

/** Where a runner writes its lines: stdout and stderr of the CLI. */
export interface SuiteIo {
  out: (s: string) => void;
  err: (s: string) => void;
}

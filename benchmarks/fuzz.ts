/** Placeholder while this suite is being written (issue 25). */
import type { SuiteIo, SuiteRun } from './suite-run.js';

export async function fuzzSuite(_run: SuiteRun, io: SuiteIo): Promise<number> {
  io.err('rely bench: this suite is not written yet\n');
  return 4;
}

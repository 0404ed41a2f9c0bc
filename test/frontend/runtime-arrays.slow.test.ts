/**
 * Arrays whose size is known only at run time: the symbolic verdicts do not depend on
 * --int-range, where the explorer's range would hide the error. The constructs are in
 * runtime-arrays.test.ts.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRELUDE, rely } from '../helpers.js';

describe('run-time-size arrays: the symbolic verdicts do not depend on --int-range', () => {
  // n up to 1000 is beyond what the explorer enumerates (it draws n from -2..2): the
  // error needs n >= 5, so only an engine that reasons about every n decides it.
  const src = (bound: number): string => `${PRELUDE}#include <stdlib.h>
int *a; int n;
void *w(void *x) { a[n - 1] = n; return 0; }
int main() { n = __VERIFIER_nondet_int(); __VERIFIER_assume(0 < n && n <= 1000);
  a = calloc(n, sizeof(int));
  pthread_t t; pthread_create(&t, 0, w, 0); pthread_join(t, 0);
  if (a[n - 1] > ${bound}) reach_error(); return 0; }
`;
  const dir = mkdtempSync(join(tmpdir(), 'rely-rtarrays-range-'));
  const verify = async (file: string, engine: string, range: string[]): Promise<{ verdict: string; reason?: string }> =>
    JSON.parse((await rely(['verify', '--engine', engine, '--json', '--timeout', '30', ...range, file])).out);
  for (const [name, bound, expected] of [['beyond-range-bug', 4, 'unsafe'], ['beyond-range', 1000, 'safe']] as const)
    it(`${name}: ${expected} by the symbolic engines with and without --int-range 0..2; explicit-global says UNKNOWN (it keeps no arrays), never SAFE`, async () => {
      const file = join(dir, `${name}.c`);
      writeFileSync(file, src(bound));
      for (const engine of expected === 'safe' ? ['monolithic'] : ['bmc', 'monolithic'])
        for (const range of [[], ['--int-range', '0..2']]) expect((await verify(file, engine, range)).verdict, `${engine} ${range.join(' ')}`).toBe(expected);
      const explicit = await verify(file, 'explicit-global', ['--int-range', '0..2']);
      expect([explicit.verdict, explicit.reason]).toEqual(['unknown', expect.stringMatching(/^unsupported by the explicit-global engine: objects of a size known only at run time/)]);
    }, 300_000);
});

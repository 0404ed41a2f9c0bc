/** Programs for the liveness tests: MUX-SEM, the declarations they start with, a file for each, and an engine's verdict on one. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { Budget } from '../../../core/budget.js';
import type { LivenessOutcome } from '../../../core/lasso.js';
import type { AnyLivenessEngine } from '../../../engines/registry.js';
import type { BoundProperty } from '../../../cli/ltl.js';

const dir = mkdtempSync(join(tmpdir(), 'rely-liveness-'));
let files = 0;
/** `src` in a new file (a program unless `name` says otherwise) of a fresh folder: its path. */
export const file = (src: string, name = `p${files++}.c`): string => {
  const f = join(dir, name);
  writeFileSync(f, src);
  return f;
};

/** The declarations every program here starts with. */
export const HEAD = `#include <pthread.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
extern void __VERIFIER_assume(int);
`;

/** MUX-SEM (Cohen–Namjoshi Fig. 1(a)) with n processes. */
export const muxSem = (n: number): string => `${HEAD}int x = 1;
void *P(void *arg) {
  while (1) {
  NC: ;
  J1: __VERIFIER_atomic_begin(); __VERIFIER_assume(x == 1); x = 0; __VERIFIER_atomic_end();
  J2: x = 1;
  }
  return 0;
}
int main() {
  pthread_t t[${n}];
  for (int i = 0; i < ${n}; i++) pthread_create(&t[i], 0, P, 0);
  return 0;
}
`;

/** The engine's verdict on `bound`'s property, within `seconds`. */
export const decide = async (engine: AnyLivenessEngine, bound: BoundProperty, seconds: number): Promise<LivenessOutcome> =>
  (await engine.run(bound.program, {}, { budget: new Budget({ deadline: performance.now() + seconds * 1000 }), log: pino({ level: 'silent' }) }, bound.property)).verdict;

/** Programs with atomic sections, and the agreement of the explorer and every engine on a program's verdict. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { PRELUDE, rely, run } from '../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'rely-atomic-'));

/** The program `src`, the prelude first, written to a file of a fresh folder: its path. */
export function file(name: string, src: string): string {
  const f = join(dir, `${name}.c`);
  writeFileSync(f, PRELUDE + src);
  return f;
}

/** The verdict of `rely verify --engine E …` on a program. */
async function verdict(name: string, src: string, engine: string[]): Promise<string> {
  const r = await rely(['verify', '--engine', ...engine, '--json', '--timeout', '30', file(name, src)]);
  return JSON.parse(r.out).verdict;
}

const SAFE_ENGINES = [['aret'], ['aret', '--horn-solver', 'linear'], ['monolithic'], ['explicit-global'], ['explicit-modular']];
const UNSAFE_ENGINES = [['aret'], ['aret', '--horn-solver', 'linear'], ['bmc'], ['monolithic'], ['explicit-global'], ['explicit-modular']];

/** The explorer (exhaustive) and every engine that decides the program agree. */
export async function agree(name: string, src: string, safe: boolean): Promise<void> {
  const r = run(src);
  expect(r.errorReachable, `${name}: explorer`).toBe(!safe);
  if (safe) expect(r.complete && !r.usedNondetRange, `${name}: explorer exhaustive`).toBe(true);
  for (const engine of safe ? SAFE_ENGINES : UNSAFE_ENGINES)
    expect(await verdict(name, src, engine), `${name}: ${engine.join(' ')}`).toBe(safe ? 'safe' : 'unsafe');
}

/** A store buffer's flush, as pthread-wmm writes it: one atomic section of conditional stores. */
export const storeBuffer = (check: string) => `
  _Bool used, mine, choice; int buf, x;
  void *P0(void *a) {
    __VERIFIER_atomic_begin();
    choice = __VERIFIER_nondet_bool();
    x = used && mine ? buf : x;
    used = choice ? used : (used && mine ? (_Bool)0 : used);
    mine = used && mine || x == 2 ? (_Bool)0 : mine;
    __VERIFIER_atomic_end();
    return 0;
  }
  int main() {
    pthread_t t; pthread_create(&t, 0, P0, 0);
    __VERIFIER_atomic_begin(); buf = 2; used = 1; mine = 1; __VERIFIER_atomic_end();
    pthread_join(t, 0);
    if (${check}) reach_error();
    return 0;
  }`;

/** A section of 2^13 paths through its branches (a shape the fuzzer found). */
export const wide = (check: string) => `
  int x, y;
  void *t(void *a) {
    __VERIFIER_atomic_begin();
${Array.from({ length: 13 }, (_, i) => `    if (x == ${i}) y = y + ${i + 1};`).join('\n')}
    __VERIFIER_atomic_end();
    return 0;
  }
  int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); x = 1; if (${check}) reach_error(); return 0; }`;

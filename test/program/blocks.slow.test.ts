/**
 * Large blocks never need more states than small steps, on every bundled program; and
 * this machine's `gcc -E` output (glibc headers inlined) lowers exactly like its source,
 * with line markers and without. The programs' verdicts with small steps and large
 * blocks are in blocks.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProgram } from '../../frontend/index.js';
import type { Program } from '../../program/program.js';
import { explore } from '../../engines/state-space/explore.js';
import { show } from '../../solver/formula.js';
import { CASES } from './bundled-programs.js';

describe('benchmark programs and fixtures', () => {
  it('large blocks never need more states than small steps', () => {
    for (const [file] of CASES) {
      const big = explore(loadProgram(file)).states;
      const small = explore(loadProgram(file, { largeBlocks: false })).states;
      expect(big).toBeLessThanOrEqual(small);
    }
  });
});

/** Whether this machine has gcc (for `.i` files it preprocesses itself). */
function hasGcc(): boolean {
  try {
    execFileSync('gcc', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** What lowering made of a program: threads, their transitions, variables, φ_init. */
function fingerprint(p: Program): string {
  const threads = p.threads.map((t) => [t.name, t.errorPc !== undefined, t.transitions.map((r) => `${r.from}>${r.to}: ${show(r.formula)}`)]);
  return JSON.stringify({ threads, vars: [...p.vars.keys()], init: show(p.init) });
}

const gcc = hasGcc();
if (!gcc) console.log('skipped: the gcc -E tests need gcc (apt-get install gcc)');

describe.skipIf(!gcc)("this machine's gcc -E output (glibc headers inlined)", () => {
  const dirs = ['benchmarks/programs', 'benchmarks/programs/hard'];
  const files = dirs.flatMap((d) => readdirSync(d).filter((f) => f.endsWith('.c')).map((f) => join(d, f)));
  const out = mkdtempSync(join(tmpdir(), 'rely-gcc-'));
  // With line markers (gcc -E) and without (gcc -E -P, where no line says which
  // declarations came from a header).
  for (const flags of [['-E'], ['-E', '-P']])
    it(`gcc ${flags.join(' ')}: every bundled program lowers exactly like its source (${files.length} programs)`, () => {
      for (const f of files) {
        const i = join(out, `${basename(f, '.c')}${flags.length}.i`);
        execFileSync('gcc', [...flags, f, '-o', i]);
        const calls = f.includes('recursive') ? 'keep' : 'inline';
        expect(fingerprint(loadProgram(i, { calls })), f).toBe(fingerprint(loadProgram(f, { calls })));
      }
    }, 60_000);
});

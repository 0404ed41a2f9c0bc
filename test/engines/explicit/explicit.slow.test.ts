/**
 * The explicit-state engines on unbounded recursion (finite summaries prove it), and
 * against the concrete explorer on the differential corpus: both agree with it on every
 * program it decides. The other tests are in explicit.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { compileProgram, loadProgram } from '../../../frontend/index.js';
import { InputError } from '../../../program/diagnostics.js';
import { explore } from '../../../engines/state-space/explore.js';
import { verifyExplicit, type ExplicitEngine } from '../../../engines/explicit/verify.js';
import { generateProgram } from '../../../benchmarks/generate-programs.js';

describe('recursion: calls kept as calls (AG PDA rules)', () => {
  it('unbounded recursion: finite summaries prove it, the global stacks never end', () => {
    const p = loadProgram('benchmarks/programs/recursive-unbounded.c', { calls: 'keep' });
    expect(verifyExplicit(p, 'explicit-modular').verdict).toBe('safe');
    const g = verifyExplicit(p, 'explicit-global', { maxStates: 20_000 });
    expect(g.verdict === 'unknown' && g.reason).toBe('state limit (20000 states)');
  });
});

describe('agreement with the concrete explorer on the differential corpus (seed 20110126)', () => {
  const SEED = 20110126;
  const COUNT = 200;
  it(`${COUNT} programs: both engines agree wherever they answer`, () => {
    const counts = { checked: 0, global: 0, modular: 0, refuted: 0, unknown: 0 };
    const disagreements: string[] = [];
    for (let i = 0; i < COUNT; i++) {
      const source = generateProgram(SEED, i);
      let oracle;
      try {
        oracle = explore(compileProgram(source, `gen-${i}.c`));
      } catch (e) {
        if (e instanceof InputError) continue;
        throw e;
      }
      if (!oracle.complete || oracle.usedNondetRange) continue;
      counts.checked++;
      const truth = oracle.errorReachable ? 'unsafe' : 'safe';
      const p = compileProgram(source, `gen-${i}.c`, { calls: 'keep' });
      for (const engine of ['explicit-global', 'explicit-modular'] as ExplicitEngine[]) {
        const v = verifyExplicit(p, engine);
        if (v.verdict === 'unknown') counts.unknown++;
        else if (v.verdict !== truth) disagreements.push(`program ${i} (${engine}): ${v.verdict}, the explorer says ${truth}\n${source}`);
        else counts[engine === 'explicit-global' ? 'global' : 'modular']++;
        if (engine === 'explicit-modular' && v.stats.confirmation?.verdict === 'no error') counts.refuted++;
      }
    }
    expect(disagreements, disagreements.join('\n\n')).toEqual([]);
    // Every program the explorer decides is checked; both engines agree on each, explicit-modular once after explicit-global refuted an error of its abstraction.
    expect(counts).toEqual({ checked: 200, global: 200, modular: 200, refuted: 1, unknown: 0 });
  });
});

/**
 * Liveness, the differential test: on generated small finite-state programs and random
 * formulas the split engine and explicit-global never contradict each other, and every
 * lasso and deadlock replays. The end-to-end tests are in liveness.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { generateProgram } from '../../../benchmarks/generate-programs.js';
import { mulberry32 } from '../../../benchmarks/prng.js';
import { readProperty } from '../../../cli/ltl.js';
import type { Fairness } from '../../../core/fair-cycles.js';
import { lassoFailure, deadlockFailure } from '../../../engines/state-space/api.js';
import { LIVENESS_ENGINES } from '../../../engines/registry.js';
import { decide, file, muxSem } from './liveness-programs.js';

/** A random formula over the atoms, as text. */
function randomFormula(r: () => number, atoms: readonly string[], depth: number): string {
  if (depth === 0 || r() < 0.25) return atoms[Math.floor(r() * atoms.length)];
  const unary = ['!', 'X', 'F', 'G'];
  const binary = ['&&', '||', '->', 'U', 'R'];
  if (r() < 0.5) return `${unary[Math.floor(r() * unary.length)]} (${randomFormula(r, atoms, depth - 1)})`;
  return `(${randomFormula(r, atoms, depth - 1)}) ${binary[Math.floor(r() * binary.length)]} (${randomFormula(r, atoms, depth - 1)})`;
}

describe('differential: split against explicit-global', () => {
  it('on 60 generated programs (half of them looping forever) × 2 formulas × the three fairness notions: no contradiction, every lasso and deadlock replays', async () => {
    const r = mulberry32(22);
    const counts = { agree: 0, unknown: 0, holds: 0, fails: 0, deadlock: 0 };
    const contradictions: string[] = [];
    for (let k = 0; k < 60; k++) {
      const src = generateProgram(2026, k, { looping: k % 2 === 0 });
      const f = file(src);
      const globals = ['x', 'y', 'z'].filter((v) => new RegExp(`^int ${v} =`, 'm').test(src));
      const atoms = globals.flatMap((v) => [`${v} == ${Math.floor(r() * 3)}`, `${v} <= ${Math.floor(r() * 3)}`]);
      for (let j = 0; j < 2; j++) {
        const ltl = randomFormula(r, atoms, 3);
        const fairness = (['unconditional', 'weak', 'none'] as const)[(k + j) % 3];
        const bound = readProperty(f, { ltl, fairness }, {});
        const out = await Promise.all(LIVENESS_ENGINES.map((e) => decide(e, bound, 20)));
        for (const o of out) {
          if (o.verdict === 'fails') expect(lassoFailure(bound.program, bound.property, o.lasso, [-2n, 2n])).toBeUndefined();
          if (o.verdict === 'deadlock') expect(deadlockFailure(bound.program, o.run, [-2n, 2n])).toBeUndefined();
        }
        const [a, b] = out.map((o) => o.verdict);
        if (a === 'unknown' || b === 'unknown') counts.unknown++;
        else if (a !== b) contradictions.push(`program ${k}, ${ltl} (${fairness}): split ${a}, explicit-global ${b}`);
        else (counts.agree++, counts[a]++);
      }
    }
    expect(contradictions).toEqual([]);
    expect(counts.agree).toBeGreaterThan(100);
    expect(counts.holds).toBeGreaterThan(5);
    expect(counts.fails).toBeGreaterThan(5);
    expect(counts.deadlock).toBeGreaterThan(5);
  }, 300_000); // a minute or more on a busy machine

  it('with identical instances (split keeps views up to symmetry): generated programs and MUX-SEM(2..4), no contradiction, every lasso replays', async () => {
    const r = mulberry32(2211);
    const counts = { agree: 0, unknown: 0, holds: 0, fails: 0, deadlock: 0, symmetric: 0 };
    const contradictions: string[] = [];
    const cases: { src: string; ltl: string; fairness: Fairness }[] = [];
    for (let k = 0; k < 30; k++) {
      const src = generateProgram(2211, k, { looping: true, instances: true });
      const globals = ['x', 'y', 'z'].filter((v) => new RegExp(`^int ${v} =`, 'm').test(src));
      const atoms = globals.flatMap((v) => [`${v} == ${Math.floor(r() * 3)}`, `${v} <= ${Math.floor(r() * 3)}`]);
      for (let j = 0; j < 2; j++) cases.push({ src, ltl: randomFormula(r, atoms, 3), fairness: (['unconditional', 'weak', 'none'] as const)[(k + j) % 3] });
    }
    const muxAtoms = ['x == 0', 'at(P#1, J1)', 'at(P#1, J2)', 'at(P#2, NC)'];
    for (const n of [2, 3, 4])
      for (let j = 0; j < 6; j++) cases.push({ src: muxSem(n), ltl: randomFormula(r, muxAtoms, 3), fairness: (['unconditional', 'weak', 'none'] as const)[j % 3] });
    for (const { src, ltl, fairness } of cases) {
      const f = file(src);
      const bound = readProperty(f, { ltl, fairness }, {});
      const out = await Promise.all(LIVENESS_ENGINES.map((e) => decide(e, bound, 20)));
      for (const o of out) {
        if (o.verdict === 'fails') expect(lassoFailure(bound.program, bound.property, o.lasso, [-2n, 2n])).toBeUndefined();
        if (o.verdict === 'deadlock') expect(deadlockFailure(bound.program, o.run, [-2n, 2n])).toBeUndefined();
      }
      if ((out[0].stats as { symmetry?: string[] }).symmetry?.length) counts.symmetric++;
      const [a, b] = out.map((o) => o.verdict);
      if (a === 'unknown' || b === 'unknown') counts.unknown++;
      else if (a !== b) contradictions.push(`${f}, ${ltl} (${fairness}): split ${a}, explicit-global ${b}`);
      else (counts.agree++, counts[a]++);
    }
    expect(contradictions).toEqual([]);
    expect(counts.symmetric).toBeGreaterThan(cases.length / 2);
    expect(counts.agree).toBeGreaterThan(cases.length * 0.8);
    expect(counts.holds).toBeGreaterThan(3);
    expect(counts.fails).toBeGreaterThan(3);
    expect(counts.deadlock).toBeGreaterThan(3);
  }, 300_000);
});

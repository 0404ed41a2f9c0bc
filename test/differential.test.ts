/**
 * Differential test: on random small programs (benchmarks/generate-programs.ts) the verdict of
 * `verify` never contradicts exhaustive exploration — SAFE only where no run reaches the
 * error, UNSAFE only where one does. UNKNOWN (timeout, iteration limit, a stuck
 * refinement…) is allowed and counted.
 *
 * RELY_DIFF_SEED and RELY_DIFF_COUNT override the seed and the number of programs.
 * Every verify run gets a deadline of RELY_DIFF_TIMEOUT_MS (default 5 s); every program
 * is verified with bias 'modular', every 4th also with 'none', every 2nd also by the
 * default portfolio (`--engine auto`). RELY_DIFF_BLOCK_BUDGET_MS
 * (default 0 = no limit) stops a block of 50 programs from starting verify runs after
 * that long, for quick local runs: the programs it leaves are still explored, and counted
 * as "not verified" in the summary.
 * For many more programs: `node dist/benchmarks/differential.js --seed S --count N`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSolver } from '../solver/select.js';
import type { SmtSolver } from '../solver/smt.js';
import type { Bias } from '../aret/refine.js';
import { DiffSummary, checkProgram, contradictionReport } from '../benchmarks/differential-check.js';

const envInt = (name: string, fallback: number): number => {
  const v = process.env[name];
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got '${v}'`);
  return n;
};

const SEED = envInt('RELY_DIFF_SEED', 20110126);
const COUNT = envInt('RELY_DIFF_COUNT', 200);
const BLOCK_BUDGET_MS = envInt('RELY_DIFF_BLOCK_BUDGET_MS', 0);
const TIMEOUT_MS = envInt('RELY_DIFF_TIMEOUT_MS', 5_000);
const BLOCK = 50;

let solver: SmtSolver;
const summary = new DiffSummary();

beforeAll(() => {
  console.log(`differential: seed ${SEED}, ${COUNT} programs, ${TIMEOUT_MS} ms per verify run (RELY_DIFF_SEED, RELY_DIFF_COUNT, RELY_DIFF_TIMEOUT_MS)`);
  solver = createSolver('auto');
});

afterAll(async () => {
  console.log(summary.line(SEED));
  for (const e of summary.exceptions) console.log(`verify threw: ${e}`);
  await solver?.close();
});

describe(`verify never contradicts exhaustive exploration (seed ${SEED})`, () => {
  for (let from = 0; from < COUNT; from += BLOCK) {
    const to = Math.min(COUNT, from + BLOCK);
    it(
      `programs ${from}..${to - 1}`,
      async () => {
        const t0 = performance.now();
        const contradictions: string[] = [];
        const rejected: string[] = [];
        for (let i = from; i < to; i++) {
          const inBudget = BLOCK_BUDGET_MS === 0 || performance.now() - t0 < BLOCK_BUDGET_MS;
          const biases: Bias[] = !inBudget ? [] : i % 4 === 0 ? ['modular', 'none'] : ['modular'];
          // Every other program also through the default portfolio, as `rely verify` runs it.
          const c = await checkProgram(SEED, i, { solver, biases, auto: inBudget && i % 2 === 0, timeoutMs: TIMEOUT_MS, maxIterations: 50 });
          summary.add(c);
          if (c.skipped?.startsWith('frontend')) rejected.push(`seed ${SEED} program ${i}: ${c.skipped}\n${c.source}`);
          for (const r of c.runs) if (r.contradiction) contradictions.push(contradictionReport(c, r));
        }
        console.log(`programs ${from}..${to - 1} done in ${((performance.now() - t0) / 1000).toFixed(1)} s; so far: ${summary.line(SEED)}`);
        // The generator only writes what the frontend accepts.
        expect(rejected, rejected.join('\n\n')).toEqual([]);
        expect(contradictions.length, contradictions.join('\n\n')).toBe(0);
      },
      BLOCK_BUDGET_MS === 0 ? BLOCK * 3 * (TIMEOUT_MS + 5_000) : BLOCK_BUDGET_MS + 2 * TIMEOUT_MS + 30_000,
    );
  }
});

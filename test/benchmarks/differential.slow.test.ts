/**
 * Differential test: on random small programs (benchmarks/generate-programs.ts) no engine's
 * verdict contradicts exhaustive exploration — SAFE only where no run reaches the
 * error, UNSAFE only where one does. UNKNOWN (timeout, iteration limit, a stuck
 * refinement…) is allowed and counted.
 *
 * RELY_DIFF_SEED and RELY_DIFF_COUNT override the seed and the number of programs (default 50:
 * `rely bench --suite differential` checks thousands, with every engine).
 * Every verify run gets a deadline of RELY_DIFF_TIMEOUT_MS (default 5 s); every program
 * is verified by the ARET engine with bias 'modular', every 4th also with 'none', every 2nd
 * also by the default portfolio (`--engine auto`); then a few of the extended programs
 * (arrays, calls, nondet values, loops, `%`) and of the data programs (structs, a union,
 * run-time indices, pointers to cells and structs) and of the sync programs (condition
 * variables, rwlocks, a barrier, a semaphore, trylock, a spinlock, atomic counters) by every configuration. RELY_DIFF_BLOCK_BUDGET_MS
 * (default 0 = no limit) stops a block of 50 programs from starting verify runs after
 * that long, for quick local runs: the programs it leaves are still explored, and counted
 * as "not verified" in the summary.
 * For many more programs, every engine: `rely bench --suite differential --seed S --count N`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiffSummary, checkProgram, contradictionReport, diffConfigs } from '../../benchmarks/differential-check.js';

const envInt = (name: string, fallback: number): number => {
  const v = process.env[name];
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got '${v}'`);
  return n;
};

const SEED = envInt('RELY_DIFF_SEED', 20110126);
const COUNT = envInt('RELY_DIFF_COUNT', 50);
const BLOCK_BUDGET_MS = envInt('RELY_DIFF_BLOCK_BUDGET_MS', 0);
const TIMEOUT_MS = envInt('RELY_DIFF_TIMEOUT_MS', 5_000);
const BLOCK = 50;

const EXTENDED = envInt('RELY_DIFF_EXTENDED_COUNT', 2);
const DATA = envInt('RELY_DIFF_DATA_COUNT', 1);
const SYNC = envInt('RELY_DIFF_SYNC_COUNT', 1);
const summary = new DiffSummary();
const [modular, none, auto] = diffConfigs(['aret-modular-spacer', 'aret-none-spacer', 'auto']);

beforeAll(() => {
  console.log(`differential: seed ${SEED}, ${COUNT} programs, ${TIMEOUT_MS} ms per verify run (RELY_DIFF_SEED, RELY_DIFF_COUNT, RELY_DIFF_TIMEOUT_MS)`);
});

afterAll(() => {
  console.log(summary.line(SEED));
  console.log(summary.table());
  for (const e of summary.exceptions) console.log(`verify threw: ${e}`);
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
          // Every other program also through the default portfolio, as `rely verify` runs it.
          const configs = !inBudget ? [] : [modular, ...(i % 4 === 0 ? [none] : []), ...(i % 2 === 0 ? [auto] : [])];
          const c = await checkProgram(SEED, i, { configs, timeoutMs: TIMEOUT_MS });
          summary.add(c);
          if (c.skipped?.startsWith('frontend')) rejected.push(`seed ${SEED} program ${i}: ${c.skipped}\n${c.source}`);
          for (const r of c.runs) if (r.contradiction) contradictions.push(contradictionReport(c, r));
        }
        // The generator only writes what the frontend accepts.
        expect(rejected, rejected.join('\n\n')).toEqual([]);
        expect(contradictions.length, contradictions.join('\n\n')).toBe(0);
      },
      BLOCK_BUDGET_MS === 0 ? BLOCK * 3 * (TIMEOUT_MS + 5_000) : BLOCK_BUDGET_MS + 2 * TIMEOUT_MS + 30_000,
    );
  }
});

/** The generator's richer programs, each decided by every configuration. */
const RICH: [what: string, count: number, opts: { extended: boolean; data?: boolean; sync?: boolean }][] = [
  ['extended programs (arrays, calls, nondet values, loops, %', EXTENDED, { extended: true }],
  ['data programs (structs, a union, run-time indices, pointers to cells and structs', DATA, { extended: true, data: true }],
  ['sync programs (condition variables, rwlocks, a barrier, a semaphore, trylock, a spinlock, atomic counters', SYNC, { extended: true, sync: true }],
];

for (const [what, count, mode] of RICH)
  describe(`every engine on the ${what}; seed ${SEED})`, () => {
    it(`programs 0..${count - 1}: no contradiction, no exception`, async () => {
      const local = new DiffSummary();
      const failures: string[] = [];
      for (let i = 0; i < count; i++) {
        const c = await checkProgram(SEED, i, { configs: diffConfigs(), timeoutMs: TIMEOUT_MS, ...mode });
        local.add(c);
        summary.add(c);
        if (c.skipped?.startsWith('frontend')) failures.push(`seed ${SEED} program ${i}: ${c.skipped}\n${c.source}`);
        for (const r of c.runs) if (r.contradiction || r.verdict === 'exception') failures.push(r.contradiction ? contradictionReport(c, r) : `${r.config} threw on program ${i}: ${r.reason}`);
      }
      console.log(`${what.split(' ')[0]}: ${local.line(SEED)}\n${local.table()}`);
      expect(failures, failures.join('\n\n')).toEqual([]);
    }, count * 11 * (TIMEOUT_MS + 5_000));
  });

/**
 * The default engine (`auto`): aret, bmc, monolithic and explicit-global side by side, the first
 * conclusive verdict wins and the other lanes are stopped, with nothing left running;
 * bmc alone finds bugs and proves nothing; a lane's budget and solvers stop when its
 * signal fires.
 */
import { execSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { Budget } from '../../../core/budget.js';
import { Cancelled } from '../../../core/errors.js';
import { SolverPool } from '../../../solver/select.js';
import { findZ3 } from '../../../solver/z3-native.js';
import { and, eq, ge, le, mkVar, mul, num } from '../../../solver/formula.js';
import { rely } from '../../helpers.js';

const LOCKID = 'benchmarks/programs/lockid.c';
const DEEP = 'benchmarks/programs/hard/rwlock-deep-bug.c';
/** Infinite-state programs: explicit-global is UNKNOWN (bounded) on them, a symbolic lane decides. */
const NONDET_SAFE = 'test/fixtures/nondet-sum.c';
const NONDET_BUG = 'test/fixtures/nondet-large.c';
const ALL_LANES = ['aret', 'bmc', 'monolithic', 'explicit-global'];
const z3 = findZ3();

/** The pids of the z3 processes this process started that are still alive (not zombies waiting to be reaped). */
function liveZ3Children(): Set<string> {
  const ps = execSync(`ps -o pid=,stat=,comm= --ppid ${process.pid} || true`, { encoding: 'utf8' });
  return new Set(ps.split('\n').map((l) => l.trim().split(/\s+/)).filter(([, stat, comm]) => comm === 'z3' && !stat.startsWith('Z')).map(([pid]) => pid));
}

describe('rely verify --engine auto (the default)', () => {
  it('an unsafe program: UNSAFE with a replayed trace, the lane that decided named in the output and the JSON', async () => {
    const r = await rely(['verify', DEEP]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^UNSAFE\n/);
    expect(r.out).toMatch(/replayed in the interpreter/);
    expect(r.out).toMatch(/^ {2}portfolio: decided by (aret|bmc|monolithic|explicit-global) \(aret [^;]+; bmc [^;]+; monolithic [^;]+; explicit-global [^)]+\)$/m);
    const j = JSON.parse((await rely(['verify', '--json', DEEP])).out);
    expect(j).toMatchObject({ verdict: 'unsafe', engine: 'auto', traceReplayed: true });
    expect(ALL_LANES).toContain(j.decidedBy);
    expect(j.stats.lanes.map((l: { engine: string }) => l.engine)).toEqual(ALL_LANES);
    const winner = j.stats.lanes.find((l: { engine: string }) => l.engine === j.decidedBy);
    expect(winner.verdict).toBe('unsafe');
    for (const l of j.stats.lanes) if (l !== winner) expect(['stopped', 'not run', 'unsafe', 'unknown']).toContain(l.verdict);
  });

  it('a lane in a worker thread is stopped when another decides (explicit-global, which would search on to its state limit)', async () => {
    const j = JSON.parse((await rely(['verify', '--json', NONDET_BUG])).out);
    expect(j).toMatchObject({ verdict: 'unsafe', traceReplayed: true });
    expect(j.decidedBy).not.toBe('explicit-global');
    expect(j.stats.lanes.find((l: { engine: string }) => l.engine === 'explicit-global').verdict).toBe('stopped');
  });

  it('a finite-state program is decided by explicit-global in its worker thread, before the solver lanes start', async () => {
    const j = JSON.parse((await rely(['verify', '--json', LOCKID])).out);
    expect(j).toMatchObject({ verdict: 'safe', engine: 'auto', decidedBy: 'explicit-global', proofChecked: true });
    expect(j.stats.lanes.find((l: { engine: string }) => l.engine === 'explicit-global').stats.states).toBeGreaterThan(0);
    const t = await rely(['verify', LOCKID]);
    expect(t.out).toMatch(/^SAFE\nproof: /);
  });

  it('an infinite-state safe program: SAFE with a symbolic lane\'s checked proof; --json has the lane\'s own fields', async () => {
    const j = JSON.parse((await rely(['verify', '--json', NONDET_SAFE])).out);
    expect(j).toMatchObject({ verdict: 'safe', engine: 'auto', proofChecked: true });
    expect(['aret', 'monolithic']).toContain(j.decidedBy);
    if (j.decidedBy === 'aret') expect(j).toMatchObject({ bias: 'modular' });
    const explicit = j.stats.lanes.find((l: { engine: string }) => l.engine === 'explicit-global');
    expect(explicit.verdict === 'stopped' || explicit.reason.startsWith('bounded: ')).toBe(true);
    const t = await rely(['verify', NONDET_SAFE]);
    expect(t.out).toMatch(/^SAFE\nproof: /);
  });

  it.skipIf(!z3)('the lanes it stopped leave no solver process behind (native z3)', async () => {
    const before = liveZ3Children();
    const r = await rely(['verify', '--solver', 'native', DEEP]);
    expect(r.code).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // A z3 of an earlier test that is still on its way out may be gone by now; none may be new.
    expect([...liveZ3Children()].filter((pid) => !before.has(pid))).toEqual([]);
  });

  it('without native z3 the solver lanes run one after another: bmc first, for a slice of the time', async () => {
    const j = JSON.parse((await rely(['verify', '--json', '--solver', 'wasm', '--timeout', '60', NONDET_BUG])).out);
    expect(j).toMatchObject({ verdict: 'unsafe', decidedBy: 'bmc', solver: 'wasm' });
    expect(j.stats.lanes.map((l: { verdict: string }) => l.verdict)).toEqual(['not run', 'unsafe', 'not run', 'stopped']);
  });

  it('no lane decides: UNKNOWN: timeout, with what bmc adds (exit 3)', async () => {
    const r = await rely(['verify', '--timeout', '1', 'benchmarks/programs/hard/bluetooth-n20-fixed.c']);
    expect(r.code).toBe(3);
    expect(r.out.split('\n')[0]).toMatch(/^UNKNOWN: timeout( \(bmc: no error within \d+ steps\))?$/);
  });
});

describe('rely verify --engine bmc', () => {
  it('finds the deep bug with a replayed trace, and proves nothing', async () => {
    const r = await rely(['verify', '--engine', 'bmc', DEEP]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^UNSAFE\n/);
    expect(r.out).toMatch(/engine: bmc, the product program unrolled; no error within \d+ steps/);
    const bounded = await rely(['verify', '--engine', 'bmc', '--max-depth', '3', DEEP]);
    expect(bounded.code).toBe(3);
    expect(bounded.out.split('\n')[0]).toBe('UNKNOWN: bounded: no error within 3 steps (--max-depth)');
    const safe = await rely(['verify', '--engine', 'bmc', '--max-depth', '8', '--proof', '/tmp/rely-bmc-none.smt2', LOCKID]);
    expect(safe.out.split('\n')[0]).toBe('UNKNOWN: bounded: no error within 8 steps (--max-depth)');
    expect(safe.err).toMatch(/the bmc engine writes no SMT-LIB certificate/);
  });
});

describe('stopping a lane', () => {
  it("a lane's budget throws Cancelled once its signal fires, and keeps the run's deadline", () => {
    const stop = new AbortController();
    const run = new Budget({ deadline: performance.now() + 60_000 });
    const lane = run.lane(stop.signal);
    expect(lane.deadline).toBe(run.deadline);
    expect(run.lane(stop.signal, performance.now() + 1_000).deadline).toBeLessThan(run.deadline!);
    lane.check();
    stop.abort();
    expect(() => lane.check()).toThrow(Cancelled);
    run.check(); // the run itself goes on
  });

  it.skipIf(!z3)('a query under way ends as unknown as soon as the pool is stopped, and later ones too (native z3)', async () => {
    const stop = new AbortController();
    const pool = new SolverPool('native', { stop: stop.signal });
    const solver = pool.open();
    // x·y = 2^61 − 1, a prime, with x in 2..2·10^9: z3 takes far longer than the stop to say unsat.
    const x = mkVar('x');
    const y = mkVar('y');
    const hard = and(eq(mul(x, y), num(2n ** 61n - 1n)), ge(x, num(2)), ge(y, num(2)), le(x, num(2_000_000_000)));
    const t0 = performance.now();
    const pending = solver.check([hard], { timeoutMs: 60_000 });
    setTimeout(() => stop.abort(), 200);
    const r = await pending;
    expect(r.status).toBe('unknown');
    expect(performance.now() - t0).toBeLessThan(10_000);
    expect((await solver.check([ge(x, num(0))])).status).toBe('unknown');
  });
});

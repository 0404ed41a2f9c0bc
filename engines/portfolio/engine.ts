/**
 * The portfolio (`rely verify --engine auto`, the default): the ARET engine, the
 * bmc bug hunter, the monolithic baseline and the explicit-state search run side by
 * side on the same program (lanes.ts), each with its own solver processes or worker
 * thread (together they keep both cores busy), and the first conclusive verdict wins;
 * the others are stopped (their budget's signal fires and their solvers close, so a
 * query under way ends at once; a worker is terminated). Without native z3 the solver
 * lanes run one after another (z3-solver serialises every solver call of a process).
 * Each lane keeps its own
 * checks — a SAFE proof re-checked, an UNSAFE trace replayed — so the portfolio adds
 * no verdict of its own; the report says which lane decided.
 */
import type { Engine, EngineResult, EngineStats, EngineVerdict } from '../../core/engine.js';
import { Cancelled, OutOfMemory } from '../../core/errors.js';
import { backendOf } from '../../solver/select.js';
import { aretEngine } from '../aret/engine.js';
import { bmcEngine } from '../bmc/engine.js';
import { LANES, LANE_NICE, inWorker, laneEngine, optionsOf, type LaneSummary, type PortfolioOptions, type PortfolioProof, type PortfolioStats } from './lanes.js';
import { portfolioReport } from './report.js';
import { runInWorker } from './lane-thread.js';

type Decided = { i: number; result: EngineResult<unknown, EngineStats> };
type Settled = Decided | { i: number; error: unknown };

/** Without native z3: the bug hunter's slice of the time, before the ARET gets the rest. */
const WASM_BMC_SLICE = 0.05;
const WASM_BMC_SLICE_MS = 5_000;

/**
 * How long a worker lane first runs in rely's own thread, before any other lane
 * starts. explicit-global decides most finite-state programs within it (Table 1: all
 * of them, in 0.1–0.2 s, compiling its transitions and their liveness included),
 * without a worker's start-up (about 40 ms) and before the solver lanes' z3 processes
 * take the cores (beside them it took 100–160 ms on Fig. 2). A search that needs
 * longer starts again in its worker; the other lanes start at most this much later.
 */
const FIRST_SLICE_MS = 250;

export const portfolioEngine: Engine<PortfolioOptions, PortfolioProof, PortfolioStats> = {
  name: 'auto',
  description: 'aret, bmc, monolithic and explicit-global side by side on both cores: the first conclusive verdict (a checked proof or a replayed trace) wins and the others are stopped',
  lowering: 'inline',
  // Every option of the lanes (shared ones, such as --solver, once).
  options: Object.assign({}, ...LANES.map((l) => l.options)),
  async run(p, o, ctx) {
    const t0 = performance.now();
    const stops = LANES.map(() => new AbortController());
    const options = LANES.map((lane) => optionsOf(lane, o));
    const start = (i: number, deadline?: number, here = false): Promise<Settled> => {
      const lane = LANES[i];
      const laneCtx = {
        budget: ctx.budget.lane(stops[i].signal, deadline),
        log: ctx.log.child({ lane: lane.name }),
        progress: lane === aretEngine ? ctx.progress : undefined, // one progress line: the ARET's
        nice: LANE_NICE.get(lane.name),
      };
      const run = inWorker(lane) && !here ? runInWorker(lane.name, p, options[i], laneCtx) : laneEngine(lane.name)!.run(p, options[i], laneCtx);
      return run.then((result) => ({ i, result }), (error: unknown) => ({ i, error }));
    };
    // With --proof a SAFE verdict counts only from a lane that writes a certificate.
    const decides = (s: Settled): s is Decided =>
      'result' in s && (s.result.verdict.verdict === 'unsafe' || (s.result.verdict.verdict === 'safe' && (!ctx.certificate || LANES[s.i].certificate !== undefined)));
    // With native z3 every lane starts at once. z3-solver runs one solver call at a time
    // per process, so on wasm the solver lanes would only wait for each other: they run
    // one after another, the bug hunter first for a slice of the time, then the ARET,
    // then Spacer with what is left (the worker lanes need no solver and run beside them).
    const together = backendOf(o.solver) === 'native' ? [...LANES.keys()] : [...LANES.keys()].filter((i) => inWorker(LANES[i]));
    const hunter = LANES.indexOf(bmcEngine);
    const queue = [...LANES.keys()].filter((i) => !together.includes(i)).sort((a, b) => Number(b === hunter) - Number(a === hunter));
    const pending = new Map<number, Promise<Settled>>();
    const startNext = (): void => {
      const i = queue.shift();
      if (i === undefined) return;
      const slice = i === hunter && ctx.budget.deadline !== undefined ? performance.now() + Math.min(WASM_BMC_SLICE_MS, WASM_BMC_SLICE * (ctx.budget.deadline - performance.now())) : undefined;
      pending.set(i, start(i, slice));
    };
    const settled: Settled[] = [];
    let winner: Decided | undefined;
    // The worker lanes first, each for a slice in this thread: a finite-state program is
    // decided in that time. A slice that ran out starts again in the lane's worker; any
    // other answer (a bounded search, a state limit) is the lane's.
    for (const i of [...LANES.keys()].filter((j) => inWorker(LANES[j]))) {
      const s = await start(i, performance.now() + FIRST_SLICE_MS, true);
      const v = 'result' in s ? s.result.verdict : undefined;
      if (decides(s)) {
        settled.push((winner = s));
        break;
      }
      if (v?.verdict === 'unknown' && v.reason === 'timeout' && !ctx.budget.expired()) pending.set(i, start(i));
      else settled.push(s);
    }
    if (!winner) {
      for (const i of together) if (!inWorker(LANES[i])) pending.set(i, start(i));
      startNext();
    }
    while (pending.size) {
      const s = await Promise.race(pending.values());
      pending.delete(s.i);
      settled.push(s);
      if (!winner && decides(s)) {
        winner = s;
        queue.length = 0;
        for (const [j] of pending) stops[j].abort();
      } else if (!winner && !together.includes(s.i)) {
        if ('error' in s) queue.length = 0;
        startNext();
      }
    }
    // A lane stopped inside a solver call may fail in any way (its solver closed under it): it was stopped.
    const wasStopped = (s: Settled): boolean => 'error' in s && (s.error instanceof Cancelled || stops[s.i].signal.aborted);
    // A lane out of memory (its worker's heap at the limit) did not decide: its reason is the run's.
    const outOfMemory = (s: Settled): boolean => 'error' in s && s.error instanceof OutOfMemory;
    const failure = settled.find((s) => 'error' in s && !wasStopped(s) && !outOfMemory(s));
    if (failure && 'error' in failure) {
      if (!winner) throw failure.error;
      ctx.log.error({ file: p.file, lane: LANES[failure.i].name, error: String(failure.error) }, 'a portfolio lane failed');
    }
    const lanes = LANES.map((lane, i): LaneSummary => {
      const s = settled.find((x) => x.i === i);
      const none = { engine: lane.name, reason: null, backend: null, stats: null, options: options[i] };
      if (!s) return { ...none, verdict: 'not run' };
      if ('error' in s && outOfMemory(s) && !wasStopped(s)) return { ...none, verdict: 'unknown', reason: (s.error as Error).message };
      if ('error' in s) return wasStopped(s) ? { ...none, verdict: 'stopped' } : { ...none, verdict: 'error', reason: String(s.error) };
      const v = s.result.verdict;
      // A lane stopped inside a solver query ends as unknown: it did not decide, it was stopped.
      const stopped = winner !== undefined && winner.i !== i && v.verdict === 'unknown' && stops[i].signal.aborted;
      return {
        ...none,
        verdict: stopped ? 'stopped' : v.verdict,
        reason: v.verdict === 'unknown' && !stopped ? v.reason : null,
        backend: s.result.backend,
        stats: v.stats,
      };
    });
    const decidedBy = winner ? LANES[winner.i].name : null;
    const stats: PortfolioStats = { timeMs: performance.now() - t0, decidedBy, lanes };
    const verdict = ((): EngineVerdict<PortfolioProof, PortfolioStats> => {
      if (!winner) return { verdict: 'unknown', reason: undecided(lanes), stats };
      const v = winner.result.verdict;
      if (v.verdict === 'safe') return { verdict: 'safe', proof: { engine: decidedBy!, proof: v.proof }, proofChecked: true, stats };
      if (v.verdict === 'unsafe') return { verdict: 'unsafe', trace: v.trace, traceReplayed: true, stats };
      throw new Error('internal: a winner without a verdict');
    })();
    return { verdict, backend: winner?.result.backend ?? lanes.find((l) => l.backend)?.backend ?? null };
  },
  certificate: (p, proof) => {
    const lane = laneEngine(proof.engine);
    if (!lane?.certificate) throw new Error(`internal: the ${proof.engine} engine writes no certificate`);
    return lane.certificate(p, proof.proof);
  },
  report: portfolioReport,
};

/**
 * Why no lane decided: `timeout` when the time ran out for all (with what the lanes
 * that say more add, such as bmc's depth), else each lane's reason.
 */
function undecided(lanes: readonly LaneSummary[]): string {
  const reasons = lanes.map((l) => ({ engine: l.engine, reason: l.reason ?? l.verdict }));
  if (!reasons.every((r) => r.reason.startsWith('timeout'))) return reasons.map((r) => `${r.engine}: ${r.reason}`).join('; ');
  const more = reasons.filter((r) => r.reason !== 'timeout').map((r) => `${r.engine}: ${r.reason.replace(/^timeout \((.*)\)$/, '$1')}`);
  return more.length ? `timeout (${more.join('; ')})` : 'timeout';
}

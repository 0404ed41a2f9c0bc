/**
 * The portfolio (`rely verify --engine auto`, the default): the ARET engine, the
 * bmc bug hunter, the monolithic baseline and the explicit-state search run side by
 * side on the same program (lanes.ts), each with its own solver processes or worker
 * thread (together they keep both cores busy), and the first conclusive verdict wins;
 * the others are stopped (their budget's signal fires and their solvers close, so a
 * query under way ends at once; a worker is terminated). Without native z3 the solver
 * lanes run one after another (z3-solver serialises every solver call of a process)
 * (race.ts). Each lane keeps its own checks — a SAFE proof re-checked, an UNSAFE trace
 * replayed — so the portfolio adds no verdict of its own; the report says which lane
 * decided.
 */
import type { Engine, EngineVerdict } from '../../core/engine.js';
import { Cancelled, OutOfMemory } from '../../core/errors.js';
import { LANES, laneEngine, type LaneSummary, type PortfolioOptions, type PortfolioProof, type PortfolioStats } from './lanes.js';
import { portfolioReport } from './report.js';
import { Race, type Decided, type Settled } from './race.js';

export const portfolioEngine: Engine<PortfolioOptions, PortfolioProof, PortfolioStats> = {
  name: 'auto',
  description: 'aret, bmc, monolithic and explicit-global side by side on both cores: the first conclusive verdict (a checked proof or a replayed trace) wins and the others are stopped',
  decides: 'assertions',
  lowering: 'inline',
  // Every option of the lanes (shared ones, such as --solver, once).
  options: Object.assign({}, ...LANES.map((l) => l.options)),
  async run(p, o, ctx) {
    const t0 = performance.now();
    const race = new Race(p, o, ctx);
    await race.run();
    const { settled, winner, stops } = race;
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
      const none = { engine: lane.name, reason: null, backend: null, stats: null, options: race.options[i] };
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
    const stats: PortfolioStats = { timeMs: performance.now() - t0, decidedBy: winner ? LANES[winner.i].name : null, lanes };
    return { verdict: verdictOf(winner, stats), backend: winner?.result.backend ?? lanes.find((l) => l.backend)?.backend ?? null };
  },
  certificate: (p, proof) => {
    const lane = laneEngine(proof.engine);
    if (!lane?.certificate) throw new Error(`internal: the ${proof.engine} engine writes no certificate`);
    return lane.certificate(p, proof.proof);
  },
  report: portfolioReport,
};

/** The winner's verdict with the portfolio's statistics, or UNKNOWN with why no lane decided. */
function verdictOf(winner: Decided | undefined, stats: PortfolioStats): EngineVerdict<PortfolioProof, PortfolioStats> {
  if (!winner) return { verdict: 'unknown', reason: undecided(stats.lanes), stats };
  const v = winner.result.verdict;
  if (v.verdict === 'safe') return { verdict: 'safe', proof: { engine: stats.decidedBy!, proof: v.proof }, proofChecked: true, stats };
  if (v.verdict === 'unsafe') return { verdict: 'unsafe', trace: v.trace, traceReplayed: true, stats };
  throw new Error('internal: a winner without a verdict');
}

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

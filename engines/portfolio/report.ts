/** How the portfolio's results read: the deciding lane's own report, then each lane's statistics under its name. */
import type { Program } from '../../program/program.js';
import type { EngineReport, RunInfo } from '../../core/engine.js';
import { statisticsText } from '../../core/statistics.js';
import { laneEngine, type LaneSummary, type PortfolioOptions, type PortfolioProof, type PortfolioStats } from './lanes.js';

/** The run as the lane's own report sees it. */
const laneRun = (lane: LaneSummary, run: RunInfo<PortfolioOptions>): RunInfo<Record<string, unknown>> => ({
  ...run,
  engine: lane.engine,
  options: lane.options,
  backend: lane.backend,
});

const laneNamed = (s: PortfolioStats, name: string): LaneSummary => s.lanes.find((l) => l.engine === name)!;

const seconds = (x: number): string => `${(x / 1000).toFixed(1)} s`;

function laneLine(l: LaneSummary): string {
  const what = l.verdict === 'unknown' || l.verdict === 'error' ? `${l.verdict}: ${l.reason}` : l.verdict;
  return `${l.engine} ${what}${l.stats ? ` after ${seconds(l.stats.timeMs)}` : ''}`;
}

export const portfolioReport: EngineReport<PortfolioOptions, PortfolioProof, PortfolioStats> = {
  proof(p: Program, proof, stats, run) {
    const lane = laneNamed(stats, proof.engine);
    return laneEngine(lane.engine)!.report.proof(p, proof.proof, lane.stats!, laneRun(lane, run));
  },
  stats(s, run) {
    const head = `portfolio: ${s.decidedBy ? `decided by ${s.decidedBy}` : 'no lane decided'} (${s.lanes.map(laneLine).join('; ')})`;
    // Each lane's own block, under its name.
    const perLane = s.lanes.flatMap((l) => {
      if (!l.stats) return [];
      const [, ...lines] = statisticsText(laneEngine(l.engine)!.report.stats(l.stats, laneRun(l, run)), l.stats.timeMs).split('\n');
      return [`${l.engine}:`, ...lines];
    });
    return [head, ...perLane];
  },
  // What the lane that proved it shows.
  invariants: (p, proof) => laneEngine(proof.engine)!.report.invariants?.(p, proof.proof) ?? [],
  environments: (p, proof) => laneEngine(proof.engine)!.report.environments?.(p, proof.proof) ?? [],
  graphs: (p, v) => {
    if (v.verdict !== 'safe') return [];
    const lane = laneNamed(v.stats, v.proof.engine);
    return laneEngine(lane.engine)!.report.graphs?.(p, { ...v, proof: v.proof.proof, stats: lane.stats! } as never) ?? [];
  },
  json(v, run) {
    const s = v.stats;
    // The fields of the lane that decided, else of the first lane that has statistics.
    const lane = s.lanes.find((l) => l.engine === s.decidedBy) ?? s.lanes.find((l) => l.stats);
    const own = lane?.stats && laneEngine(lane.engine)!.report.json;
    const laneVerdict = lane && v.verdict === 'safe' ? { ...v, proof: v.proof.proof, stats: lane.stats! } : { ...v, stats: lane?.stats };
    const fields = own ? own(laneVerdict as never, laneRun(lane!, run)) : { modular: null, iterations: null, predicates: null, bias: null, hornSolver: null };
    return { ...fields, decidedBy: s.decidedBy };
  },
};

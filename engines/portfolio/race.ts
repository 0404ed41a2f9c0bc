/**
 * The portfolio's race (engine.ts): the lanes started, each with its own budget that a
 * stop ends, and the first conclusive verdict taken; the lanes still running are
 * stopped then.
 */
import type { EngineResult, EngineStats, RunContext } from '../../core/engine.js';
import type { Program } from '../../program/program.js';
import { backendOf } from '../../solver/select.js';
import { aretEngine } from '../aret/engine.js';
import { bmcEngine } from '../bmc/engine.js';
import { LANES, LANE_NICE, inWorker, laneEngine, optionsOf, type PortfolioOptions } from './lanes.js';
import { runInWorker } from './lane-thread.js';

export type Decided = { i: number; result: EngineResult<unknown, EngineStats> };
export type Settled = Decided | { i: number; error: unknown };

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

export class Race {
  readonly stops = LANES.map(() => new AbortController());
  readonly options: Record<string, unknown>[];
  readonly settled: Settled[] = [];
  winner: Decided | undefined;
  /**
   * With native z3 every lane starts at once. z3-solver runs one solver call at a time
   * per process, so on wasm the solver lanes would only wait for each other: they run
   * one after another, the bug hunter first for a slice of the time, then the ARET,
   * then Spacer with what is left (the worker lanes need no solver and run beside them).
   */
  private readonly together: number[];
  private readonly queue: number[];
  private readonly hunter = LANES.indexOf(bmcEngine);
  private readonly pending = new Map<number, Promise<Settled>>();

  constructor(
    private readonly p: Program,
    o: PortfolioOptions,
    private readonly ctx: RunContext,
  ) {
    this.options = LANES.map((lane) => optionsOf(lane, o));
    this.together = backendOf(o.solver) === 'native' ? [...LANES.keys()] : [...LANES.keys()].filter((i) => inWorker(LANES[i]));
    this.queue = [...LANES.keys()].filter((i) => !this.together.includes(i)).sort((a, b) => Number(b === this.hunter) - Number(a === this.hunter));
  }

  /** Runs the race to its end: every lane settled, or stopped once one decided. */
  async run(): Promise<void> {
    await this.firstSlices();
    if (!this.winner) {
      for (const i of this.together) if (!inWorker(LANES[i])) this.pending.set(i, this.start(i));
      this.startNext();
    }
    while (this.pending.size) {
      const s = await Promise.race(this.pending.values());
      this.pending.delete(s.i);
      this.settled.push(s);
      if (!this.winner && this.decides(s)) {
        this.winner = s;
        this.queue.length = 0;
        for (const [j] of this.pending) this.stops[j].abort();
      } else if (!this.winner && !this.together.includes(s.i)) {
        if ('error' in s) this.queue.length = 0;
        this.startNext();
      }
    }
  }

  /**
   * The worker lanes first, each for a slice in this thread: a finite-state program is
   * decided in that time. A slice that ran out starts again in the lane's worker; any
   * other answer (a bounded search, a state limit) is the lane's.
   */
  private async firstSlices(): Promise<void> {
    for (const i of [...LANES.keys()].filter((j) => inWorker(LANES[j]))) {
      const s = await this.start(i, performance.now() + FIRST_SLICE_MS, true);
      const v = 'result' in s ? s.result.verdict : undefined;
      if (this.decides(s)) {
        this.settled.push((this.winner = s));
        return;
      }
      if (v?.verdict === 'unknown' && v.reason === 'timeout' && !this.ctx.budget.expired()) this.pending.set(i, this.start(i));
      else this.settled.push(s);
    }
  }

  /** Lane `i` on its own budget (until `deadline`, if given), in its worker unless `here`. */
  private start(i: number, deadline?: number, here = false): Promise<Settled> {
    const lane = LANES[i];
    const laneCtx = {
      budget: this.ctx.budget.lane(this.stops[i].signal, deadline),
      log: this.ctx.log.child({ lane: lane.name }),
      progress: lane === aretEngine ? this.ctx.progress : undefined, // one progress line: the ARET's
      nice: LANE_NICE.get(lane.name),
    };
    const run = inWorker(lane) && !here ? runInWorker(lane.name, this.p, this.options[i], laneCtx) : laneEngine(lane.name)!.run(this.p, this.options[i], laneCtx);
    return run.then((result) => ({ i, result }), (error: unknown) => ({ i, error }));
  }

  /** The next solver lane in turn (without native z3), the bug hunter on its slice of the time. */
  private startNext(): void {
    const i = this.queue.shift();
    if (i === undefined) return;
    const { deadline } = this.ctx.budget;
    const slice = i === this.hunter && deadline !== undefined ? performance.now() + Math.min(WASM_BMC_SLICE_MS, WASM_BMC_SLICE * (deadline - performance.now())) : undefined;
    this.pending.set(i, this.start(i, slice));
  }

  /** Whether a lane decided; with --proof a SAFE verdict counts only from a lane that writes a certificate. */
  private decides(s: Settled): s is Decided {
    if (!('result' in s)) return false;
    const v = s.result.verdict.verdict;
    return v === 'unsafe' || (v === 'safe' && (!this.ctx.certificate || LANES[s.i].certificate !== undefined));
  }
}

/** The portfolio's lanes and what it reports of them (engine.ts runs them, report.ts shows them). */
import type { Engine, EngineStats } from '../../core/engine.js';
import type { BackendName } from '../../solver/smt.js';
import { aretEngine, type AretOptions } from '../aret/engine.js';
import { bmcEngine, type BmcEngineOptions } from '../bmc/engine.js';
import { monolithicEngine, type MonolithicEngineOptions } from '../monolithic/engine.js';
import { explicitGlobalEngine, type ExplicitEngineOptions } from '../explicit/engine.js';
import { WORKER_ENGINES } from './worker-engines.js';

/**
 * The lanes, in the order the report lists them: the paper's engine; the bug hunter;
 * Spacer on the product program, which decides some small programs (and Bakery)
 * sooner than the ARET does; and every reachable state, which decides a finite-state
 * program in milliseconds (and is UNKNOWN, bounded, where nondeterministic ints make
 * the state space infinite). aret alternates between node and its z3, bmc and
 * monolithic run in their z3 processes, explicit-global in a worker thread.
 */
export const LANES = [aretEngine, bmcEngine, monolithicEngine, explicitGlobalEngine] as const;
export type Lane = (typeof LANES)[number];

/**
 * The bug hunter's z3 runs at a lower priority: on a safe program it deepens without
 * end, and at equal priority it took a third of the cores from the lanes that prove
 * (QRCU: monolithic alone 40 s, the portfolio past 60 s). Measured on 2 cores, nice 0 /
 * 5 / 10: QRCU T/O / 56 s / 58 s, Scull 5.7 / 3.2 / 3.2 s; bugs found by bmc:
 * counter-mutex-n4-racy 2.6 / 4.0 / 7.0 s, ticket-lock-broken 0.8 / 1.3 / 2.3 s.
 */
export const LANE_NICE: ReadonlyMap<string, number> = new Map([[bmcEngine.name, 5]]);

export type PortfolioOptions = AretOptions & BmcEngineOptions & MonolithicEngineOptions & ExplicitEngineOptions;

/** Whether a lane runs in a worker thread (worker-lane.ts) rather than in rely's own. */
export const inWorker = (lane: Lane): boolean => WORKER_ENGINES.some((e) => e.name === lane.name);

/** The winning lane's proof. */
export interface PortfolioProof {
  readonly engine: string;
  readonly proof: unknown;
}

/** How one lane ended: its verdict, `stopped` when another decided first, `not run` when one did before its turn, `error` when it failed. */
export interface LaneSummary {
  readonly engine: string;
  readonly verdict: 'safe' | 'unsafe' | 'unknown' | 'stopped' | 'not run' | 'error';
  readonly reason: string | null;
  readonly backend: BackendName | null;
  /** The lane's own statistics (null when it was stopped or failed). */
  readonly stats: EngineStats | null;
  readonly options: Record<string, unknown>;
}

export interface PortfolioStats extends EngineStats {
  /** The lane whose verdict this is (null: none decided). */
  readonly decidedBy: string | null;
  readonly lanes: readonly LaneSummary[];
}

/** A lane's options: the keys its engine declares. */
export function optionsOf(lane: Lane, o: PortfolioOptions): Record<string, unknown> {
  return Object.fromEntries(Object.keys(lane.options).map((k) => [k, o[k as keyof PortfolioOptions]]));
}

/** A lane's engine, with its types forgotten: the portfolio hands each its own options, proof and statistics back. */
export const laneEngine = (name: string): Engine<Record<string, unknown>, unknown, EngineStats> | undefined =>
  LANES.find((l) => l.name === name) as Engine<Record<string, unknown>, unknown, EngineStats> | undefined;


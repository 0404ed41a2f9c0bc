/**
 * The strategy for a program whose thread creation has no static bound
 * (UnboundedThreads): first a proof for any number of threads, then a search for
 * bugs in bounded versions of the program. The caller lowers the program each way
 * (from its source) and runs an engine on it; this module decides which, in what
 * order, with what share of the time, and what the answer is.
 */
import { InputError, type UnboundedThreads } from '../program/diagnostics.js';
import type { Program } from '../program/program.js';
import type { Budget } from '../core/budget.js';
import type { EngineResult, EngineStats } from '../core/engine.js';
import { ENGINES, type AnyEngine } from './registry.js';

/** How the program is lowered: with template threads (any number of instances), or each such loop cut after `maxInstances` iterations. */
export type Lowering = { templates: true } | { maxInstances: number };

/**
 * First a proof for any number of threads, in half the time: the engines that read
 * template threads (Engine.templates: thread-modular's Spacer query, then
 * explicit-modular for finite-state programs; only the chosen one when it is such an
 * engine), each on the program with template threads, each with an equal share of
 * that half. Else a search for bugs in the programs that cut each such loop after
 * k = 1, 2, …, max iterations, each with an equal share of the time left: each has
 * only some of the original's runs, so an error trace is real and its safety is no
 * proof (UNKNOWN). A verdict's time is the whole strategy's.
 */
export async function verifyUnbounded<A extends EngineResult<unknown, EngineStats>>(
  why: UnboundedThreads,
  chosen: AnyEngine,
  max: number,
  budget: Budget,
  lower: (engine: AnyEngine, how: Lowering) => Program,
  run: (engine: AnyEngine, p: Program, b: Budget) => Promise<A>,
): Promise<A> {
  const until = (deadline: number | undefined, parts: number): Budget =>
    budget.within(deadline === undefined ? undefined : performance.now() + (deadline - performance.now()) / parts);
  const t0 = performance.now();
  const whole = (r: A, verdict: A['verdict'] = r.verdict): A => ({ ...r, verdict: { ...verdict, stats: { ...verdict.stats, timeMs: performance.now() - t0 } } });
  const provers = chosen.templates ? [chosen] : ENGINES.filter((e) => e.templates);
  const proofDeadline = budget.deadline === undefined ? undefined : t0 + (budget.deadline - t0) / 2;
  const notes: string[] = [];
  for (const [k, prover] of provers.entries()) {
    try {
      const proof = await run(prover, lower(prover, { templates: true }), until(proofDeadline, provers.length - k));
      if (proof.verdict.verdict === 'safe') return whole(proof);
      notes.push(`${prover.name}: ${proof.verdict.verdict === 'unknown' ? proof.verdict.reason : 'no proof'}`);
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      notes.push(`${prover.name}: ${e.message.replace(/^\S+: /, '')}`); // what the template lowering does not support
    }
  }
  let last: A | undefined;
  for (let k = 1; k <= max; k++) {
    const r = await run(chosen, lower(chosen, { maxInstances: k }), until(budget.deadline, max - k + 1));
    if (r.verdict.verdict === 'unsafe') return whole(r);
    const outcome = r.verdict.verdict === 'safe' ? 'no error' : r.verdict.reason;
    const reason = `${why.detail}: no proof for any number of threads with template threads (${notes.join('; ')}); searched for bugs with up to ${k} iteration${k === 1 ? '' : 's'} of each such loop (${outcome})`;
    last = whole(r, { verdict: 'unknown', reason, stats: r.verdict.stats });
    if (budget.expired()) break;
  }
  return last!;
}

/**
 * `rely verify --sarif OUT.sarif` (and `rely svcomp --sarif`): writes the SARIF log
 * (witness/sarif.ts) of the run's verdict, liveness verdict or failure. A usage error
 * (commander's) writes none: the run never started.
 */
import { writeFileSync } from 'node:fs';
import { CommanderError } from 'commander';
import { InputError, ReadingTimeout } from '../program/diagnostics.js';
import type { Program } from '../program/program.js';
import { runTraceStep, type LivenessOutcome } from '../core/lasso.js';
import { sarifLog, type Checks, type SarifOutcome } from '../witness/sarif.js';
import { EXIT, version, type Common, type Session } from './common.js';

/** Where the log goes and what it is about, known when the run starts. */
export interface SarifTarget {
  readonly path: string;
  readonly file: string;
  readonly checks: Checks;
  readonly start: Date;
  /** The command's exit code for a verdict (rely svcomp: 0 for any). */
  readonly exitCodeOf: (verdict: 'safe' | 'unsafe' | 'unknown') => number;
}

/** `--sarif`'s help, the verdicts and their logs. */
export const SARIF_HELP =
  'write the verdict as a SARIF 2.1.0 log (for code scanning): UNSAFE as one result at the error with the trace as a code flow, one thread flow per thread that acts, each step with the values it set and its executionOrder across the threads; SAFE as a run without results, the proof in run.properties; UNKNOWN (and bad input, exit 2) as a run without results whose invocation has an error notification with the reason';

/** The exit code of `rely verify` for a verdict. */
export const exitCodeOf = (verdict: 'safe' | 'unsafe' | 'unknown'): number => (verdict === 'safe' ? EXIT.ok : verdict === 'unsafe' ? EXIT.errorFound : EXIT.unknown);

/** The target of the command's options, or undefined without --sarif; `exit`: the command's exit code for a verdict. */
export function sarifTarget(file: string, o: Common & { sarif?: string; ltl?: string; ltlFile?: string }, exit = exitCodeOf): SarifTarget | undefined {
  if (!o.sarif) return undefined;
  return { path: o.sarif, file, checks: { misuse: o.check === 'misuse', free: o.checkFree === true, ltl: o.ltl !== undefined || o.ltlFile !== undefined }, start: new Date(), exitCodeOf: exit };
}

/**
 * The log as it stands until the run answers: UNKNOWN, rely stopped before its verdict.
 * A run the launcher ends (cli/rely.js: the JS heap's limit, a phase past its deadline)
 * leaves it, with the launcher's reason (cli/unknown.ts), so a log exists for every run
 * that started.
 */
export function writeSarifPlaceholder(t: SarifTarget, session: Session): void {
  writeSarif(t, session, { verdict: 'unknown', reason: 'rely stopped before it gave a verdict' }, { verdict: 'unknown' });
}

/** Writes the log of `outcome`; `exitCode`: rely's (default: the target's for a verdict, an internal error's for a failure). */
export function writeSarif(t: SarifTarget, session: Session, outcome: SarifOutcome, properties: Record<string, unknown>, exitCode = outcome.verdict === 'failed' ? EXIT.internal : t.exitCodeOf(outcome.verdict)): void {
  const log = sarifLog({ outcome, file: t.file, checks: t.checks, version: version(), args: session.argv, exitCode, start: t.start, end: new Date(), properties });
  writeFileSync(t.path, `${JSON.stringify(log, null, 2)}\n`);
}

/** A liveness verdict as a SARIF outcome: a lasso or a deadlock is the violation, its run the trace. */
export function livenessOutcome(p: Program, r: LivenessOutcome): SarifOutcome {
  if (r.verdict === 'holds') return { verdict: 'safe' };
  if (r.verdict === 'unknown') return { verdict: 'unknown', reason: r.reason };
  const run = r.verdict === 'fails' ? r.lasso : r.run;
  const trace = run.steps.map((_, k) => runTraceStep(p, run, k));
  return r.verdict === 'fails' ? { verdict: 'unsafe', trace, rule: 'ltl-property', cycleFrom: r.lasso.loopAt } : { verdict: 'unsafe', trace, rule: 'deadlock' };
}

/**
 * The log of a run that ended without a verdict from its engines: a timeout while the
 * input was read is UNKNOWN (exit 3, as main prints it); bad input (exit 2) and an
 * internal error (exit 4) are failed runs. A usage error writes nothing.
 */
export function writeSarifOfError(t: SarifTarget, session: Session, e: unknown): void {
  if (e instanceof CommanderError) return;
  if (e instanceof ReadingTimeout) return writeSarif(t, session, { verdict: 'unknown', reason: e.message }, { verdict: 'unknown' });
  if (e instanceof InputError) return writeSarif(t, session, { verdict: 'failed', message: e.message, pos: e.pos }, { verdict: null }, EXIT.badInput);
  writeSarif(t, session, { verdict: 'failed', message: `internal error: ${(e as Error).message}` }, { verdict: null });
}

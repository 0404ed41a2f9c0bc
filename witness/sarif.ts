/**
 * `rely verify --sarif OUT.sarif`: the verdict as a SARIF 2.1.0 log (OASIS Standard,
 * errata 01), which code-scanning services and editors read. One run, its tool the
 * `rely` driver with a rule per kind of violation rely reports.
 *
 * UNSAFE is one result (level error) at the error's statement, with one code flow: a
 * thread flow per thread that takes a step, each step of the replayed trace a
 * threadFlowLocation of its thread with the values the step set (`state`) and its
 * place in the whole interleaving (`executionOrder`, 1-based, as the text output
 * numbers the steps), so every step appears exactly once. SAFE is a run without
 * results whose `properties` hold what was proved. UNKNOWN is a run without results
 * whose invocation carries the reason as a notification of level error: the tool ran
 * (executionSuccessful) but its empty result set is incomplete, which SARIF says with
 * an error-level toolExecutionNotification (Appendix I, detecting incomplete result
 * sets). Bad input (exit 2) and internal errors (exit 4) are failed invocations
 * (executionSuccessful false) with the message as an error notification at its place.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { showValue } from '../solver/formula.js';
import type { SourcePos } from '../program/diagnostics.js';
import { errorPos, stepText, type TraceStep } from '../core/trace.js';
import { MISUSE } from '../frontend/lower/sync.js';

export const SARIF_SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

/** The base of relative artifact URIs, the working directory, under the name CodeQL's logs give the source root. */
const SRCROOT = '%SRCROOT%';

interface Rule {
  readonly id: string;
  readonly name: string;
  readonly text: string;
  /** Which property check reports it: always, or only with that option. */
  readonly check: 'always' | 'misuse' | 'free' | 'ltl';
  /** Whether an error step's statement (its text) is a violation of this rule; none for --ltl's. */
  readonly matches?: (statement: string) => boolean;
}

/** Every kind of violation rely reports; an error step is the first whose `matches` holds (the last of them, the error location reached otherwise). */
const RULES: readonly Rule[] = [
  { id: 'misuse', name: 'PthreadMisuse', text: "A misuse of the pthread library (--check misuse): an unlock by a thread that does not hold the lock, a destroy of a held lock or of a barrier threads wait on, a wait on a destroyed barrier.", check: 'misuse', matches: (s) => s.startsWith(MISUSE) },
  { id: 'memory-safety', name: 'FreedMemory', text: 'A use of freed memory, a double free, or a free of a pointer malloc did not return (--check-free).', check: 'free', matches: (s) => /^(use after free|double free|free of a pointer)/.test(s) },
  { id: 'undefined-behaviour', name: 'UndefinedBehaviour', text: 'An operation whose behaviour C leaves undefined: a division by zero, a null, dangling or out-of-bounds pointer, a call through an invalid function pointer, a pthread object used before it was set up.', check: 'always', matches: (s) => s.endsWith('(undefined behaviour)') },
  { id: 'assertion', name: 'AssertionFailure', text: 'An assertion (assert, __VERIFIER_assert) fails.', check: 'always', matches: (s) => s.endsWith(' failed') },
  { id: 'reach-error', name: 'ReachError', text: "The error location is reached: a call of reach_error() or __VERIFIER_error() (SV-COMP's unreach-call), an ERROR: label, or another failing check of the program's model.", check: 'always', matches: () => true },
  { id: 'ltl-property', name: 'LtlPropertyViolated', text: 'A run violates the linear-time property (--ltl): a lasso whose cycle repeats forever.', check: 'ltl' },
  { id: 'deadlock', name: 'Deadlock', text: 'A reachable state where no thread can move, though not all have ended (--ltl).', check: 'ltl' },
];

/** The property checks a run made: which rules it can report. */
export interface Checks {
  readonly misuse?: boolean;
  readonly free?: boolean;
  readonly ltl?: boolean;
}

/** What the log reports: a replayed violation, a proof, an UNKNOWN, or a failed run. */
export type SarifOutcome =
  /** `rule`: for --ltl, 'ltl-property' (a lasso, its cycle from step `cycleFrom`) or 'deadlock'; otherwise the error step's statement decides. */
  | { readonly verdict: 'unsafe'; readonly trace: readonly TraceStep[]; readonly rule?: 'ltl-property' | 'deadlock'; readonly cycleFrom?: number }
  | { readonly verdict: 'safe' }
  | { readonly verdict: 'unknown'; readonly reason: string }
  | { readonly verdict: 'failed'; readonly message: string; readonly pos?: SourcePos };

export interface SarifRun {
  readonly outcome: SarifOutcome;
  /** The program analysed, as rely names it. */
  readonly file: string;
  readonly checks: Checks;
  /** rely's version (package.json). */
  readonly version: string;
  /** The command line's arguments after `rely`. */
  readonly args: readonly string[];
  readonly exitCode: number;
  readonly start: Date;
  readonly end: Date;
  /** What rely reports beside the results (engine, proof, statistics): the run's property bag. */
  readonly properties: Record<string, unknown>;
  /** The directory relative URIs are relative to (default: the working directory). */
  readonly cwd?: string;
}

type Json = Record<string, unknown>;

/** A file's artifactLocation: relative to the working directory (uriBaseId %SRCROOT%) when it lies inside it, else an absolute file URI. */
function artifactLocation(file: string, cwd: string): Json {
  const abs = resolve(cwd, file);
  const rel = relative(cwd, abs);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return { uri: pathToFileURL(abs).href };
  return { uri: rel.split(sep).map(encodeURIComponent).join('/'), uriBaseId: SRCROOT };
}

/** A directory's file URI, with the final slash a base URI needs. */
const directoryUri = (dir: string): string => pathToFileURL(dir).href.replace(/\/?$/, '/');

/** A location at `pos` (no region where the position has no line: a step of a liveness run that only repeats the state). */
function location(pos: SourcePos, cwd: string, message?: string): Json {
  const region = pos.line >= 1 ? { region: { startLine: pos.line, ...(pos.col >= 1 && { startColumn: pos.col }) } } : {};
  return { physicalLocation: { artifactLocation: artifactLocation(pos.file, cwd), ...region }, ...(message !== undefined && { message: { text: message } }) };
}

/** The code flow of a trace: per thread that acts, its steps in order, each with its place in the interleaving. */
function codeFlow(trace: readonly TraceStep[], cwd: string, cycleFrom?: number): Json {
  const byThread = new Map<string, Json[]>();
  trace.forEach((s, i) => {
    const state = Object.fromEntries(s.values.map(([v, x]) => [v, { text: showValue(x) }]));
    const last = i === trace.length - 1;
    const step: Json = {
      location: location(s.pos, cwd, stepText(s)),
      ...(s.values.length > 0 && { state }),
      executionOrder: i + 1,
      ...(cycleFrom !== undefined && i >= cycleFrom && { kinds: ['cycle'] }),
      ...(last && { importance: 'essential' }),
    };
    byThread.set(s.thread, [...(byThread.get(s.thread) ?? []), step]);
  });
  const n = trace.length;
  const cycle = cycleFrom !== undefined ? `; steps ${cycleFrom + 1}–${n} are the cycle, which repeats forever` : '';
  return {
    message: { text: `${n} step${n === 1 ? '' : 's'} of ${byThread.size} thread${byThread.size === 1 ? '' : 's'}, replayed in the interpreter; executionOrder numbers the steps across the threads${cycle}` },
    threadFlows: [...byThread].map(([thread, locations]) => ({ id: thread, message: { text: `thread ${thread}` }, locations })),
  };
}

type Violation = Extract<SarifOutcome, { verdict: 'unsafe' }>;

/** The statement that reaches the error: the last of the trace's last step. */
const errorStatement = (o: Violation): string => o.trace.at(-1)?.steps.map((x) => x.text).filter(Boolean).at(-1) ?? '';

/** The rule a violation breaks. */
const ruleOf = (o: Violation): Rule => RULES.find((r) => (o.rule ? r.id === o.rule : r.matches?.(errorStatement(o))))!;

/** The result of a violation: its rule, where it happens, the interleaving that leads there. */
function result(o: Violation, rules: readonly Rule[], file: string, cwd: string): Json {
  const { id: ruleId, name } = ruleOf(o);
  const head = { ruleId, ruleIndex: rules.findIndex((r) => r.id === ruleId), kind: 'fail', level: 'error' };
  // Only a deadlock has a run of no steps: the initial state.
  if (o.trace.length === 0) return { ...head, message: { text: 'Deadlock in the initial state: no thread can move.' }, locations: [{ physicalLocation: { artifactLocation: artifactLocation(file, cwd) } }] };
  const last = o.trace[o.trace.length - 1];
  // A lasso is located where its cycle starts; a deadlock and an error, at their last step.
  const at = o.rule === 'ltl-property' && o.cycleFrom !== undefined ? o.trace[o.cycleFrom].pos : errorPos(o.trace);
  const where = `${at.file}:${at.line}`;
  const message =
    o.rule === 'ltl-property'
      ? `The property fails: a run whose cycle, from ${where}, repeats forever.`
      : o.rule === 'deadlock'
        ? `Deadlock: thread ${last.thread} takes the last step at ${where}, after which no thread can move.`
        : `${name}: thread ${last.thread} reaches its error location at ${where} (${errorStatement(o)}).`;
  return {
    ...head,
    message: { text: message },
    analysisTarget: artifactLocation(file, cwd),
    locations: [location(at, cwd)],
    codeFlows: [codeFlow(o.trace, cwd, o.cycleFrom)],
  };
}

/** The invocation: how rely ended, and for UNKNOWN or a failure, why (a notification of level error). */
function invocation(run: SarifRun, cwd: string): Json {
  const o = run.outcome;
  const notification =
    o.verdict === 'unknown'
      ? { level: 'error', message: { text: `UNKNOWN: ${o.reason}` } }
      : o.verdict === 'failed'
        ? { level: 'error', message: { text: o.message }, ...(o.pos && { locations: [location(o.pos, cwd)] }) }
        : undefined;
  const quoted = run.args.map((a) => (/^[\w./:=@%+,-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`));
  return {
    commandLine: ['rely', ...quoted].join(' '),
    arguments: [...run.args],
    startTimeUtc: run.start.toISOString(),
    endTimeUtc: run.end.toISOString(),
    exitCode: run.exitCode,
    executionSuccessful: o.verdict !== 'failed',
    workingDirectory: { uri: directoryUri(cwd) },
    ...(notification && { toolExecutionNotifications: [notification] }),
  };
}

/** The SARIF log of one run of rely (a JSON value; JSON.stringify writes it). */
export function sarifLog(run: SarifRun): Json {
  const cwd = run.cwd ?? process.cwd();
  const o = run.outcome;
  // The rules the run checks, and the one it reports in any case.
  const rules = RULES.filter((r) => r.check === 'always' || run.checks[r.check] || (o.verdict === 'unsafe' && r === ruleOf(o)));
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'rely',
            version: run.version,
            semanticVersion: run.version,
            shortDescription: { text: 'Verifier for multi-threaded C programs (SV-COMP concurrency dialect)' },
            rules: rules.map((r) => ({ id: r.id, name: r.name, shortDescription: { text: r.text }, defaultConfiguration: { level: 'error' } })),
          },
        },
        invocations: [invocation(run, cwd)],
        originalUriBaseIds: { [SRCROOT]: { uri: directoryUri(cwd) } },
        artifacts: [{ location: artifactLocation(run.file, cwd), roles: ['analysisTarget'], sourceLanguage: 'c' }],
        // Columns count UTF-16 code units: the frontend reads the source as a JavaScript string.
        columnKind: 'utf16CodeUnits',
        results: o.verdict === 'unsafe' ? [result(o, rules, run.file, cwd)] : [],
        properties: run.properties,
      },
    ],
  };
}

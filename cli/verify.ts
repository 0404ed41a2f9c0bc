/** `rely verify`: its options gathered from the engine registry, the run within the budget, and the verdict's output. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { Command, Option } from 'commander';
import { loadProgram } from '../frontend/index.js';
import { UnboundedThreads } from '../program/diagnostics.js';
import type { Program } from '../program/program.js';
import { parseCount } from '../core/options.js';
import type { LivenessEngine, LivenessStats } from '../core/engine.js';
import { Budget } from '../core/budget.js';
import { DEFAULT_ENGINE, ENGINES, LIVENESS_ENGINES, engineNamed, engineOptions, livenessEngineNamed, type AnyEngine } from '../engines/registry.js';
import { verifyUnbounded } from '../engines/unbounded.js';
import { FAIRNESS, livenessJson, livenessPage, livenessText, readProperty, type PropertySource } from './ltl.js';
import { EXIT, addCommon, announceDeadline, cliParser, frontendOptions, logger, parseMegabytes, parseOutputDir, parseOutputPath, parseSeconds, statusLine, warnAll, type Common, type Session } from './common.js';
import { verifyJson, verifyProperties, verifyText } from './report.js';
import { SARIF_HELP, exitCodeOf, livenessOutcome, sarifTarget, writeSarif, writeSarifOfError, writeSarifPlaceholder, type SarifTarget } from './sarif.js';
import { htmlReport, verifyPage, type ReportPage } from './html-report.js';
import { buchiGraph, cfgGraph, type Graph } from '../core/dot.js';

const DEFAULT_TIMEOUT_S = 300;
const DEFAULT_MAX_INSTANCES = 3;

export interface VerifyCli extends Common {
  engine: string;
  maxInstances: number;
  timeout: number;
  /** --max-memory (MB), undefined: the default (80% of the JS heap's limit). */
  maxMemory?: number;
  json?: boolean;
  proof?: string;
  report?: string;
  dot?: string;
  sarif?: string;
  /** The engines' options, by key. */
  [key: string]: unknown;
}

/** `--engine`'s help: every engine of the registry with its line. */
function engineHelp(): string {
  const kept = ENGINES.filter((e) => e.lowering === 'keep').map((e) => e.name);
  return `${ENGINES.map((e) => `${e.name}: ${e.description}`).join('; ')}. ${kept.join(' and ')} keep calls as calls, so recursion is allowed; each engine option below names the engines that read it`;
}

/** Each engine's options, once per flag, with the engines that read it. */
function engineOptionsOf(cmd: Command): Command {
  for (const { option, engines } of engineOptions()) {
    const opt = new Option(option.flags, `${engines.join(', ')}: ${option.description}`);
    if (option.choices) opt.choices(option.choices);
    if (option.parse) opt.argParser(cliParser(option.parse));
    // A --no-… flag defaults to true by itself.
    if (option.default !== undefined && !option.flags.startsWith('--no-')) opt.default(option.default);
    cmd.addOption(opt);
  }
  return cmd;
}

const AFTER = `
Output: the verdict line (SAFE, UNSAFE or UNKNOWN: <reason>), then for SAFE a summary of
the proof (re-checked by a fresh solver: R_i and E_i against CS1–CS5, or with --engine
monolithic the invariant against every clause of the product program; with the explicit
engines the state set or thread-modular fixpoint, re-checked closed under the rules), for
UNSAFE the error trace (replayed in the interpreter), then statistics. An error that
explicit-modular finds in its abstraction is confirmed or refuted by explicit-global, and
the output says which. The aret engine shows a
progress line on stderr when it is a terminal. A failed proof check or trace replay is
an internal error of the engine: the verdict is UNKNOWN and --log-level error logs it.
With --log-level debug the aret engine logs one "refined" record per refinement: who
answered (linear or spacer), which clauses (level: modular, grouped or unbiased), and each new predicate
with the set it joined (a thread, or a pair i▷j).

Exit codes: 0 SAFE, 1 UNSAFE, 2 bad input or usage, 3 UNKNOWN, 4 internal error.`;

/** An engine's answer, with the program and options it ran on (what the output reports). */
export type Answer = Awaited<ReturnType<AnyEngine['run']>> & { engine: AnyEngine; options: Record<string, unknown>; p: Program };

/** `--max-memory`'s help: what it bounds, the default here, what happens at the limit. */
function maxMemoryHelp(): string {
  const heapMb = Math.round((0.8 * getHeapStatistics().heap_size_limit) / 2 ** 20);
  return (
    "memory limit of the whole run in MB: rely's process (all its threads) and its native z3 processes together, checked between the engines' steps and every 0.2 s while z3 works; " +
    'each JS heap and each z3 process (z3 -memory:MB) is capped at MB as well. Past it: UNKNOWN: out of memory (… MB in use (rely … MB, z3 … MB), past the run\'s limit of MB MB), or UNKNOWN: solver: z3 out of memory (limit MB MB), exit 3. ' +
    `Default: no limit but the JS heap's, UNKNOWN past 80% of it (${heapMb} MB here); z3 unbounded`
  );
}

/** The options of `rely verify`, shared by `rely svcomp`. */
export function verifyOptions(cmd: Command): Command {
  cmd.addOption(
    new Option('--engine <engine>', engineHelp())
      .choices([...new Set([...ENGINES, ...LIVENESS_ENGINES].map((e) => e.name))])
      .default(DEFAULT_ENGINE),
  );
  engineOptionsOf(cmd)
    .option('--timeout <S>', 'overall time limit in seconds, parsing included, then UNKNOWN: timeout', parseSeconds, DEFAULT_TIMEOUT_S)
    .option('--max-memory <MB>', maxMemoryHelp(), parseMegabytes)
    .option('--max-instances <K>', 'a program that creates threads in a loop without constant bounds is first proved for any number of threads (explicit-modular with the thread as a template), else searched for bugs with 1, 2, …, K iterations of each such loop (an error found is real; finding none proves nothing)', cliParser(parseCount), DEFAULT_MAX_INSTANCES)
    .option('--json', 'print one JSON object')
    .option('--proof <OUT.smt2>', 'if SAFE, write the proof as an SMT-LIB 2 script (check it: z3 OUT.smt2; every answer must be unsat)', parseOutputPath)
    .option('--report <OUT.html>', 'write a self-contained HTML page of the verdict: the trace as swimlanes (a column per thread) linked to the source, the proof with its invariant per location (aret), the statistics, the graphs of --dot drawn', parseOutputPath)
    .option('--dot <DIR>', 'write graphs as Graphviz .dot files into DIR: each thread\'s control-flow graph (cfg-THREAD.dot); if SAFE, the proof\'s (aret: aret-THREAD.dot, the final ARET; learn: assumption.dot); with --ltl, the Büchi automaton of the negated property (buchi-negated-property.dot)', parseOutputDir);
  return addCommon(cmd);
}

/** Verifies one file as `rely verify` does, prints the verdict, and returns the answer (with the program it is about). */
export async function verifyFile(file: string, o: VerifyCli, session: Session, sarif?: SarifTarget): Promise<Answer> {
  const { io } = session;
  const budget = new Budget({ deadline: performance.now() + o.timeout * 1000, memoryLimitMb: o.maxMemory }); // parsing included
  announceDeadline(o.timeout);
  session.log = logger(o.logLevel, io);
  const engine = engineNamed(o.engine)!; // commander checked the choice
  const progress = io.errIsTty ? statusLine(io) : undefined;
  // The chosen engine, or one that reads template threads (verifyUnbounded).
  const run = async (eng: AnyEngine, p: Program, b: Budget): Promise<Answer> => {
    const opts = Object.fromEntries(Object.keys(eng.options).map((k) => [k, o[k]]));
    const r = await eng.run(p, opts, { budget: b, log: session.log, progress: progress?.show, certificate: o.proof !== undefined, record: o.report !== undefined || o.dot !== undefined }).finally(() => progress?.clear());
    return { ...r, engine: eng, options: opts, p };
  };
  let answer: Answer;
  try {
    const p = loadProgram(file, { ...frontendOptions(o), calls: engine.lowering, deadline: budget.deadline });
    warnAll(p, io);
    answer = await run(engine, p, budget);
  } catch (e) {
    if (!(e instanceof UnboundedThreads)) throw e;
    let warned = false;
    answer = await verifyUnbounded(e, engine, o.maxInstances, budget, (eng, how) => {
      const p = loadProgram(file, { ...frontendOptions(o), calls: eng.lowering, ...how, deadline: budget.deadline });
      if (!warned) warnAll(p, io);
      warned = true;
      return p;
    }, run);
  }
  const { p, verdict: v, backend, engine: used, options: usedOptions } = answer;
  session.log.info({ file, verdict: v.verdict, ms: Math.round(v.stats.timeMs) }, 'verified');
  let proofFile: string | undefined;
  if (o.proof && v.verdict === 'safe' && used.certificate) {
    writeFileSync(o.proof, used.certificate(p, v.proof));
    proofFile = o.proof;
  } else if (o.proof) io.err(`rely: no proof written to ${o.proof}: ${used.certificate ? 'the verdict is not SAFE' : `the ${used.name} engine writes no SMT-LIB certificate`}\n`);
  const about = { engine: used.name, options: usedOptions, backend, proofFile };
  await writePictures(p, file, o, used.report.graphs?.(p, v) ?? [], (graphs) => verifyPage(p, used.report, v, about, graphs));
  io.out(o.json ? JSON.stringify(verifyJson(p, used.report, v, about)) + '\n' : verifyText(p, used.report, v, about));
  if (sarif) writeSarif(sarif, session, v.verdict === 'unsafe' ? { verdict: 'unsafe', trace: v.trace } : v.verdict === 'safe' ? { verdict: 'safe' } : { verdict: 'unknown', reason: v.reason }, verifyProperties(p, used.report, v, about));
  return answer;
}

/** --dot and --report: each thread's control-flow graph and the verdict's own graphs (a proof's, a property's automaton) as .dot files, the verdict's page. */
async function writePictures(p: Program, file: string, o: VerifyCli, own: readonly Graph[], page: (graphs: readonly Graph[]) => ReportPage): Promise<void> {
  if (!o.dot && !o.report) return;
  const graphs = [...p.threads.map((_, k) => cfgGraph(p, k)), ...own];
  if (o.dot) {
    mkdirSync(o.dot, { recursive: true });
    for (const g of graphs) writeFileSync(join(o.dot, `${g.name}.dot`), g.dot);
  }
  if (o.report) writeFileSync(o.report, await htmlReport(p, readFileSync(file, 'utf8'), page(graphs)));
}

/** `rely verify --ltl`: the property's liveness engine (split unless --engine names another), its verdict printed. */
async function verifyLiveness(file: string, o: VerifyCli & PropertySource, engine: LivenessEngine<LivenessStats>, session: Session, sarif?: SarifTarget): Promise<'safe' | 'unsafe' | 'unknown'> {
  const { io } = session;
  const budget = new Budget({ deadline: performance.now() + o.timeout * 1000, memoryLimitMb: o.maxMemory });
  announceDeadline(o.timeout);
  session.log = logger(o.logLevel, io);
  const bound = readProperty(file, o, frontendOptions(o));
  warnAll(bound.program, io);
  const { verdict: r } = await engine.run(bound.program, {}, { budget, log: session.log }, bound.property);
  session.log.info({ file, verdict: r.verdict, ms: Math.round(r.stats.timeMs) }, 'verified');
  io.out(o.json ? JSON.stringify(livenessJson(bound, engine, r)) + '\n' : livenessText(bound, engine, r));
  await writePictures(bound.program, file, o, [buchiGraph('buchi-negated-property', bound.property.negated)], (graphs) => livenessPage(bound, engine, r, graphs));
  const verdict = r.verdict === 'holds' ? 'safe' : r.verdict === 'unknown' ? 'unknown' : 'unsafe';
  if (sarif) {
    const { lasso: _lasso, deadlock: _deadlock, ...properties } = livenessJson(bound, engine, r) as Record<string, unknown>;
    writeSarif(sarif, session, livenessOutcome(bound.program, r), properties);
  }
  return verdict;
}

export function verifyCommand(program: Command, session: Session): void {
  const cmd = program
    .command('verify')
    .description(`prove the program safe (with a checked proof) or find an error trace, with the engine --engine names (default ${DEFAULT_ENGINE}); with --ltl, decide a linear-time property (default engine ${LIVENESS_ENGINES[0].name})`)
    .argument('<file>', 'C source (.c) or preprocessed (.i) file')
    .addHelpText('after', AFTER + LTL_HELP);
  verifyOptions(cmd)
    .option('--ltl <formula>', 'check this LTL property instead of the assertions (G F X U R ! && || ->, atoms: C conditions over globals, at(thread, label), at(thread#k, label))')
    .option('--ltl-file <file>', 'read the LTL property from a file')
    .option('--sarif <OUT.sarif>', SARIF_HELP, parseOutputPath)
    .addOption(new Option('--fairness <fairness>', 'with --ltl, the runs that count: unconditional (every thread that has not ended moves infinitely often; a blocked thread\'s wait is a move), weak (a thread enabled from some point on moves infinitely often), none').choices(FAIRNESS).default('unconditional'))
    .action(async (file: string, o: VerifyCli & PropertySource, c: Command) => {
      const sarif = sarifTarget(file, o);
      if (sarif) writeSarifPlaceholder(sarif, session);
      let verdict: 'safe' | 'unsafe' | 'unknown';
      try {
        if (o.ltl !== undefined || o.ltlFile !== undefined) {
          const engine = c.getOptionValueSource('engine') === 'default' ? LIVENESS_ENGINES[0] : livenessEngineNamed(o.engine);
          if (!engine) c.error(`error: --engine ${o.engine} checks assertions only; the engines for --ltl are ${LIVENESS_ENGINES.map((e) => e.name).join(' and ')}`, { exitCode: EXIT.badInput });
          verdict = await verifyLiveness(file, o, engine!, session, sarif);
        } else {
          if (!engineNamed(o.engine)) c.error(`error: --engine ${o.engine} checks --ltl properties only`, { exitCode: EXIT.badInput });
          verdict = (await verifyFile(file, o, session, sarif)).verdict.verdict;
        }
      } catch (e) {
        if (sarif) writeSarifOfError(sarif, session, e);
        throw e;
      }
      session.code = exitCodeOf(verdict);
    });
}

const LTL_HELP = `

Liveness (--ltl): SAFE means every fair run satisfies the property; UNSAFE shows a lasso
(a stem and a cycle that repeats forever, replayed in the interpreter) or a deadlock (a
reachable state where no thread can move though some has not ended); UNKNOWN gives the
reason. Runs are infinite: a thread that cannot move (blocked, ended, not yet started)
takes a self-loop step. Engines: ${LIVENESS_ENGINES.map((e) => `${e.name}: ${e.description}`).join('; ')}.`;

/** `rely verify`: its options gathered from the engine registry, the run within the budget, and the verdict's output. */
import { writeFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { loadProgram } from '../frontend/index.js';
import { Budget } from '../core/budget.js';
import { DEFAULT_ENGINE, ENGINES, engineNamed, engineOptions } from '../engines/registry.js';
import { EXIT, addCommon, cliParser, frontendOptions, logger, parseOutputPath, parseSeconds, statusLine, warnAll, type Common, type Session } from './common.js';
import { verifyJson, verifyText } from './report.js';

const DEFAULT_TIMEOUT_S = 300;

interface VerifyCli extends Common {
  engine: string;
  timeout: number;
  json?: boolean;
  proof?: string;
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

export function verifyCommand(program: Command, session: Session): void {
  const { io } = session;
  const cmd = program
    .command('verify')
    .description(`prove the program safe (with a checked proof) or find an error trace, with the engine --engine names (default ${DEFAULT_ENGINE})`)
    .argument('<file>', 'C source (.c) or preprocessed (.i) file')
    .addOption(
      new Option('--engine <engine>', engineHelp())
        .choices(ENGINES.map((e) => e.name))
        .default(DEFAULT_ENGINE),
    );
  engineOptionsOf(cmd)
    .option('--timeout <S>', 'overall time limit in seconds, parsing included, then UNKNOWN: timeout', parseSeconds, DEFAULT_TIMEOUT_S)
    .option('--json', 'print one JSON object')
    .option('--proof <OUT.smt2>', 'if SAFE, write the proof as an SMT-LIB 2 script (check it: z3 OUT.smt2; every answer must be unsat)', parseOutputPath)
    .addHelpText('after', AFTER);
  addCommon(cmd).action(async (file: string, o: VerifyCli) => {
    const budget = new Budget({ deadline: performance.now() + o.timeout * 1000 }); // parsing included
    session.log = logger(o.logLevel, io);
    const engine = engineNamed(o.engine)!; // commander checked the choice
    const p = loadProgram(file, { ...frontendOptions(o), calls: engine.lowering });
    warnAll(p, io);
    const options = Object.fromEntries(Object.keys(engine.options).map((k) => [k, o[k]]));
    const progress = io.errIsTty ? statusLine(io) : undefined;
    const { verdict: v, backend } = await engine.run(p, options, { budget, log: session.log, progress: progress?.show, certificate: o.proof !== undefined }).finally(() => progress?.clear());
    session.log.info({ file, verdict: v.verdict, ms: Math.round(v.stats.timeMs) }, 'verified');
    let proofFile: string | undefined;
    if (o.proof && v.verdict === 'safe' && engine.certificate) {
      writeFileSync(o.proof, engine.certificate(p, v.proof));
      proofFile = o.proof;
    } else if (o.proof) io.err(`rely: no proof written to ${o.proof}: ${engine.certificate ? 'the verdict is not SAFE' : `the ${engine.name} engine writes no SMT-LIB certificate`}\n`);
    const run = { engine: engine.name, options, backend, proofFile };
    io.out(o.json ? JSON.stringify(verifyJson(p, engine.report, v, run)) + '\n' : verifyText(p, engine.report, v, run));
    session.code = v.verdict === 'safe' ? EXIT.ok : v.verdict === 'unsafe' ? EXIT.errorFound : EXIT.unknown;
  });
}

/**
 * The `rely` command line. Exit codes: 0 ok / no error found / SAFE, 1 error
 * reachable / UNSAFE, 2 bad input or usage, 3 UNKNOWN (verify), 4 internal error.
 */
import { accessSync, constants, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { pino, type Logger } from 'pino';
import { InputError, showPos } from '../frontend/diagnostics.js';
import { loadProgram, type FrontendOptions } from '../frontend/index.js';
import { programJson, programSmt2, programText } from '../frontend/print.js';
import type { Program } from '../frontend/program.js';
import { DEFAULT_MAX_STATES, DEFAULT_NONDET_RANGE, explore } from '../explicit/explore.js';
import { verify, type Progress, type Verdict } from '../aret/verify.js';
import { show } from '../solver/formula.js';
import { proofSmt2 } from '../aret/certificate.js';
import type { Bias, HornSolverChoice } from '../horn/refine.js';
import { createSolver, type SolverChoice } from '../solver/select.js';
import type { BackendName, SmtSolver } from '../solver/smt.js';
import { findZ3 } from '../solver/z3-native.js';
import { exploreJson, exploreText, verifyJson, verifyText } from './report.js';
import { configs, loadManifest, machine, runBench, suiteOf, type RunResult, type Suite } from '../benchmarks/bench.js';
import { csv, markdownTable } from '../benchmarks/bench-report.js';
import { scalingReport } from '../benchmarks/scaling-report.js';
import { verifyMonolithic, type MonolithicVerdict } from '../monolithic/verify.js';
import { invariantSmt2 } from '../monolithic/proof.js';
import { chcSmt2, type ChcEncoding } from '../monolithic/encode.js';
import { verifyExplicit, type ExplicitEngine } from '../explicit/verify.js';

export const EXIT = { ok: 0, errorFound: 1, badInput: 2, unknown: 3, internal: 4 } as const;

export interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
  /** stderr is a terminal: worth a live progress line. */
  errIsTty?: boolean;
}

/** Diagnostics as pino JSON lines on the Io's stderr (so in-process callers see them too). */
const logger = (level: string, io: Io): Logger => pino({ level }, { write: (line: string) => io.err(line) });

const processIo: Io = {
  out: (s) => process.stdout.write(s),
  err: (s) => process.stderr.write(s),
  errIsTty: process.stderr.isTTY === true,
};

const DEFAULT_TIMEOUT_S = 300;
const DEFAULT_MAX_ITERATIONS = 1000;
/**
 * Cap on one solver query of the engine (Horn or SMT): a query Spacer or z3 has not
 * answered in a minute rarely comes back, and UNKNOWN then beats waiting out the budget.
 */
const QUERY_CAP_MS = 60_000;

/** The package version (package.json is one level up from cli/, two from dist/cli/). */
function version(): string {
  for (const rel of ['../package.json', '../../package.json']) {
    const url = new URL(rel, import.meta.url);
    if (existsSync(url)) return (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;
  }
  return 'unknown';
}

function parseRange(v: string): [bigint, bigint] {
  const m = /^(-?\d+)\.\.(-?\d+)$/.exec(v.trim());
  if (!m) throw new InvalidArgumentError('expected LO..HI, e.g. -2..2');
  const lo = BigInt(m[1]);
  const hi = BigInt(m[2]);
  if (lo > hi) throw new InvalidArgumentError(`empty range ${v}`);
  if (hi - lo > 1000n) throw new InvalidArgumentError('at most 1001 values');
  return [lo, hi];
}

function parseCount(v: string): number {
  if (!/^\d+$/.test(v) || Number(v) < 1) throw new InvalidArgumentError('expected a positive integer');
  return Number(v);
}

function parseSeconds(v: string): number {
  if (!/^(\d+\.?\d*|\.\d+)$/.test(v) || Number(v) <= 0) throw new InvalidArgumentError('expected a positive number of seconds');
  return Number(v);
}

function parseSolver(v: string): SolverChoice {
  if (v !== 'auto' && v !== 'wasm' && v !== 'native') throw new InvalidArgumentError('expected auto, wasm or native');
  if (v === 'native' && findZ3() === undefined) throw new InvalidArgumentError('no z3 binary on PATH and RELY_Z3 unset (apt-get install z3)');
  return v;
}

/** Checked before the run, so that a long verification does not end in an unwritable path. */
function parseProofPath(v: string): string {
  if (existsSync(v) && statSync(v).isDirectory()) throw new InvalidArgumentError(`${v} is a directory`);
  try {
    accessSync(existsSync(v) ? v : dirname(v), constants.W_OK);
  } catch {
    throw new InvalidArgumentError(`cannot write ${v}`);
  }
  return v;
}

function parseDefine(v: string, prev: Record<string, string> = {}): Record<string, string> {
  const m = /^([A-Za-z_]\w*)(?:=(.*))?$/.exec(v);
  if (!m) throw new InvalidArgumentError('expected NAME or NAME=VALUE');
  return { ...prev, [m[1]]: m[2] ?? '1' };
}

interface Common {
  largeBlocks: boolean;
  define?: Record<string, string>;
  logLevel: string;
}

function frontendOptions(o: Common): FrontendOptions {
  return { largeBlocks: o.largeBlocks, defines: o.define };
}

function addCommon(cmd: Command): Command {
  return cmd
    .option('--no-large-blocks', 'one transition per statement instead of merging thread-local steps')
    .option('-D, --define <NAME[=VALUE]>', 'define a preprocessor macro (repeatable)', parseDefine)
    .addOption(
      new Option('--log-level <level>', 'diagnostic logging on stderr').choices(['silent', 'error', 'warn', 'info', 'debug', 'trace']).default('silent'),
    );
}

function warnAll(p: Program, io: Io): void {
  for (const w of p.warnings) io.err(`${showPos(w.pos)}: warning: ${w.message}\n`);
}

interface VerifyCli extends Common {
  engine: 'aret' | 'monolithic' | ExplicitEngine;
  intRange?: [bigint, bigint];
  maxStates?: number;
  bias: Bias;
  hornSolver: HornSolverChoice;
  shareInstances: boolean;
  modularPrecheck: boolean;
  solver: SolverChoice;
  timeout: number;
  maxIterations: number;
  json?: boolean;
  proof?: string;
}

interface BenchCli {
  suite: Suite;
  bias: 'modular' | 'none' | 'both';
  engine: string[];
  hornSolver: string[];
  solver: SolverChoice;
  timeout: number;
  jobs: number;
  out: string;
}

function parseList(allowed: readonly string[]): (v: string) => string[] {
  return (v) => {
    const xs = v.split(',').map((x) => x.trim()).filter(Boolean);
    const bad = xs.find((x) => !allowed.includes(x));
    if (bad !== undefined || xs.length === 0) throw new InvalidArgumentError(`expected a comma-separated list of ${allowed.join(', ')}`);
    return xs;
  };
}

/** `[k/n] program config: verdict time` on stderr, rewritten in place. */
function progressBar(io: Io): { show: (r: RunResult, done: number, total: number) => void; clear: () => void } {
  return {
    show: (r, done, total) => io.err(`\r\x1b[K[${done}/${total}] ${r.program} ${r.config}: ${r.verdict} ${(r.timeMs / 1000).toFixed(1)} s`),
    clear: () => io.err('\r\x1b[K'),
  };
}

/** One line on stderr, rewritten in place after each ARET computation. */
function progressLine(io: Io): { show: (x: Progress) => void; clear: () => void } {
  return {
    show: (x) =>
      io.err(`\r\x1b[Kiteration ${x.iteration}: ${x.predicates} predicates, ${x.aretStates} ARET states, ${x.envTransitions} env transitions`),
    clear: () => io.err('\r\x1b[K'),
  };
}

/** Runs the ARET engine with the options' budget; every solver it opens is closed. */
async function runVerify(p: Program, o: VerifyCli, deadline: number, io: Io, log: Logger): Promise<{ verdict: Verdict; backend: BackendName }> {
  const opened: SmtSolver[] = [];
  const open = (s: SmtSolver): SmtSolver => {
    opened.push(s);
    return s;
  };
  const queryMs = Math.max(1, Math.min(deadline - performance.now(), QUERY_CAP_MS));
  const solver = open(createSolver(o.solver, { timeoutMs: queryMs }));
  const progress = io.errIsTty ? progressLine(io) : undefined;
  try {
    const verdict = await verify(p, solver, {
      bias: o.bias,
      hornSolver: o.hornSolver,
      shareInstances: o.shareInstances,
      modularPrecheck: o.modularPrecheck,
      maxIterations: o.maxIterations,
      // Independent of the solver that built the proof.
      checker: () => open(createSolver(o.solver)),
      hornTimeoutMs: QUERY_CAP_MS, // the engine also caps it by the deadline
      deadline,
      onProgress: progress?.show,
      // Rendering every predicate costs a walk per term: only when someone reads it.
      onRefined: log.isLevelEnabled('debug')
        ? (r) =>
            log.debug(
              { iteration: r.iteration, level: r.level, by: r.by, learned: r.learned.map((l) => `${l.where}: ${show(l.predicate)}`) },
              'refined',
            )
        : undefined,
      onInternalError: (message) => log.error({ file: p.file }, message),
    });
    return { verdict, backend: solver.backendName };
  } finally {
    progress?.clear();
    for (const s of opened) await s.close();
  }
}

/**
 * Runs the monolithic baseline (--engine monolithic) with the options' budget: one
 * Spacer query on the product program, which is the whole method and so may take all
 * the time left (no QUERY_CAP_MS); every solver it opens is closed.
 */
async function runMonolithic(p: Program, o: VerifyCli, deadline: number, log: Logger): Promise<{ verdict: MonolithicVerdict; backend: BackendName }> {
  const opened: SmtSolver[] = [];
  const open = (s: SmtSolver): SmtSolver => {
    opened.push(s);
    return s;
  };
  const solver = open(createSolver(o.solver));
  try {
    const verdict = await verifyMonolithic(p, solver, {
      // Independent of the solver Spacer ran in.
      checker: () => open(createSolver(o.solver)),
      deadline, // every query is limited to the time left
      onInternalError: (message) => log.error({ file: p.file }, message),
    });
    return { verdict, backend: solver.backendName };
  } finally {
    for (const s of opened) await s.close();
  }
}

/** Runs an explicit-state engine with the options' bounds and the time left. */
function runExplicit(p: Program, engine: ExplicitEngine, o: VerifyCli, deadline: number, log: Logger) {
  return verifyExplicit(p, engine, {
    intRange: o.intRange,
    nondetRange: o.intRange,
    maxStates: o.maxStates,
    deadline,
    onInternalError: (message) => log.error({ file: p.file }, message),
  });
}

/** Runs the CLI on `argv` (without node and script); returns the exit code. */
export async function main(argv: string[], io: Io = processIo): Promise<number> {
  let code: number = EXIT.ok;
  let log: Logger = pino({ level: 'silent' });
  const program = new Command()
    .name('rely')
    .description('Verifier for multi-threaded C programs (SV-COMP concurrency dialect).')
    .version(version(), '-V, --version')
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .showHelpAfterError('(run rely --help for usage)')
    .addHelpText(
      'after',
      '\nExit codes: 0 no error found / SAFE, 1 error reachable / UNSAFE, 2 bad input or usage,\n3 UNKNOWN (verify), 4 internal error.',
    );

  addCommon(
    program
      .command('parse')
      .description('print the transition system (paper §3) the C file lowers to')
      .argument('<file>', 'C source (.c) or preprocessed (.i) file')
      .addOption(new Option('--emit <format>', 'output format').choices(['ir', 'json', 'smt2']).default('ir'))
      .option('--keep-calls', 'keep calls as calls (push and pop transitions), as the explicit engines read the program'),
  ).action((file: string, o: Common & { emit: 'ir' | 'json' | 'smt2'; keepCalls?: boolean }) => {
    log = logger(o.logLevel, io);
    const t0 = performance.now();
    const p = loadProgram(file, { ...frontendOptions(o), calls: o.keepCalls ? 'keep' : 'inline' });
    log.info({ file, threads: p.threads.length, ms: Math.round(performance.now() - t0) }, 'lowered');
    warnAll(p, io);
    if (o.emit === 'json') io.out(JSON.stringify(programJson(p), null, 2) + '\n');
    else if (o.emit === 'smt2') io.out(programSmt2(p));
    else io.out(programText(p));
  });

  addCommon(
    program
      .command('explore')
      .description('exhaustively explore all interleavings (ground truth for small programs)')
      .argument('<file>', 'C source (.c) or preprocessed (.i) file')
      .option(
        '--nondet-range <LO..HI>',
        `values tried for nondeterministic choices (default ${DEFAULT_NONDET_RANGE[0]}..${DEFAULT_NONDET_RANGE[1]})`,
        parseRange,
      )
      .option('--max-states <N>', `stop after this many states (default ${DEFAULT_MAX_STATES})`, parseCount)
      .option('--json', 'print one JSON object'),
  ).action((file: string, o: Common & { nondetRange?: [bigint, bigint]; maxStates?: number; json?: boolean }) => {
    log = logger(o.logLevel, io);
    const p = loadProgram(file, frontendOptions(o));
    warnAll(p, io);
    const r = explore(p, { nondetRange: o.nondetRange, maxStates: o.maxStates });
    log.info({ file, states: r.states, ms: Math.round(r.timeMs) }, 'explored');
    io.out(o.json ? JSON.stringify(exploreJson(p, r)) + '\n' : exploreText(p, r));
    if (r.unsignedWrap && !o.json)
      io.err(`warning: unsigned '${r.unsignedWrap.variable}' became negative on a run; C would wrap around, rely models mathematical integers\n`);
    code = r.errorReachable ? EXIT.errorFound : EXIT.ok;
  });

  addCommon(
    program
      .command('verify')
      .description(
        'prove the program safe (with a checked proof) or find an error trace, by predicate abstraction and refinement (ARET), or with --engine monolithic by one Spacer query on the product program',
      )
      .argument('<file>', 'C source (.c) or preprocessed (.i) file')
      .addOption(
        new Option(
          '--engine <engine>',
          "aret: predicate abstraction and refinement (the paper's algorithm); monolithic: the baseline, one Spacer query for one inductive invariant of the product program of all threads; explicit-global: every reachable state of the product program (finite-state programs); explicit-modular: Flanagan–Qadeer thread-modular model checking, one thread at a time against the others' guarantees. The explicit engines keep calls as calls, so recursion is allowed; --bias, --horn-solver, --no-share-instances, --no-modular-precheck, --max-iterations, --solver and --proof apply to aret (and --solver, --proof to monolithic) only",
        )
          .choices(['aret', 'monolithic', 'explicit-global', 'explicit-modular'])
          .default('aret'),
      )
      .addOption(
        new Option('--bias <bias>', "refinement bias: modular prefers predicates over globals and the thread's own locals (paper §6, Fig. 11); none takes any")
          .choices(['modular', 'none'])
          .default('modular'),
      )
      .addOption(
        new Option(
          '--horn-solver <solver>',
          "who solves the refinement clauses: spacer (z3's Horn engine); linear (the paper's Farkas-based SOLVELINEARHC, §7, handing to Spacer what it cannot answer); auto (linear, and Spacer whenever linear's answer is missing or teaches nothing new)",
        )
          .choices(['spacer', 'linear', 'auto'])
          .default('spacer'),
      )
      .option(
        '--no-share-instances',
        "aret: each predicate set keeps only what its own refinements teach (by default a state predicate of thread i also goes to the other threads running i's function, and a transition predicate of i▷j to i▷j' for the other threads j' running j's function, their locals renamed)",
      )
      .option(
        '--no-modular-precheck',
        'aret, --bias modular: refine as the paper does even when no modular proof can exist (by default thread-modular model checking is asked first, in at most 2 s; when its fixpoint reaches an error there is no modular proof, the modular clauses are skipped, and clauses over the groups of threads whose thread-modular checking together reaches no error, if any are found, come before the unbiased ones)',
      )
      .option('--solver <auto|wasm|native>', 'SMT back end; auto takes native z3 when one is on PATH or $RELY_Z3 is set, else wasm', parseSolver, 'auto')
      .option(
        '--timeout <S>',
        `overall time limit in seconds, then UNKNOWN: timeout (one solver query of the aret engine gets at most ${QUERY_CAP_MS / 1000} s; the monolithic engine's Spacer query gets all the time left)`,
        parseSeconds,
        DEFAULT_TIMEOUT_S,
      )
      .option('--max-iterations <N>', 'refinement iterations before UNKNOWN', parseCount, DEFAULT_MAX_ITERATIONS)
      .option(
        '--int-range <LO..HI>',
        `explicit engines: int variables range over LO..HI (nondeterministic ints are drawn from it, values outside are not explored); without it values are exact and nondeterministic ints are drawn from ${DEFAULT_NONDET_RANGE[0]}..${DEFAULT_NONDET_RANGE[1]}. A result that depends on the bound is UNKNOWN and says so`,
        parseRange,
      )
      .option('--max-states <N>', `explicit engines: stop after this many states (default ${DEFAULT_MAX_STATES})`, parseCount)
      .option('--json', 'print one JSON object')
      .option('--proof <OUT.smt2>', 'if SAFE, write the proof as an SMT-LIB 2 script (check it: z3 OUT.smt2; every answer must be unsat)', parseProofPath)
      .addHelpText(
        'after',
        `
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

Exit codes: 0 SAFE, 1 UNSAFE, 2 bad input or usage, 3 UNKNOWN, 4 internal error.`,
      ),
  ).action(async (file: string, o: VerifyCli) => {
    // The budget covers parsing too.
    const deadline = performance.now() + o.timeout * 1000;
    log = logger(o.logLevel, io);
    const explicit = o.engine === 'explicit-global' || o.engine === 'explicit-modular';
    // The explicit engines run procedures with their own stacks; the others need calls inlined.
    const p = loadProgram(file, { ...frontendOptions(o), calls: explicit ? 'keep' : 'inline' });
    warnAll(p, io);
    const { verdict: v, backend } =
      o.engine === 'monolithic'
        ? await runMonolithic(p, o, deadline, log)
        : o.engine === 'explicit-global' || o.engine === 'explicit-modular'
          ? { verdict: runExplicit(p, o.engine, o, deadline, log), backend: null }
          : await runVerify(p, o, deadline, io, log);
    log.info({ file, verdict: v.verdict, ms: Math.round(v.stats.timeMs) }, 'verified');
    let proofFile: string | undefined;
    if (o.proof && v.verdict === 'safe' && !('engine' in v && v.engine !== 'monolithic')) {
      writeFileSync(o.proof, 'engine' in v ? invariantSmt2(p, v.proof) : proofSmt2(p, v.proof));
      proofFile = o.proof;
    } else if (o.proof) io.err(`rely: no proof written to ${o.proof}: ${explicit ? 'the explicit engines write no SMT-LIB certificate' : 'the verdict is not SAFE'}\n`);
    const run = { bias: o.bias, hornSolver: o.hornSolver, backend, proofFile };
    io.out(o.json ? JSON.stringify(verifyJson(p, v, run)) + '\n' : verifyText(p, v, run));
    code = v.verdict === 'safe' ? EXIT.ok : v.verdict === 'unsafe' ? EXIT.errorFound : EXIT.unknown;
  });

  program
    .command('bench')
    .description("run the benchmark programs of benchmarks/expected.json, each in a fresh `rely verify` process, and check every verdict against the manifest")
    .addOption(new Option('--suite <suite>', "table1: the paper's Table 1; scaling: Simple(n); extra: the §2 examples and mutants; ci: the fast ones").choices(['table1', 'scaling', 'extra', 'ci', 'all']).default('table1'))
    .addOption(new Option('--bias <bias>', 'bias settings of the ARET engine (both: one column each)').choices(['modular', 'none', 'both']).default('both'))
    .option('--engine <list>', 'comma-separated engines: aret (the ARET engine), monolithic (the product program as one Horn query, the baseline), explicit-global (every state of the product program), explicit-modular (thread-modular model checking)', parseList(['aret', 'monolithic', 'explicit-global', 'explicit-modular']), ['aret', 'monolithic'])
    .option('--horn-solver <list>', 'comma-separated Horn solvers for the ARET engine (spacer, linear, auto); the first serves every bias, each further one adds a column', parseList(['spacer', 'linear', 'auto']), ['spacer'])
    .option('--solver <auto|wasm|native>', 'SMT back end of every run', parseSolver, 'auto')
    .option('--timeout <S>', 'time limit per run in seconds', parseSeconds, 60)
    .option('--jobs <N>', 'runs at a time (1 keeps timings comparable)', parseCount, 1)
    .option('--out <DIR>', 'where results.json, results.csv, results.md (and scaling.svg) go', 'bench-results')
    .addHelpText('after', '\nPrints the Markdown table (laid out like Table 1) on stdout. With Simple(n) programs in the run, results.md also gets a Scaling section (states and time per n, fitted growth) and scaling.svg plots states and time against n. Exit codes: 0 every verdict agrees with the manifest (UNKNOWN allowed), 1 a wrong verdict or a run that failed, 2 usage.')
    .action(async (o: BenchCli) => {
      const entries = suiteOf(loadManifest(), o.suite);
      const cols = configs({ bias: o.bias === 'both' ? ['modular', 'none'] : [o.bias], engines: o.engine, hornSolvers: o.hornSolver });
      const m = machine(o.solver);
      const progress = io.errIsTty ? progressBar(io) : undefined;
      const results = await runBench({ entries, configs: cols, timeoutS: o.timeout, jobs: o.jobs, solver: o.solver, onResult: progress?.show });
      progress?.clear();
      const scaling = scalingReport(cols, results);
      const table = markdownTable(entries, cols, results, m, o.timeout) + (scaling?.markdown ?? '');
      mkdirSync(o.out, { recursive: true });
      if (scaling) writeFileSync(join(o.out, 'scaling.svg'), scaling.svg);
      writeFileSync(join(o.out, 'results.json'), JSON.stringify({ machine: m, suite: o.suite, timeoutS: o.timeout, configs: cols, results }, null, 2) + '\n');
      writeFileSync(join(o.out, 'results.csv'), csv(entries, results));
      writeFileSync(join(o.out, 'results.md'), table);
      io.out(table);
      code = results.some((r) => r.wrong || r.verdict === 'error') ? EXIT.errorFound : EXIT.ok;
    });

  addCommon(
    program
      .command('emit-chc')
      .description('write the program as constrained Horn clauses (SMT-LIB 2, logic HORN) for any CHC solver')
      .argument('<file>', 'C source (.c) or preprocessed (.i) file')
      .addOption(
        new Option(
          '--encoding <encoding>',
          "monolithic: one unknown invariant Inv(V) of the product program of all threads; reachenv: the paper's proof rule REACHENV (Fig. 5, CS1–CS5) with unknowns R_i(V) and E_i(V,V') per thread",
        )
          .choices(['monolithic', 'reachenv'])
          .default('monolithic'),
      )
      .option('-o, --output <OUT.smt2>', 'write to this file instead of stdout', parseProofPath)
      .addHelpText(
        'after',
        `
Both encodings are exact: the clauses have a solution iff no error location is
reachable, so sat means the program is safe and unsat that an error is reachable
(z3 OUT.smt2 runs Spacer, which may also answer unknown or run long).

Exit codes: 0 written, 2 bad input or usage, 4 internal error.`,
      ),
  ).action((file: string, o: Common & { encoding: ChcEncoding; output?: string }) => {
    log = logger(o.logLevel, io);
    const p = loadProgram(file, frontendOptions(o));
    warnAll(p, io);
    const text = chcSmt2(p, o.encoding);
    if (o.output) writeFileSync(o.output, text);
    else io.out(text);
    log.info({ file, encoding: o.encoding, output: o.output ?? '-' }, 'emitted');
  });

  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (e) {
    if (e instanceof CommanderError) {
      return e.exitCode === 0 ? EXIT.ok : EXIT.badInput;
    }
    if (e instanceof InputError) {
      io.err(`${e.message}\n`);
      return EXIT.badInput;
    }
    log.error({ err: e }, 'internal error');
    io.err(`rely: internal error: ${(e as Error).message} (run with --log-level debug for details)\n`);
    return EXIT.internal;
  }
}

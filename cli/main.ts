/**
 * The `rely` command line. Exit codes: 0 ok / no error found, 1 error reachable,
 * 2 bad input or usage, 4 internal error.
 */
import { existsSync, readFileSync } from 'node:fs';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { pino, type Logger } from 'pino';
import { InputError, showPos } from '../frontend/diagnostics.js';
import { loadProgram, type FrontendOptions } from '../frontend/index.js';
import { programJson, programSmt2, programText } from '../frontend/print.js';
import type { Program } from '../frontend/program.js';
import { DEFAULT_MAX_STATES, DEFAULT_NONDET_RANGE, explore } from '../explicit/explore.js';
import { exploreJson, exploreText } from './report.js';

export const EXIT = { ok: 0, errorFound: 1, badInput: 2, internal: 4 } as const;

export interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
}

const processIo: Io = { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) };

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
    .showHelpAfterError('(run rely --help for usage)');

  addCommon(
    program
      .command('parse')
      .description('print the transition system (paper §3) the C file lowers to')
      .argument('<file>', 'C source (.c) or preprocessed (.i) file')
      .addOption(new Option('--emit <format>', 'output format').choices(['ir', 'json', 'smt2']).default('ir')),
  ).action((file: string, o: Common & { emit: 'ir' | 'json' | 'smt2' }) => {
    log = pino({ level: o.logLevel }, pino.destination(2));
    const t0 = performance.now();
    const p = loadProgram(file, frontendOptions(o));
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
    log = pino({ level: o.logLevel }, pino.destination(2));
    const p = loadProgram(file, frontendOptions(o));
    warnAll(p, io);
    const r = explore(p, { nondetRange: o.nondetRange, maxStates: o.maxStates });
    log.info({ file, states: r.states, ms: Math.round(r.timeMs) }, 'explored');
    io.out(o.json ? JSON.stringify(exploreJson(p, r)) + '\n' : exploreText(p, r));
    if (r.unsignedWrap && !o.json)
      io.err(`warning: unsigned '${r.unsignedWrap.variable}' became negative on a run; C would wrap around, rely models mathematical integers\n`);
    code = r.errorReachable ? EXIT.errorFound : EXIT.ok;
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

/** What every command shares: where output goes, exit codes, logging, and the frontend's options. */
import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { pino, type Logger } from 'pino';
import { showPos } from '../program/diagnostics.js';
import type { FrontendOptions } from '../frontend/index.js';
import type { DataModel } from '../frontend/types.js';
import type { Program } from '../program/program.js';
import { OptionError } from '../core/engine.js';

/** The package version (package.json is one level up from cli/, two from dist/cli/). */
export function version(): string {
  for (const rel of ['../package.json', '../../package.json']) {
    const url = new URL(rel, import.meta.url);
    if (existsSync(url)) return (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;
  }
  return 'unknown';
}

export const EXIT = { ok: 0, errorFound: 1, badInput: 2, unknown: 3, internal: 4 } as const;

export interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
  /** stderr is a terminal: worth a live progress line. */
  errIsTty?: boolean;
}

/**
 * Tells cli/rely.js, when the CLI runs in its worker, when this run's time is up: it
 * stops a run that goes on well past that (a phase that cannot look at the clock).
 */
export function announceDeadline(seconds: number): void {
  if ((workerData as { rely?: boolean } | null)?.rely) parentPort?.postMessage({ kind: 'deadline', at: Date.now() + seconds * 1000 });
}

/**
 * Calls `stop` on the first SIGINT, until the returned function is called (then SIGINT
 * ends the process again). cli/rely.js's worker gets no signals: there the main thread,
 * asked by a message, passes the first one on.
 */
export function onInterrupt(stop: () => void): () => void {
  if (!(workerData as { rely?: boolean } | null)?.rely || !parentPort) {
    process.once('SIGINT', stop);
    return () => void process.off('SIGINT', stop);
  }
  const port = parentPort;
  const listener = (m: { kind?: string } | null): void => {
    if (m?.kind === 'interrupt') stop();
  };
  port.on('message', listener);
  port.postMessage({ kind: 'interrupt', listen: true });
  return () => {
    port.off('message', listener);
    port.postMessage({ kind: 'interrupt', listen: false });
  };
}

/** One invocation of `rely`: its output, the exit code its command sets, its logger. */
export interface Session {
  readonly io: Io;
  /** The command line's arguments after `rely` (a SARIF log records them). */
  readonly argv: readonly string[];
  code: number;
  log: Logger;
}

/** Diagnostics as pino JSON lines on the Io's stderr (so in-process callers see them too). */
export const logger = (level: string, io: Io): Logger => pino({ level }, { write: (line: string) => io.err(line) });

/** A parser of core/options.ts as commander takes it: its OptionError becomes a usage error beside the flag. */
export function cliParser<T>(parse: (v: string) => T): (v: string) => T {
  return (v) => {
    try {
      return parse(v);
    } catch (e) {
      if (e instanceof OptionError) throw new InvalidArgumentError(e.message);
      throw e;
    }
  };
}

export function parseSeconds(v: string): number {
  if (!/^(\d+\.?\d*|\.\d+)$/.test(v) || Number(v) <= 0) throw new InvalidArgumentError('expected a positive number of seconds');
  return Number(v);
}

/** `--max-memory`: a whole number of megabytes, at least MIN_MEMORY_MB (cli/rely.js reads the flag the same way). */
export function parseMegabytes(v: string): number {
  if (!/^\d+$/.test(v) || Number(v) < MIN_MEMORY_MB) throw new InvalidArgumentError(`expected a whole number of megabytes, at least ${MIN_MEMORY_MB}`);
  return Number(v);
}

/** A smaller --max-memory is a usage error: it caps the CLI's JS heap, and rely could not load. (Its process takes about 90 MB at rest: a limit below that ends a run at once, UNKNOWN: out of memory.) */
export const MIN_MEMORY_MB = 16;

/** Checked before the run, so that a long verification does not end in an unwritable path. */
export function parseOutputPath(v: string): string {
  if (existsSync(v) && statSync(v).isDirectory()) throw new InvalidArgumentError(`${v} is a directory`);
  try {
    accessSync(existsSync(v) ? v : dirname(v), constants.W_OK);
  } catch {
    throw new InvalidArgumentError(`cannot write ${v}`);
  }
  return v;
}

/** A directory to write into (made when written, if missing); a file there is an error. */
export function parseOutputDir(v: string): string {
  if (existsSync(v) && !statSync(v).isDirectory()) throw new InvalidArgumentError(`${v} is a file`);
  let at = v;
  while (!existsSync(at)) at = dirname(at);
  try {
    accessSync(at, constants.W_OK);
  } catch {
    throw new InvalidArgumentError(`cannot write into ${v}`);
  }
  return v;
}

function parseDefine(v: string, prev: Record<string, string> = {}): Record<string, string> {
  const m = /^([A-Za-z_]\w*)(?:=(.*))?$/.exec(v);
  if (!m) throw new InvalidArgumentError('expected NAME or NAME=VALUE');
  return { ...prev, [m[1]]: m[2] ?? '1' };
}

/** The options of every command that reads a C file. */
export interface Common {
  largeBlocks: boolean;
  dataModel: DataModel;
  define?: Record<string, string>;
  mallocMayFail?: boolean;
  checkFree?: boolean;
  check?: 'misuse';
  logLevel: string;
}

export function frontendOptions(o: Common): FrontendOptions {
  return { largeBlocks: o.largeBlocks, defines: o.define, dataModel: o.dataModel, mallocMayFail: o.mallocMayFail, checkFree: o.checkFree, checkMisuse: o.check === 'misuse' || undefined };
}

export function addCommon(cmd: Command): Command {
  return cmd
    .option('--no-large-blocks', 'one transition per statement instead of merging thread-local steps')
    .option('-D, --define <NAME[=VALUE]>', 'define a preprocessor macro (repeatable)', parseDefine)
    .addOption(
      new Option('--data-model <model>', 'widths of long and size_t: ILP32 (32 bits, as SV-COMP\'s 32-bit tasks) or LP64 (64 bits); int is 32 bits in both')
        .choices(['ILP32', 'LP64'])
        .default('ILP32'),
    )
    .option('--malloc-may-fail', 'malloc and calloc may return NULL (default: they never fail, as SV-COMP assumes)')
    .option('--check-free', 'a use of freed memory, a double free and a free of a pointer malloc did not return reach the error location (default: free has no effect)')
    .addOption(
      new Option(
        '--check <what>',
        "misuse: misuse of the pthread library that the models can tell reaches the error location, the trace's last step naming it ('misuse: …'): an unlock of a normal mutex, a spinlock or an rwlock by a thread that does not hold it (pthread_cond_wait's mutex too), a destroy of a held mutex, spinlock or rwlock or of a barrier threads wait on, a wait on a destroyed barrier (default: not checked: an unlock frees a mutex whoever holds it, a destroy has no effect)",
      ).choices(['misuse']),
    )
    .addOption(
      new Option('--log-level <level>', 'diagnostic logging on stderr').choices(['silent', 'error', 'warn', 'info', 'debug', 'trace']).default('silent'),
    );
}

export function warnAll(p: Program, io: Io): void {
  for (const w of p.warnings) io.err(`${showPos(w.pos)}: warning: ${w.message}\n`);
}

/** A line on stderr, rewritten in place, and its clearing. */
export function statusLine(io: Io): { show: (line: string) => void; clear: () => void } {
  return { show: (line) => io.err(`\r\x1b[K${line}`), clear: () => io.err('\r\x1b[K') };
}

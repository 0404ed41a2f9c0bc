/**
 * The `rely` command line. Exit codes: 0 ok / no error found / SAFE, 1 error
 * reachable / UNSAFE, 2 bad input or usage, 3 UNKNOWN (verify), 4 internal error.
 */
import { Command, CommanderError } from 'commander';
import { pino } from 'pino';
import { InputError, ReadingTimeout } from '../program/diagnostics.js';
import { benchCommand } from './bench.js';
import { EXIT, version, type Io, type Session } from './common.js';
import { decomposeCommand } from './decompose.js';
import { emitChcCommand, exploreCommand, parseCommand } from './inspect.js';
import { svcompCommand } from './svcomp.js';
import { unknownVerdict } from './unknown.js';
import { validateWitnessCommand } from './witness.js';
import { verifyCommand } from './verify.js';

export { EXIT, type Io } from './common.js';

const processIo: Io = {
  out: (s) => process.stdout.write(s),
  err: (s) => process.stderr.write(s),
  // cli/rely.js runs the CLI in a worker, whose stderr is a pipe: it says what the process's is.
  errIsTty: process.stderr.isTTY === true || process.env.RELY_STDERR_TTY === '1',
};

/** Runs the CLI on `argv` (without node and script); returns the exit code. */
export async function main(argv: string[], io: Io = processIo): Promise<number> {
  const session: Session = { io, argv, code: EXIT.ok, log: pino({ level: 'silent' }) };
  const program = new Command()
    .name('rely')
    .description('Verifier for multi-threaded C programs (SV-COMP concurrency dialect).')
    .version(version(), '-V, --version')
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .showHelpAfterError('(run rely --help for usage)')
    .addHelpText(
      'after',
      '\nInput: C with pthreads (threads, joins with results, pthread_self/equal/detach, mutexes of\n' +
        'every kind, spinlocks, condition variables, read-write locks, barriers, semaphores,\n' +
        'pthread_once, keys), GCC and C11 atomics and _Atomic (every memory order read as sequentially\n' +
        'consistent), __thread, structs, unions of one integer type, arrays, pointers, the heap.\n' +
        'Refused with file:line:col: unsupported:\n' +
        'floating point, bit operations, pointers to pointers, pthread_cancel\n' +
        'and any other library function without a body (docs/input-language.md lists every construct).\n' +
        '\nExit codes: 0 no error found / SAFE, 1 error reachable / UNSAFE, 2 bad input or usage,\n3 UNKNOWN (verify), 4 internal error.',
    );
  for (const command of [parseCommand, exploreCommand, verifyCommand, svcompCommand, validateWitnessCommand, benchCommand, emitChcCommand, decomposeCommand]) command(program, session);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return session.code;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.ok : EXIT.badInput;
    if (e instanceof InputError) {
      io.err(`${e.message}\n`);
      return EXIT.badInput;
    }
    if (e instanceof ReadingTimeout) {
      const { out, code } = unknownVerdict(argv, e.message);
      io.out(out);
      return code;
    }
    session.log.error({ err: e }, 'internal error');
    io.err(`rely: internal error: ${(e as Error).message} (run with --log-level debug for details)\n`);
    return EXIT.internal;
  }
}

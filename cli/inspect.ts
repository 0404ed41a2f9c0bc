/** The commands that look at a program without an engine's verdict: `parse`, `explore` and `emit-chc`. */
import { writeFileSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { loadProgram } from '../frontend/index.js';
import { programJson, programSmt2, programText } from '../program/print.js';
import { parseCount, parseRange } from '../core/options.js';
import { DEFAULT_MAX_STATES, DEFAULT_NONDET_RANGE, explore } from '../engines/state-space/explore.js';
import { chcSmt2, type ChcEncoding } from '../engines/monolithic/encode.js';
import { EXIT, addCommon, cliParser, frontendOptions, logger, parseOutputPath, warnAll, type Common, type Session } from './common.js';
import { exploreJson, exploreText } from './report.js';

export function parseCommand(program: Command, session: Session): void {
  const { io } = session;
  addCommon(
    program
      .command('parse')
      .description('print the transition system (paper §3) the C file lowers to')
      .argument('<file>', 'C source (.c) or preprocessed (.i) file')
      .addOption(new Option('--emit <format>', 'output format').choices(['ir', 'json', 'smt2']).default('ir'))
      .option('--keep-calls', 'keep calls as calls (push and pop transitions), as the explicit engines read the program'),
  ).action((file: string, o: Common & { emit: 'ir' | 'json' | 'smt2'; keepCalls?: boolean }) => {
    session.log = logger(o.logLevel, io);
    const t0 = performance.now();
    const p = loadProgram(file, { ...frontendOptions(o), calls: o.keepCalls ? 'keep' : 'inline' });
    session.log.info({ file, threads: p.threads.length, ms: Math.round(performance.now() - t0) }, 'lowered');
    warnAll(p, io);
    if (o.emit === 'json') io.out(JSON.stringify(programJson(p), null, 2) + '\n');
    else if (o.emit === 'smt2') io.out(programSmt2(p));
    else io.out(programText(p));
  });
}

export function exploreCommand(program: Command, session: Session): void {
  const { io } = session;
  addCommon(
    program
      .command('explore')
      .description('exhaustively explore all interleavings (ground truth for small programs)')
      .argument('<file>', 'C source (.c) or preprocessed (.i) file')
      .option(
        '--nondet-range <LO..HI>',
        `values tried for nondeterministic choices (default ${DEFAULT_NONDET_RANGE[0]}..${DEFAULT_NONDET_RANGE[1]})`,
        cliParser(parseRange),
      )
      .option('--max-states <N>', `stop after this many states (default ${DEFAULT_MAX_STATES})`, cliParser(parseCount))
      .option('--json', 'print one JSON object'),
  ).action((file: string, o: Common & { nondetRange?: [bigint, bigint]; maxStates?: number; json?: boolean }) => {
    session.log = logger(o.logLevel, io);
    const p = loadProgram(file, frontendOptions(o));
    warnAll(p, io);
    const r = explore(p, { nondetRange: o.nondetRange, maxStates: o.maxStates });
    session.log.info({ file, states: r.states, ms: Math.round(r.timeMs) }, 'explored');
    io.out(o.json ? JSON.stringify(exploreJson(p, r)) + '\n' : exploreText(p, r));
    session.code = r.errorReachable ? EXIT.errorFound : EXIT.ok;
  });
}

export function emitChcCommand(program: Command, session: Session): void {
  const { io } = session;
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
      .option('-o, --output <OUT.smt2>', 'write to this file instead of stdout', parseOutputPath)
      .addHelpText(
        'after',
        `
Both encodings are exact: the clauses have a solution iff no error location is
reachable, so sat means the program is safe and unsat that an error is reachable
(z3 OUT.smt2 runs Spacer, which may also answer unknown or run long).

Exit codes: 0 written, 2 bad input or usage, 4 internal error.`,
      ),
  ).action((file: string, o: Common & { encoding: ChcEncoding; output?: string }) => {
    session.log = logger(o.logLevel, io);
    const p = loadProgram(file, frontendOptions(o));
    warnAll(p, io);
    const text = chcSmt2(p, o.encoding);
    if (o.output) writeFileSync(o.output, text);
    else io.out(text);
    session.log.info({ file, encoding: o.encoding, output: o.output ?? '-' }, 'emitted');
  });
}

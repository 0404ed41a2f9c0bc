/**
 * `rely svcomp`: a verification task as SV-COMP poses it — a task definition (`.yml`,
 * format 2.0) or a program with a property file — answered as SV-COMP tools answer:
 * rely verify's output, then `Result: TRUE`, `Result: FALSE(unreach-call)` or
 * `Result: UNKNOWN` as the last line, exit 0 for any answer (a program with a construct
 * rely does not support is UNKNOWN, its located message on stderr). Only the property
 * unreach-call (`G ! call(reach_error())`) is checked; any other is UNKNOWN.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Command } from 'commander';
import { parse as parseYaml } from 'yaml';
import { InputError } from '../program/diagnostics.js';
import type { DataModel } from '../frontend/types.js';
import { MISUSE } from '../frontend/lower/sync.js';
import { EXIT, parseOutputPath, type Session } from './common.js';
import { verifyFile, verifyOptions, type VerifyCli } from './verify.js';
import { SARIF_HELP, sarifTarget, writeSarif, writeSarifOfError, writeSarifPlaceholder, type SarifTarget } from './sarif.js';
import { writeWitness } from './witness.js';

/** The one property rely checks, as SV-COMP's property file states it (whitespace aside). */
const UNREACH_CALL = /^CHECK\(\s*init\(\s*main\(\)\s*\)\s*,\s*LTL\(\s*G\s*!\s*call\(\s*(reach_error|__VERIFIER_error)\(\)\s*\)\s*\)\s*\)$/;

/** What a task asks: the program, whether its property is unreach-call, and the data model. */
export interface Task {
  readonly file: string;
  /** Why rely does not check the property, or undefined when it is unreach-call. */
  readonly unsupported?: string;
  readonly dataModel?: DataModel;
}

const at = (file: string) => ({ file, line: 1, col: 1 });

/** Whether a property file states unreach-call; the reason it is not otherwise. */
function propertyProblem(prp: string): string | undefined {
  if (!existsSync(prp)) return /unreach-call\.prp$/.test(prp) ? undefined : `property file ${prp} not found`;
  const text = readFileSync(prp, 'utf8').trim();
  return UNREACH_CALL.test(text) ? undefined : `property not supported (only unreach-call): ${text.split('\n')[0]}`;
}

/** Reads a task definition (format 2.0): its input file, its unreach-call property, its data model. */
export function readTask(yml: string): Task {
  let doc: unknown;
  try {
    doc = parseYaml(readFileSync(yml, 'utf8'));
  } catch (e) {
    throw new InputError(at(yml), `not a task definition: ${(e as Error).message.split('\n')[0]}`);
  }
  const d = (doc ?? {}) as { input_files?: unknown; properties?: { property_file?: unknown }[]; options?: { data_model?: unknown } };
  const inputs = typeof d.input_files === 'string' ? [d.input_files] : Array.isArray(d.input_files) ? d.input_files : [];
  if (inputs.length !== 1 || typeof inputs[0] !== 'string') throw new InputError(at(yml), 'the task must name exactly one input file (input_files)');
  const file = resolve(dirname(yml), inputs[0]);
  const model = d.options?.data_model;
  if (model !== undefined && model !== 'ILP32' && model !== 'LP64') throw new InputError(at(yml), `unknown data_model '${String(model)}' (ILP32 or LP64)`);
  const props = (d.properties ?? []).flatMap((p) => (typeof p?.property_file === 'string' ? [resolve(dirname(yml), p.property_file)] : []));
  const problems = props.map(propertyProblem);
  const ok = problems.some((x) => x === undefined);
  return { file, dataModel: model, unsupported: ok ? undefined : (problems[0] ?? 'the task has no property') };
}

export function svcompCommand(program: Command, session: Session): void {
  const cmd = program
    .command('svcomp')
    .description('answer an SV-COMP verification task: rely verify, then Result: TRUE | FALSE(unreach-call) | UNKNOWN as the last line (exit 0 for any answer; with --check misuse, TRUE also means no misuse, and an error trace that ends in a misuse is UNKNOWN)')
    .argument('<task>', 'a task definition (.yml, format 2.0), or a C file with --prop')
    .option('--prop <FILE.prp>', 'the property file when <task> is a C file (only unreach-call is checked)')
    .option('--sarif <OUT.sarif>', `${SARIF_HELP}. Here the invocation's exit code is 0 for any answer; a program rely cannot read, or a property it does not check, is UNKNOWN; a trace that ends in a misuse (--check misuse) is the misuse's result, though the answer is UNKNOWN`, parseOutputPath)
    .option('--witness <OUT.yml>', 'write an SV-COMP witness (YAML): for FALSE a violation witness (format 2.2: one waypoint per step of the trace, with its thread), for TRUE a correctness witness (location invariants from thread-modular model checking, else from the exact reachable states with pc ghosts rely_pc_T for where the threads are, none where neither is exact within --timeout; format 2.1 when they name ghost variables for mutex owners, thread start/end flags, locals or pcs, else 2.0); none for UNKNOWN. rely validate-witness reads it back', parseOutputPath);
  verifyOptions(cmd).action(async (arg: string, o: VerifyCli & { prop?: string; witness?: string }) => {
    // The log names the task until the task names its program.
    const sarif = sarifTarget(arg, o, () => EXIT.ok);
    if (sarif) writeSarifPlaceholder(sarif, session);
    try {
      await answerTask(arg, o, cmd.getOptionValueSource('dataModel') === 'cli', session, sarif);
    } catch (e) {
      if (sarif) writeSarifOfError(sarif, session, e);
      throw e;
    }
  });
}

/** Answers the task `arg` as `rely svcomp` does: the Result: line, the witness and the SARIF log asked for. */
async function answerTask(arg: string, o: VerifyCli & { prop?: string; witness?: string }, modelFromCli: boolean, session: Session, target: SarifTarget | undefined): Promise<void> {
  const task: Task = /\.ya?ml$/.test(arg) ? readTask(arg) : { file: arg, unsupported: o.prop ? propertyProblem(resolve(o.prop)) : undefined };
  const sarif = target && { ...target, file: task.file };
  // A data model given on the command line wins over the task's.
  const model = modelFromCli ? o.dataModel : (task.dataModel ?? o.dataModel);
  /** No answer: `why` on stderr, Result: UNKNOWN; the log says `reason` unless it already holds the run's verdict. */
  const unknown = (why: string, reason?: string): void => {
    if (sarif && reason !== undefined) writeSarif(sarif, session, { verdict: 'unknown', reason }, { verdict: 'unknown' });
    session.io.err(why);
    session.io.out('Result: UNKNOWN\n');
    session.code = EXIT.ok;
  };
  if (task.unsupported) return unknown(`rely: ${task.unsupported}\n${o.witness ? `rely: no witness written to ${o.witness}: the result is UNKNOWN\n` : ''}`, task.unsupported);
  // A task whose program is missing is a broken task (exit 2), not a program rely cannot read.
  if (!existsSync(task.file)) throw new InputError(at(arg), `the task's input file ${task.file} does not exist`);
  const deadline = performance.now() + o.timeout * 1000; // the witness's fixpoint too stays within --timeout
  let answer;
  try {
    answer = await verifyFile(task.file, { ...o, dataModel: model }, session, sarif);
  } catch (e) {
    // A program rely cannot read (an unsupported construct) gets no verdict: SV-COMP's UNKNOWN, with the located message.
    if (!(e instanceof InputError)) throw e;
    return unknown(`${e.message}\n`, e.message);
  }
  const v = answer.verdict;
  // With --check misuse a trace may end in a misuse of the pthread library: no violation of unreach-call, so no answer.
  if (v.verdict === 'unsafe' && v.trace.at(-1)?.steps.at(-1)?.text.startsWith(MISUSE))
    return unknown(`rely: the error trace ends in a misuse of the pthread library (--check misuse), which is not a violation of unreach-call${o.witness ? `; no witness written to ${o.witness}` : ''}\n`);
  if (o.witness) writeWitness(o.witness, task.file, answer, { ...o, dataModel: model }, deadline, session);
  session.io.out(`Result: ${v.verdict === 'safe' ? 'TRUE' : v.verdict === 'unsafe' ? 'FALSE(unreach-call)' : 'UNKNOWN'}\n`);
  session.code = EXIT.ok;
}

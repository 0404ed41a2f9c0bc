/**
 * SV-COMP witnesses on the command line: `rely svcomp --witness OUT` writes one for
 * its answer (witness/), and `rely validate-witness` reads one back — a violation
 * witness is followed into a run the interpreter replays, a correctness witness's
 * invariants are checked inductive by a fresh solver.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { Command, Option } from 'commander';
import { InputError, UnboundedThreads } from '../program/diagnostics.js';
import { loadReadableProgram, type ReadableProgram } from '../frontend/index.js';
import { hasTemplates, type Program } from '../program/program.js';
import type { DataModel } from '../frontend/types.js';
import { solverOption } from '../core/options.js';
import type { SmtSolver } from '../solver/smt.js';
import { createSolver, type SolverChoice } from '../solver/select.js';
import { reachableViews, threadModularViews } from '../engines/state-space/api.js';
import { Budget } from '../core/budget.js';
import { and } from '../solver/formula.js';
import { CORRECTNESS_FORMAT, GHOST_FORMAT, correctnessYaml, readWitness, violationYaml, type GhostInstrumentation, type LocationInvariant, type Producer, type ReadGhosts, type ReadInvariant } from '../witness/format.js';
import { bothGhosts, pcGhostsOf } from '../witness/pc-ghosts.js';
import { ghostLinks, ghostsOf, withGhosts } from '../witness/ghosts.js';
import { withLocalCopies } from '../witness/local-copies.js';
import { violationWaypoints, followViolation, followCutLoops, type Followed } from '../witness/violation.js';
import { checkInvariants, invariantsFromViews } from '../witness/correctness.js';
import { EXIT, addCommon, cliParser, frontendOptions, parseSeconds, version, type Common, type Session } from './common.js';
import { traceText } from './report.js';
import type { Answer } from './verify.js';

/** The thread-modular fixpoint behind a correctness witness explores at most this many states. */
const VIEW_STATES = 1_000_000;
/** Invariants from the exact reachable states longer than this (characters, in all) are left out: no validator reads them in reasonable time. */
const MAX_REACHABLE_TEXT = 2_000_000;

/** The program of `file` as the answer's engine lowered it, with calls inlined (where the witness's positions and scopes come from). */
function readable(file: string, o: Common, p: Program): ReadableProgram {
  return loadReadableProgram(file, { ...frontendOptions(o), maxInstances: p.instanceBound, templates: hasTemplates(p) || undefined });
}

/**
 * `--witness OUT`: for FALSE a violation witness of the answer's trace, for TRUE a
 * correctness witness whose invariants come from thread-modular model checking of the
 * program (whatever engine decided: an exact fixpoint is an invariant), within
 * `deadline`; for UNKNOWN none, and stderr says so.
 */
export function writeWitness(out: string, file: string, answer: Answer, o: Common, deadline: number, session: Session): void {
  const { io } = session;
  const v = answer.verdict;
  if (v.verdict === 'unknown') return void io.err(`rely: no witness written to ${out}: the result is UNKNOWN\n`);
  const rp = readable(file, o, answer.p);
  // The input file as SV-COMP names it: relative to where rely runs.
  const by: Producer = { version: version(), file: relative(process.cwd(), file) || file, dataModel: o.dataModel };
  if (v.verdict === 'unsafe') {
    const waypoints = violationWaypoints(answer.p, rp, v.trace, by.file);
    writeFileSync(out, violationYaml(waypoints, by));
    return void io.err(`rely: wrote a violation witness (${waypoints.length} waypoints, format 2.2) to ${out}\n`);
  }
  const c = correctness(rp, by.file, deadline);
  const n = c.ghosts?.ghost_variables.length ?? 0;
  writeFileSync(out, correctnessYaml(c.invariants, by, c.ghosts));
  io.err(`rely: wrote a correctness witness (${c.invariants.length} location invariants, ${n ? `${n} ghost variables, format ${GHOST_FORMAT}` : `format ${CORRECTNESS_FORMAT}`}) to ${out}\n`);
  if (c.from === 'reachable states') io.err('rely: its invariants are the exact reachable states (thread-modular model checking found no exact fixpoint), with ghosts rely_pc_T for where the threads are\n');
  if (c.from === 'too many states') io.err(`rely: it has no invariants: thread-modular model checking found no exact fixpoint, and the exact reachable states would make invariants of more than ${MAX_REACHABLE_TEXT} characters\n`);
  if (!c.from) io.err('rely: it has no invariants: neither thread-modular model checking nor an explicit search of the reachable states gave an exact answer for this program within the time left (a bound mattered, an error is reachable in the abstraction, or threads are templates)\n');
}

/**
 * A correctness witness's invariants and ghosts: from the thread-modular fixpoint of the
 * program if it is exact, else from its exact reachable states with pc ghosts
 * (pc-ghosts.ts: a thread's invariant says where the other threads are), else none.
 */
function correctness(rp: ReadableProgram, file: string, deadline: number): { invariants: LocationInvariant[]; ghosts?: GhostInstrumentation; from?: 'thread-modular' | 'reachable states' | 'too many states' } {
  // With ghost copies of the locals that functions the threads call cannot name (local-copies.ts).
  const p = withLocalCopies(rp.program, rp.functions);
  const bounds = { maxStates: VIEW_STATES, budget: new Budget({ deadline }) };
  const views = threadModularViews(p, bounds);
  if (views) {
    const ghosts = ghostsOf(p, rp.functions, file);
    return { invariants: invariantsFromViews(p, rp.functions, views, file, ghosts.names, rp.pointerText), ghosts: ghosts.instrumentation, from: 'thread-modular' };
  }
  // Each thread's invariants name every thread's locals (by ghost copies) and where it is (pc ghosts).
  const all = withLocalCopies(rp.program, rp.functions, true);
  const ghosts = ghostsOf(all, rp.functions, file);
  const pc = pcGhostsOf(all, rp.functions, file, new Set([...[...all.vars.values()].map((v) => v.cname), ...ghosts.names.keys()]));
  const g = withGhosts({ ...rp, program: all }, pc.read);
  const reachable = 'reason' in g ? undefined : reachableViews(g.program, bounds);
  if ('reason' in g || !reachable) return { invariants: [] };
  const names = new Map([...ghosts.names, ...g.names]);
  const invariants = invariantsFromViews(g.program, rp.functions, reachable, file, names, rp.pointerText);
  if (invariants.reduce((n, i) => n + i.value.length, 0) > MAX_REACHABLE_TEXT) return { invariants: [], from: 'too many states' };
  return { invariants, ghosts: bothGhosts(ghosts.instrumentation, pc.instrumentation), from: 'reachable states' };
}

interface ValidateCli extends Common {
  witness: string;
  solver: SolverChoice;
  timeout: number;
}

const AFTER = `
A violation witness (violation_sequence) is followed in rely's program: segment by
segment, the thread its waypoint names (thread_id, format 2.2) takes a step that ends at
the waypoint's line and column, the last one into its error at the target's; each
constraint, a C expression over the variables in C scope at its waypoint, must hold
right after its step. The path and the constraints go to the solver, and its run is
replayed in the interpreter. Result: FALSE(unreach-call) only for a replayed run that
reaches the error; else UNKNOWN with the reason (avoid, branching and function
waypoints are not followed, so a witness that needs them is UNKNOWN, not refuted). In
a program that creates threads in a loop without a bound, the witness is followed in
the program with each such loop cut after K iterations, for K = 1, 2, … up to the
largest thread_id it names: a cut program's runs are runs of the program.

A correctness witness (invariant_set) is checked Owicki–Gries style by a fresh solver.
Its ghost variables (format 2.1 ghost_instrumentation: global ints with constant
initial values; updates that set a constant or copy a variable visible where they
stand; others: UNKNOWN) become globals of rely's program, updated with each step that
executes the statement at an update's location; a ghost shown always equal to rely's
own mutex owner or thread start/end flag is linked to it. Each invariant is placed at
the locations of rely's transition system that start at its line and column (positions
rely's own witnesses use; others are "not checked") and read as a C expression over
the variables and ghosts visible there; its obligations are initiation, each step of
its thread into its location, and each step of every other thread (interference,
assuming all the invariants of its location). rely adds candidates of its own (a ghost
copy of a local equals it where C cannot name the local; a thread has not ended at
its locations and has started past its entry; what the steps into a location
establish, where one position stands for several; the initial values at a thread's
entry). Invariants with a failing obligation are dropped until the rest hold
together: the witness's are reported inductive. Result: TRUE only when the inductive
invariants also rule out every step into an error location (a proof of the program as
rely models it); else UNKNOWN. An update only sets its ghost, so ghosts cannot change
the program's runs; other threads' locals cannot be named, so invariants that need
them are not inductive.

A correctness witness of a program that creates threads without a bound is not
checked (UNKNOWN). A malformed witness is exit 2 with WITNESS:line:col; any answer is
exit 0.`;

export function validateWitnessCommand(program: Command, session: Session): void {
  const cmd = program
    .command('validate-witness')
    .description('read an SV-COMP witness (YAML, format 2.x) for a C file back: replay a violation witness, check a correctness witness\'s invariants inductive; Result: FALSE(unreach-call) | TRUE | UNKNOWN last')
    .argument('<file>', 'the C file the witness is about')
    .requiredOption('--witness <W.yml>', 'the witness')
    .addOption(new Option(solverOption.flags, solverOption.description).argParser(cliParser(solverOption.parse!)).default(solverOption.default))
    .option('--timeout <S>', 'time limit in seconds of each solver query', parseSeconds, 60)
    .addHelpText('after', AFTER);
  addCommon(cmd).action(async (file: string, o: ValidateCli) => {
    session.code = EXIT.ok;
    let text: string;
    try {
      text = readFileSync(o.witness, 'utf8');
    } catch (e) {
      throw new InputError({ file: o.witness, line: 1, col: 1 }, `cannot read the witness (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    const w = readWitness(o.witness, text, file);
    // The data model the witness states, unless the command line names one.
    const dataModel: DataModel = cmd.getOptionValueSource('dataModel') === 'cli' ? o.dataModel : (w.dataModel ?? o.dataModel);
    const load = (maxInstances?: number): ReadableProgram => loadReadableProgram(file, { ...frontendOptions(o), dataModel, maxInstances });
    let rp: ReadableProgram | undefined;
    try {
      rp = load();
    } catch (e) {
      if (!(e instanceof UnboundedThreads)) throw e;
      if (w.kind !== 'violation') {
        session.io.out(`not checked: ${e.detail} (a correctness witness is checked for programs whose threads are created with constant bounds)\nResult: UNKNOWN\n`);
        return;
      }
    }
    const solver = createSolver(o.solver, { timeoutMs: o.timeout * 1000 });
    try {
      if (w.kind === 'violation') session.io.out(await validateViolation(rp ? followViolation(rp, w.segments, solver) : followCutLoops(load, w.segments, solver), w.segments.length));
      else session.io.out(await validateCorrectness(rp!, w.invariants, w.ghosts, solver));
    } finally {
      await solver.close();
    }
  });
}

async function validateViolation(following: Promise<Followed & { readonly instances?: number }>, waypoints: number): Promise<string> {
  const r = await following;
  if ('reason' in r) return `not confirmed: ${r.reason}\nResult: UNKNOWN\n`;
  const cut = r.instances === undefined ? '' : ` in the program with each thread-creating loop without a bound cut after ${r.instances} iteration${r.instances === 1 ? '' : 's'} (each of its runs is one of the program)`;
  return `confirmed: a run that passes the ${waypoints} waypoints in order reaches the error${cut}, replayed in the interpreter:\n${traceText(r.trace)}\nResult: FALSE(unreach-call)\n`;
}

async function validateCorrectness(rp: ReadableProgram, invariants: readonly ReadInvariant[], ghosts: ReadGhosts, solver: SmtSolver): Promise<string> {
  const g = withGhosts(rp, ghosts);
  if ('reason' in g) return `not checked: ${g.reason}\nResult: UNKNOWN\n`;
  const links = await ghostLinks(g.program, g.names, solver);
  const c = await checkInvariants({ ...rp, program: g.program }, invariants, solver, { names: g.names, background: and(...links.map((l) => l.formula)), copies: g.copies });
  const ghostLines = [...g.notes, ...links.map((l) => `ghost ${l.ghost}: always equals ${l.describes} (inductive)`)];
  const lines = c.invariants.map(({ invariant: inv, result: r }) => {
    const where = `invariant at line ${inv.location.line}${inv.location.column ? `:${inv.location.column}` : ''}`;
    if (r.status === 'inductive') return `${where}: inductive`;
    if (r.status === 'not checked') return `${where}: not checked: ${r.reason}`;
    return `${where}: not inductive: ${r.obligation} fails${r.round > 1 ? ` (once the invariants that failed before are dropped)` : ''}`;
  });
  const inductive = c.invariants.filter((x) => x.result.status === 'inductive').length;
  const verdict = c.errorReachable
    ? `not confirmed: the ${inductive} inductive invariant${inductive === 1 ? '' : 's'} do not rule out ${c.errorReachable}\nResult: UNKNOWN`
    : `confirmed: the ${inductive} inductive invariant${inductive === 1 ? '' : 's'} rule out every step into an error location\nResult: TRUE`;
  return [...ghostLines, ...lines, verdict].join('\n') + '\n';
}

/**
 * Violation witnesses: an error trace as waypoints, and a witness followed back into a
 * run that the interpreter replays.
 *
 * One segment per step of the trace, its waypoint passed by the thread that takes the
 * step (`thread_id`: rely's thread index — main is 0, then the threads in the order
 * the lowering creates them, each pthread_create of the program text once per
 * iteration of an unrolled loop — so the numbering is stable for a program). The
 * waypoint stands where the thread is after the step: the statement it executes next
 * (locations.ts), or, after its last step, where that step started. It is an
 * `assumption` whose constraint is "1", or, for a step that chose a nondeterministic
 * value, the values of the C variables the step wrote (`x == 5`) that are in C scope
 * at the waypoint, evaluated right after the step. The last segment's `target` is the
 * error's own statement (the `reach_error()` call or the failing assert) in the last
 * step.
 *
 * A program that creates threads in a loop without a bound is followed in its version
 * that cuts each such loop after K iterations (LowerOptions.maxInstances), for each K
 * that has the threads the witness names (cli/witness.ts): every run of that version
 * is a run of the program (a run that would iterate once more blocks there), so a
 * replayed run to the error there is one of the program.
 */
import type { Term } from '../solver/formula.js';
import { rename } from '../solver/formula.js';
import type { SmtSolver } from '../solver/smt.js';
import { InputError, showPos, type SourcePos } from '../program/diagnostics.js';
import type { ReadableProgram } from '../frontend/index.js';
import type { Program, Transition } from '../program/program.js';
import { at, concretePath, stepFormula } from '../core/path.js';
import type { TraceStep } from '../core/trace.js';
import type { ReadWaypoint, Waypoint } from './format.js';
import { cLiteral, firstPos, functionAt, lastPos, positionOf, readInScope, samePos, scopeAt } from './locations.js';

/** Where a thread stands after transition t, as the waypoint of its step names it. */
function afterPos(p: Program, t: Transition): SourcePos {
  return positionOf(p, t.thread, t.to) ?? firstPos(t);
}

const transitionsById = (p: Program): Map<number, Transition> => new Map(p.threads.flatMap((th) => th.transitions.map((t) => [t.id, t] as const)));

/** The waypoints of an error trace of `p` (`rp`: the same program read back as a witness reader does). */
export function violationWaypoints(p: Program, rp: ReadableProgram, trace: readonly TraceStep[], fileName: string): Waypoint[] {
  const byId = transitionsById(p);
  return trace.map((step, m) => {
    const t = byId.get(step.transition)!;
    const last = m === trace.length - 1;
    const pos = last ? lastPos(t) : afterPos(p, t);
    const fn = functionAt(rp.functions, pos);
    const location = { file_name: fileName, line: pos.line, column: pos.col, function: fn };
    if (last) return { type: 'target', action: 'follow', location, thread_id: t.thread };
    return { type: 'assumption', action: 'follow', location, constraint: { value: chosenValues(p, rp, t, step, fn, pos), format: 'c_expression' }, thread_id: t.thread };
  });
}

/**
 * `x == v && …` for the C variables in scope at the waypoint (`pos` in `fn`) that a step
 * with a nondet choice wrote; "1" otherwise. Each one is read back as followViolation
 * reads it (a value that does not read there is left out: the constraint only narrows
 * the run, the path to the error is the witness's steps).
 */
function chosenValues(p: Program, rp: ReadableProgram, t: Transition, step: TraceStep, fn: string, pos: SourcePos): string {
  if (!t.steps.some((s) => /__VERIFIER_nondet_\w+\(\)/.test(s.text))) return '1';
  const visible = new Map([...scopeAt(p, t.thread, fn, rp.localsInScope(fn, pos)).names].map(([c, v]) => [v, c]));
  const written = new Set(t.writes);
  // An array (an object of run-time size) has no C literal: its value is left out.
  const parts = step.values.flatMap(([v, x]) => (typeof x === 'bigint' && written.has(v) && visible.has(v) ? [`${visible.get(v)} == ${cLiteral(x)}`] : []));
  const readable = parts.filter((c) => readsBack(rp, t.thread, fn, c, pos));
  return readable.length ? readable.join(' && ') : '1';
}

/** Whether followViolation reads constraint `text` of thread `thread` at `pos` in `fn`. */
function readsBack(rp: ReadableProgram, thread: number, fn: string, text: string, pos: SourcePos): boolean {
  if (thread >= rp.program.threads.length) return false;
  try {
    readInScope(rp, thread, fn, text, pos, pos, { cScope: true });
    return true;
  } catch (e) {
    if (e instanceof InputError) return false;
    throw e;
  }
}

/** What following a witness gave: a replayed trace, or why it does not confirm. */
export type Followed = { readonly trace: TraceStep[] } | { readonly reason: string };

/** At most this many whole paths are asked for a run (where a waypoint admits several steps, infeasible prefixes are cut first). */
const MAX_PATHS = 256;

/**
 * Follows a violation witness in `rp`'s program: segment by segment, the waypoint's
 * thread takes a step from where it is that ends at the waypoint's location (and, for
 * the last, `target`, one into its error location at that statement); the constraints
 * hold right after their steps (searchRun). A model of such a path with its
 * constraints is a run, which the interpreter replays (core/replay.ts) before it counts.
 */
export async function followViolation(rp: ReadableProgram, segments: readonly (readonly ReadWaypoint[])[], solver: SmtSolver): Promise<Followed> {
  const p = rp.program;
  const waypoints: ReadWaypoint[] = [];
  for (const seg of segments) {
    const avoid = seg.find((w) => w.action !== 'follow');
    if (avoid) return { reason: `${showPos(avoid.at)}: '${avoid.action}' waypoints are not followed (rely follows one 'follow' waypoint per segment)` };
    if (seg.length !== 1) return { reason: `${showPos(seg[0].at)}: a segment of ${seg.length} waypoints (rely follows one per segment)` };
    waypoints.push(seg[0]);
  }
  const lastW = waypoints.at(-1);
  if (!lastW || lastW.type !== 'target') return { reason: 'the witness does not end in a target waypoint' };
  const odd = waypoints.find((w, k) => (k < waypoints.length - 1 ? w.type !== 'assumption' : false));
  if (odd) return { reason: `${showPos(odd.at)}: '${odd.type}' waypoints are not followed (rely follows assumption and target waypoints)` };
  const missing = waypoints.find((w) => w.threadId === undefined || w.threadId >= p.threads.length);
  if (missing) return { reason: `${showPos(missing.at)}: ${missing.threadId === undefined ? 'no thread_id' : `no thread ${missing.threadId}`} (format 2.2 waypoints name their thread)` };

  const constraints: (Term | undefined)[] = [];
  for (const [m, w] of waypoints.entries()) {
    if (!w.constraint) continue;
    const where = { file: p.file, line: w.location.line, col: w.location.column ?? 1 };
    const c = constraintAt(rp, w.threadId!, functionAt(rp.functions, where), w.constraint.text, w.constraint.at, where);
    if (typeof c === 'string') return { reason: c };
    constraints[m] = rename(c, (v) => at(v, m + 1));
  }
  return searchRun(p, waypoints, constraints, solver);
}

/**
 * Follows a violation witness in a program that creates threads in a loop without a
 * bound: in `load(K)`, the program with each such loop cut after K iterations, for K =
 * 1, 2, … up to the largest thread_id the witness names (the threads of a cut loop are
 * numbered in creation order, so a smaller K lacks them; a thread created after the
 * loop is numbered after its K copies, so the K the writer used is among these). Each
 * cut program's runs are runs of the program (a run that would iterate once more blocks
 * at the cut), so a run replayed in one reaches the error in the program too.
 */
export async function followCutLoops(load: (maxInstances: number) => ReadableProgram, segments: readonly (readonly ReadWaypoint[])[], solver: SmtSolver): Promise<Followed & { readonly instances?: number }> {
  const named = Math.max(1, ...segments.flat().map((w) => w.threadId ?? 0));
  const reasons: string[] = [];
  for (let k = 1; k <= named; k++) {
    let rp: ReadableProgram;
    try {
      rp = load(k);
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      return { reason: `the program with each thread-creating loop cut after ${k} iteration${k === 1 ? '' : 's'}: ${e.message}` };
    }
    if (rp.program.threads.length <= named) continue;
    const r = await followViolation(rp, segments, solver);
    if ('trace' in r) return { ...r, instances: k };
    reasons.push(`${k}: ${r.reason}`);
  }
  const tried = reasons.length ? `; with K iterations, ${reasons.join('; ')}` : '';
  return { reason: `followed in the program with each thread-creating loop without a bound cut after K = 1…${named} iterations, none confirms${tried}` };
}

/** A waypoint's constraint (`text`, standing at `at`) as a formula over V in its thread's C scope at `where`, or why rely cannot read it. */
function constraintAt(rp: ReadableProgram, thread: number, fn: string, text: string, at: SourcePos, where: SourcePos): Term | string {
  try {
    return readInScope(rp, thread, fn, text, at, where, { cScope: true });
  } catch (e) {
    if (e instanceof InputError && e.kind === 'unsupported') return e.message;
    throw e;
  }
}

/**
 * A run along transitions that pass the waypoints in order and satisfy their
 * constraints (`constraints[m]`, over the state after step m+1), or why there is none.
 * Where a waypoint admits several steps (a `!=` split, a pointer's cells), a prefix
 * whose formula is unsatisfiable is cut before going deeper; at most MAX_PATHS whole
 * paths are asked for a run.
 */
async function searchRun(p: Program, waypoints: readonly ReadWaypoint[], constraints: readonly (Term | undefined)[], solver: SmtSolver): Promise<Followed> {
  const all = constraints.filter((c): c is Term => c !== undefined);
  let whole = 0;
  let cut = 0;
  let stuck: string | undefined;
  let undecided: string | undefined;
  const walk = async (k: number, pcs: number[], path: Transition[], prefix: Term[]): Promise<TraceStep[] | undefined> => {
    if (k === waypoints.length) {
      whole++;
      const r = await concretePath(p, path, solver, all);
      if (r !== null && 'unknown' in r) undecided = r.unknown;
      return r === null || 'unknown' in r ? undefined : r;
    }
    const w = waypoints[k];
    const th = p.threads[w.threadId!];
    const final = k === waypoints.length - 1;
    const steps = th.transitions.filter(
      (t) => t.from === pcs[th.index] && (final ? t.to === th.errorPc && samePos(lastPos(t), w.location) : t.to !== th.errorPc && samePos(afterPos(p, t), w.location)),
    );
    if (steps.length === 0)
      stuck ??= `${showPos(w.at)}: segment ${k + 1}: thread ${th.index} (${th.name}) has no step from where it is to ${final ? 'its error at ' : ''}line ${w.location.line}${w.location.column ? `:${w.location.column}` : ''}`;
    for (const t of steps) {
      if (whole >= MAX_PATHS) return undefined;
      const next = [...prefix, stepFormula(p, t, k), ...(constraints[k] ? [constraints[k]] : [])];
      if (steps.length > 1 && (await solver.check(next)).status === 'unsat') {
        cut++;
        continue;
      }
      const run = await walk(k + 1, pcs.map((pc, i) => (i === th.index ? t.to : pc)), [...path, t], next);
      if (run) return run;
    }
    return undefined;
  };
  const trace = await walk(0, p.threads.map((th) => th.entryPc), [], [rename(p.init, (v) => at(v, 0))]);
  if (trace) return { trace };
  if (undecided) return { reason: `the solver could not decide a path (${undecided})` };
  if (whole === 0 && cut === 0) return { reason: stuck ?? 'no path passes the waypoints' };
  const infeasible = `${cut} prefix${cut === 1 ? '' : 'es'} of such paths no values satisfy`;
  if (whole === 0) return { reason: `no run follows the waypoints to the error (every path of the program's transitions that passes them is infeasible: ${infeasible})` };
  return { reason: `no run follows the waypoints to the error (${whole} path${whole === 1 ? '' : 's'} of the program's transitions pass them, none with values that satisfy the constraints${cut ? `; ${infeasible}` : ''})` };
}

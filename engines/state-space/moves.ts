/**
 * What a thread can do in a state, for linear-time properties. Runs are
 * infinite: a thread with no transition enabled that has not ended — blocked at an
 * await — takes a self-loop step instead, as the paper's deadlock-freedom assumption
 * (Cohen–Namjoshi §3.2: "deadlock" is a state whose only transition is a self-loop)
 * makes every process's transition relation total. A thread that has ended (or was
 * never started) is idle: it takes no step, and once every thread is idle the program
 * has terminated and its last state repeats (a step of no thread, -1).
 */
import type { Program, Thread, Transition } from '../../program/program.js';
import { Layout, compileSteps, fire, type Step } from './steps.js';

/** One real step of a thread: the transition, the successor and its auxiliary values. */
export interface RealMove {
  readonly t: Transition;
  readonly next: bigint[];
  readonly aux: bigint[];
}

/** The flag abort() and exit() set (frontend/lower/translation-unit.ts haltFlag): every transition needs it 0. */
const HALTED = '__halted';

/** A thread's moves over states laid out by `layout` (all variables, or the globals and the thread's own locals). */
export class ThreadMoves {
  private readonly steps: Map<number, Step[]>;
  private readonly pcSlot: number;
  private readonly startedSlot?: number;
  private readonly haltSlot?: number;
  private readonly endPcs: ReadonlySet<number>;
  /** Some choice was enumerated over the clipped nondet range: a search's "no counterexample" holds only for that range. */
  clipped = false;

  constructor(
    p: Program,
    readonly thread: Thread,
    layout: Layout,
    range: readonly [bigint, bigint],
  ) {
    if (thread.transitions.some((t) => t.stack)) throw new Error('internal: liveness reads programs with calls inlined');
    this.steps = compileSteps(p, thread, layout, range);
    this.pcSlot = layout.index.get(thread.pc)!;
    this.startedSlot = thread.startedAtInit ? undefined : layout.index.get(`__started.${thread.name}`);
    this.haltSlot = layout.index.get(HALTED);
    this.endPcs = new Set(thread.locations.filter((l) => l.kind !== 'entry' && l.kind !== 'block').map((l) => l.pc));
  }

  /** Every real step of the thread from `vals`. */
  real(vals: readonly bigint[]): RealMove[] {
    const out: RealMove[] = [];
    for (const s of this.steps.get(Number(vals[this.pcSlot])) ?? []) this.clipped = fire(s, vals, (next, aux) => out.push({ t: s.t, next, aux })) || this.clipped;
    return out;
  }

  /** The thread has ended (exit, error or halt location, or the program halted) or was never started: it waits for nothing. */
  idle(vals: readonly bigint[]): boolean {
    if (this.haltSlot !== undefined && vals[this.haltSlot] !== 0n) return true;
    if (this.endPcs.has(Number(vals[this.pcSlot]))) return true;
    return this.startedSlot !== undefined && vals[this.startedSlot] === 0n && Number(vals[this.pcSlot]) === this.thread.entryPc;
  }
}

/** Every thread's moves over the program's whole state (all variables, in `layout`'s order). */
export function globalMoves(p: Program, range: readonly [bigint, bigint]): { layout: Layout; threads: ThreadMoves[] } {
  const layout = new Layout([...p.vars.keys()]);
  return { layout, threads: p.threads.map((th) => new ThreadMoves(p, th, layout, range)) };
}

/** A state where no thread can move though some thread has not ended: it waits forever. */
export function deadlocked(threads: readonly ThreadMoves[], vals: readonly bigint[]): boolean {
  return threads.some((m) => !m.idle(vals)) && threads.every((m) => m.real(vals).length === 0);
}

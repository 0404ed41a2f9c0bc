/**
 * The transition-system IR every engine reads (paper §3): global variables V_G,
 * per-thread locals V_i (each thread has a program counter), φ_init, φ_err, and per
 * thread a finite set of transitions, each a conjunction of atoms over V and V'.
 */
import { and, eq, isArrayName, mkVar, num, or, primed, reintern, varsOf, type Term } from '../solver/formula.js';
import type { SourcePos, Warning } from './diagnostics.js';

export interface VarInfo {
  readonly name: string;
  /** Thread index owning the variable, or null for a global. */
  readonly owner: number | null;
  /** user: declared in C; pc: program counter; ghost: thread start/join/halt flags; temp: compiler temporary. */
  readonly role: 'user' | 'pc' | 'ghost' | 'temp';
  /** C unsigned type: the value is non-negative. */
  readonly unsigned: boolean;
  /** C _Bool: the value is 0 or 1. */
  readonly bool: boolean;
  /** A pthread mutex: 0 when free, else its owner's thread index + 1 (only ever tested against 0). */
  readonly mutex?: boolean;
  /** The range C's conversions keep it in (unsigned types, `char`, `short`); none for `int`, whose arithmetic is mathematical. */
  readonly range?: readonly [bigint, bigint];
  /** The name in the C source (differs from `name` for locals). */
  readonly cname: string;
  /** Read by a property beside the program (LowerOptions.observe, an LTL atom): its every value counts, wherever the program stands. */
  readonly observed?: boolean;
  readonly pos?: SourcePos;
}

/** One statement folded into a transition, for traces. */
export interface Step {
  readonly pos: SourcePos;
  readonly text: string;
}

export interface Transition {
  readonly id: number;
  readonly thread: number;
  readonly from: number;
  readonly to: number;
  /**
   * Conjunction over V_G ∪ V_i and their primed copies. A variable of the thread's
   * scope whose primed copy it does not mention is unconstrained (a nondet value);
   * unchanged ones carry an explicit frame atom x' = x. Other threads' locals are
   * unchanged (ρ_j^=, made explicit by fullFormula).
   */
  readonly formula: Term;
  readonly atoms: readonly Term[];
  /** Existentially quantified helper variables (nondet values that no variable keeps). */
  readonly aux: readonly string[];
  /** Variables whose primed copy is not simply framed (x' = x). */
  readonly writes: readonly string[];
  readonly pos: SourcePos;
  readonly steps: readonly Step[];
  /** A path through an atomic section. */
  readonly atomic: boolean;
  /** Only linear arithmetic (SOLVELINEARHC needs this). */
  readonly linear: boolean;
  /**
   * Only with kept calls (`calls: 'keep'`; the explicit engines): a push (T⁺ of
   * Flanagan–Qadeer §3) saves the thread's locals with pc = `returnPc` as a frame and
   * enters the callee (`to`, by `formula`); a pop (T⁻) runs at a callee's return
   * location (`formula` is its guard, `to` is meaningless) and restores the frame on
   * top of the stack, except the callee's result variables `keep`.
   */
  readonly stack?: { readonly kind: 'push'; readonly returnPc: number } | { readonly kind: 'pop'; readonly keep: readonly string[] };
}

export interface Location {
  readonly pc: number;
  readonly kind: 'entry' | 'block' | 'exit' | 'error' | 'halt';
  readonly pos?: SourcePos;
}

export interface Thread {
  readonly index: number;
  readonly name: string;
  /** C function the thread runs. */
  readonly fn: string;
  readonly pc: string;
  /** The thread's locals, its pc first (the explicit engines' stack frames rely on it). */
  readonly locals: readonly string[];
  readonly locations: readonly Location[];
  readonly entryPc: number;
  readonly errorPc?: number;
  /** False for a thread that waits for its pthread_create (ghost flag `__started.<name>`). */
  readonly startedAtInit: boolean;
  /**
   * A template (LowerOptions.templates): any number of copies of this thread run, with
   * their own locals, each started once the flag is set. Engines that do not read
   * templates must not take such a program (hasTemplates).
   */
  readonly replicated?: boolean;
  /** With LowerOptions.keepLabels: the location of each C label of the thread function that is one (a label inside an atomic section is not). */
  readonly labels?: ReadonlyMap<string, number>;
  readonly transitions: readonly Transition[];
}

/** Whether the program has objects of a size known only at run time: array variables (formula.ts isArrayName), which engines keeping integer states cannot hold. */
export const hasArrays = (p: Program): boolean => p.globals.some(isArrayName);

/** Whether some thread is a template (Thread.replicated): only engines that read templates may take the program. */
export const hasTemplates = (p: Program): boolean => p.threads.some((t) => t.replicated);

/** For an engine that takes each thread as one instance: a template program given to it is a caller's bug, never a verdict. */
export function singleInstances(p: Program, engine: string): void {
  if (hasTemplates(p)) throw new Error(`internal: the ${engine} engine does not read template threads (${p.threads.filter((t) => t.replicated).map((t) => t.name).join(', ')})`);
}

export interface Program {
  readonly file: string;
  readonly vars: ReadonlyMap<string, VarInfo>;
  readonly globals: readonly string[];
  readonly threads: readonly Thread[];
  readonly init: Term;
  /** Some thread is at its error location: ⋁_i pc_i = err_i. */
  readonly err: Term;
  readonly warnings: readonly Warning[];
  /**
   * Set when loops that create threads without constant bounds were cut at this many
   * iterations (LowerOptions.maxInstances): the program has only some of the
   * original's runs, so an error it reaches is real but its safety proves nothing.
   */
  readonly instanceBound?: number;
}

/** A program that crossed a worker boundary, its terms made this thread's again (formula.ts `reintern`). */
export function reinternProgram(p: Program): Program {
  const seen = new Map<Term, Term>();
  const own = (t: Term): Term => reintern(t, seen);
  const threads = p.threads.map((th) => ({ ...th, transitions: th.transitions.map((t) => ({ ...t, formula: own(t.formula), atoms: t.atoms.map(own) })) }));
  return { ...p, threads, init: own(p.init), err: own(p.err) };
}

/** fullFormula's terms per program and transition id: the engines ask for them every round. */
const full = new WeakMap<Program, Map<number, Term>>();

/** The transition with the frame of every other thread's locals made explicit (ρ_j^=). */
export function fullFormula(p: Program, t: Transition): Term {
  let byId = full.get(p);
  if (!byId) full.set(p, (byId = new Map()));
  let f = byId.get(t.id);
  if (!f) {
    const frames: Term[] = [];
    for (const th of p.threads) {
      if (th.index === t.thread) continue;
      for (const v of th.locals) frames.push(unchanged(v));
    }
    byId.set(t.id, (f = and(t.formula, ...frames)));
  }
  return f;
}

/** `v' = v` */
const unchanged = (v: string): Term => eq(mkVar(primed(v)), mkVar(v));

/** ρ_i^=: thread i's locals (its pc included) unchanged. */
export function ownFrame(p: Program, i: number): Term {
  return and(...p.threads[i].locals.map(unchanged));
}

/** φ_err from the threads' error locations. */
export function errorFormula(threads: readonly Thread[]): Term {
  return or(...threads.filter((t) => t.errorPc !== undefined).map((t) => eq(mkVar(t.pc), num(t.errorPc!))));
}

/** A frame atom `x' = x`. */
export function isFrameAtom(a: Term): boolean {
  let is = frameAtoms.get(a);
  if (is === undefined) {
    const vs = [...varsOf(a)];
    frameAtoms.set(a, (is = vs.length === 2 && vs.some((v) => a === unchanged(v))));
  }
  return is;
}
/** isFrameAtom's answers: every pass over the transitions asks it of the same interned atoms. */
const frameAtoms = new WeakMap<Term, boolean>();

/** The atoms of a transition other than its frame atoms: what it tests and changes. */
export function effectAtoms(t: Transition): Term[] {
  return t.atoms.filter((a) => !isFrameAtom(a));
}

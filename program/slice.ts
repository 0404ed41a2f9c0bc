/**
 * Cone of influence. A variable is relevant when it can decide whether some error
 * location is reached: it occurs in a guard (an atom over current values) of a
 * relevant thread, or it feeds the update of a relevant variable, or it takes part in
 * a constraint that can disable a transition (a large block's branch on a value it
 * just drew: `k' >= 0 ∧ k' = 1`). A thread is
 * relevant when it has an error location or writes a relevant variable. Threads and
 * variables outside the cone cannot change the verdict; dropping them keeps their
 * noise (main's joins, the `__done` flags) out of the predicates. Engines carry the
 * proofs and counterexamples of the slice back to the whole program (the original
 * transition behind each sliced one) and check them there.
 */
import { and, conjuncts, isPrimed, linearOf, sub, unprimed, varsOf, type Term } from '../solver/formula.js';
import { boundsOf, witness } from '../solver/bounds.js';
import { errorFormula, isFrameAtom, type Program, type Thread, type Transition } from './program.js';

export interface Slice {
  readonly program: Program;
  /** Original thread index of each sliced thread. */
  readonly threads: readonly number[];
  /** The whole-program transition behind a sliced one. */
  readonly original: (t: Transition) => Transition;
}

const baseVars = (a: Term): string[] => [...varsOf(a)].map(unprimed);
const isGuard = (a: Term): boolean => ![...varsOf(a)].some(isPrimed);

/**
 * Atoms of one transition that only choose the new value of a variable x outside the
 * cone, so that dropping them adds no behaviour to the rest: either x' = e (e without
 * x') is x's only mention, or every mention of x' is a bound on x' alone (a nondet
 * value drawn in a range and branched on: `s' ≥ 0 ∧ s' ≤ 1 ∧ s' = 0`) and some value
 * satisfies them all. Anything else can disable the transition (`k' = 1 ∧ k' = 2`,
 * `2·x' = y`, x' tied to another new value) and keeps its variables.
 */
function choiceAtoms(atoms: readonly Term[]): Set<Term> {
  const byPrimed = new Map<string, Term[]>();
  for (const a of atoms) for (const v of varsOf(a)) if (isPrimed(v)) byPrimed.set(v, [...(byPrimed.get(v) ?? []), a]);
  const droppable = new Set<Term>();
  for (const [x, uses] of byPrimed) {
    if (uses.some((a) => [...varsOf(a)].some((v) => isPrimed(v) && v !== x))) continue;
    const bounds = boundsOf(uses, x);
    const alone = bounds !== null && witness(bounds) !== null;
    if (alone || (uses.length === 1 && definesOnly(uses[0], x))) for (const a of uses) droppable.add(a);
  }
  return droppable;
}

/** x' = e with x' not in e (the caller checked that x' is the atom's only primed variable). */
function definesOnly(a: Term, x: string): boolean {
  if (a.kind !== 'app' || a.op !== '=') return false;
  const [l, r] = a.args;
  if (l.kind === 'var' && l.name === x) return !varsOf(r).has(x);
  if (r.kind === 'var' && r.name === x) return !varsOf(l).has(x);
  const c = linearOf(sub(a.args[0], a.args[1]))?.coeffs.get(x);
  return c === 1n || c === -1n;
}

/** One atom of a transition as the cone reads it: its variables, and those whose new value it mentions. */
interface ConeAtom {
  readonly vars: readonly string[];
  readonly writes: readonly string[];
  /** A guard, or an atom that can disable the transition: its variables are relevant whenever its thread is. */
  readonly always: boolean;
}

function coneAtoms(t: Transition): ConeAtom[] {
  const atoms = t.atoms.filter((a) => !isFrameAtom(a));
  const choices = choiceAtoms(atoms);
  return atoms.map((a) => ({ vars: baseVars(a), writes: [...varsOf(a)].filter(isPrimed).map(unprimed), always: isGuard(a) || !choices.has(a) }));
}

/** The slice of each program (aret and monolithic slice the same program). */
const slices = new WeakMap<Program, Slice>();

/**
 * The cone of influence of `p`. `check` throws to stop (the run's deadline: program/
 * cannot see the engines' budget); it is called per transition and per thread of each
 * pass, and a slice cut short is not kept.
 */
export function coneOfInfluence(p: Program, check: () => void = () => {}): Slice {
  let s = slices.get(p);
  if (!s) slices.set(p, (s = slice(p, check)));
  return s;
}

function slice(p: Program, check: () => void): Slice {
  const relevant = new Set<string>();
  const threads = new Set<number>();
  const add = (vs: Iterable<string>): boolean => {
    let grew = false;
    for (const v of vs) if (!relevant.has(v)) (relevant.add(v), (grew = true));
    return grew;
  };
  // What the fixpoint reads of each transition, computed once: the passes repeat until nothing grows.
  const atomsOf = new Map(
    p.threads.map((th) => [
      th,
      th.transitions.map((t) => {
        check();
        return coneAtoms(t);
      }),
    ]),
  );
  const isRelevant = (v: string): boolean => relevant.has(v);
  for (let grew = true; grew; ) {
    grew = false;
    for (const th of p.threads) {
      check();
      const transitions = atomsOf.get(th)!;
      const writesRelevant = transitions.some((atoms) => atoms.some((a) => a.writes.some(isRelevant)));
      if (!threads.has(th.index) && (th.errorPc !== undefined || writesRelevant)) {
        threads.add(th.index);
        grew = true;
        add([th.pc]);
      }
      if (!threads.has(th.index)) continue;
      for (const atoms of transitions) for (const a of atoms) if (a.always || a.writes.some(isRelevant)) grew = add(a.vars) || grew;
    }
    // init and err atoms that touch a relevant variable tie their other variables to it.
    for (const a of [...conjuncts(p.init), ...conjuncts(p.err)]) if (baseVars(a).some((v) => relevant.has(v))) grew = add(baseVars(a)) || grew;
  }
  const keep = (a: Term): boolean => baseVars(a).every((v) => relevant.has(v) || !p.vars.has(v));
  const kept = p.threads.filter((th) => threads.has(th.index));
  const original = new Map<Transition, Transition>();
  const newThreads: Thread[] = kept.map((th, index) => ({
    ...th,
    index,
    locals: th.locals.filter((v) => relevant.has(v)),
    transitions: th.transitions.map((t) => {
      check();
      const atoms = t.atoms.filter(keep);
      const s: Transition = { ...t, thread: index, atoms, formula: and(...atoms), writes: t.writes.filter((v) => relevant.has(v)) };
      original.set(s, t);
      return s;
    }),
  }));
  const program: Program = {
    ...p,
    vars: new Map([...p.vars].filter(([v]) => relevant.has(v))),
    globals: p.globals.filter((v) => relevant.has(v)),
    threads: newThreads,
    init: and(...conjuncts(p.init).filter(keep)),
    err: errorFormula(newThreads),
  };
  return { program, threads: kept.map((th) => th.index), original: (t) => original.get(t) ?? t };
}

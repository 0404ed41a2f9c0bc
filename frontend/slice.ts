/**
 * Cone of influence. A variable is relevant when it can decide whether some error
 * location is reached: it occurs in a guard (an atom over current values) of a
 * relevant thread, or it feeds the update of a relevant variable. A thread is
 * relevant when it has an error location or writes a relevant variable. Threads and
 * variables outside the cone cannot change the verdict; dropping them keeps their
 * noise (main's joins, the `__done` flags) out of the predicates. Engines carry the
 * proofs and counterexamples of the slice back to the whole program (the original
 * transition behind each sliced one) and check them there.
 */
import { and, conjuncts, isPrimed, primed, unprimed, varsOf, type Term } from '../solver/formula.js';
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

export function coneOfInfluence(p: Program): Slice {
  const relevant = new Set<string>();
  const threads = new Set<number>();
  const add = (vs: Iterable<string>): boolean => {
    let grew = false;
    for (const v of vs) if (!relevant.has(v)) (relevant.add(v), (grew = true));
    return grew;
  };
  const atomsOf = (t: Transition): Term[] => t.atoms.filter((a) => !isFrameAtom(a));
  for (let grew = true; grew; ) {
    grew = false;
    for (const th of p.threads) {
      const writesRelevant = th.transitions.some((t) => atomsOf(t).some((a) => [...varsOf(a)].some((v) => isPrimed(v) && relevant.has(unprimed(v)))));
      if (!threads.has(th.index) && (th.errorPc !== undefined || writesRelevant)) {
        threads.add(th.index);
        grew = true;
        add([th.pc]);
      }
      if (!threads.has(th.index)) continue;
      for (const t of th.transitions)
        for (const a of atomsOf(t)) {
          const vs = baseVars(a);
          if (isGuard(a) || vs.some((v) => relevant.has(v) && [...varsOf(a)].includes(primed(v)))) grew = add(vs) || grew;
        }
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

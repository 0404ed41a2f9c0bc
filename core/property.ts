/**
 * A linear-time property bound to a program: the formula, each of its
 * atoms as a formula over the program's variables, and the Büchi automaton of its
 * negation (buchi.ts), which the liveness engines multiply with the program: a fair
 * run the automaton accepts is a counterexample.
 */
import type { Term } from '../solver/formula.js';
import { showLtl, toNnf, type Ltl } from './ltl.js';
import { buchiOf, satisfies, type Buchi } from './buchi.js';
import type { Fairness } from './fair-cycles.js';

export interface LtlProperty {
  /** The formula as shown back to the user. */
  readonly text: string;
  readonly formula: Ltl;
  /** Each atom's text (as the automaton's literals name it) and its meaning over the program's variables. */
  readonly atoms: ReadonlyMap<string, Term>;
  /** The automaton of ¬formula. */
  readonly negated: Buchi;
  readonly fairness: Fairness;
}

/** The atoms of `f`, in order of first appearance. */
export function atomsOf(f: Ltl, out: { text: string; col: number }[] = []): { text: string; col: number }[] {
  if (f.op === 'atom') {
    if (!out.some((a) => a.text === f.text)) out.push({ text: f.text, col: f.col });
  } else if ('arg' in f) atomsOf(f.arg, out);
  else if ('left' in f) (atomsOf(f.left, out), atomsOf(f.right, out));
  return out;
}

/** The property `f` with each atom read by `bind` (which throws, located, on an atom it cannot read). */
export function bindProperty(f: Ltl, fairness: Fairness, bind: (atom: { text: string; col: number }) => Term): LtlProperty {
  const atoms = new Map(atomsOf(f).map((a) => [a.text, bind(a)] as const));
  return { text: showLtl(f), formula: f, atoms, negated: buchiOf(toNnf(f, true)), fairness };
}

/** The automaton's moves on reading a letter: the states it may go to from `q`. */
export function automatonSteps(a: Buchi, q: number, letter: ReadonlySet<string>): number[] {
  let from = edgesFrom.get(a);
  if (!from) {
    from = [...Array(a.size)].map(() => []);
    for (const e of a.edges) from[e.from].push(e);
    edgesFrom.set(a, from);
  }
  const out: number[] = [];
  for (const e of from[q]) if (satisfies(letter, e.label) && !out.includes(e.to)) out.push(e.to);
  return out;
}
/** Each automaton's edges by source state: products ask for them at every step. */
const edgesFrom = new WeakMap<Buchi, Buchi['edges'][number][][]>();

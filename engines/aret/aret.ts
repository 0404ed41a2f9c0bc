/**
 * The ARET of a thread (§5): a tree of abstract states, each with its Parent (the
 * state and transition it came from), and the environment transitions other threads'
 * steps give it; and the predicate sets the abstraction is taken over.
 */
import type { Term } from '../../solver/formula.js';
import type { Transition } from '../../program/program.js';
import type { Cube, PredicateSet } from './abstraction.js';

export interface AbsState {
  readonly id: number;
  readonly thread: number;
  readonly pc: number;
  readonly cube: Cube;
  /** pc_i = pc ∧ the cube. */
  readonly formula: Term;
  /** Parent(S) and the transition taken (Fig. 7 lines 14, 15); none for α(φ_init). */
  readonly parent?: { readonly from: AbsState; readonly via: Transition | EnvTransition };
}

export interface EnvTransition {
  readonly kind: 'env';
  readonly id: number;
  /** ParentTId: the thread whose transition it abstracts. */
  readonly source: number;
  /** The thread it applies to. */
  readonly target: number;
  readonly cube: Cube;
  readonly formula: Term;
  /** Parent(ρ') = (S, ρ) (Fig. 7 line 23). */
  readonly parent: { readonly from: AbsState; readonly via: Transition };
}

export interface Aret {
  /** R_i: abstract states per thread. */
  readonly states: AbsState[][];
  /** E_j: environment transitions per target thread. */
  readonly env: EnvTransition[][];
}

export interface Abstraction {
  /** P_i */
  readonly state: PredicateSet[];
  /** P_i▷j, keyed by `${i}>${j}` */
  readonly transition: (i: number, j: number) => PredicateSet;
}

export const isEnv = (x: Transition | EnvTransition): x is EnvTransition => 'kind' in x && x.kind === 'env';

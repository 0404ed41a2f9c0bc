/**
 * Safety proofs in the form of the proof rule REACHENV (Fig. 5, core/reach-env-rule.ts):
 * thread reachability R_1..R_N and environment transitions E_1..E_N, taken from the
 * final ARET labels, and their re-check against CS1–CS5, each one entailment.
 */
import { and, eq, mkVar, or, prime, primed, varsOf, unprimed, type Term } from '../../solver/formula.js';
import type { SmtSolver } from '../../solver/smt.js';
import type { Program } from '../../program/program.js';
import type { Slice } from '../../program/slice.js';
import { obligationOf, type Obligation } from '../../core/certificate.js';
import { reachEnvPremises } from '../../core/reach-env-rule.js';
import type { Aret } from './aret.js';
import type { Graph } from '../../core/dot.js';
import { aretGraphs } from './graph.js';

export interface Proof {
  /** R_i and E_i: disjunctions of the final ARET labels. */
  readonly reach: readonly Term[];
  readonly env: readonly Term[];
  /** State predicates only over globals and own locals; environment ones only over globals. */
  readonly modular: boolean;
  /** The final ARET per thread, drawn (for --dot and the HTML report). */
  readonly graphs?: readonly Graph[];
}

/** R_i := ⋁R_i, E_i := ⋁E_i (Fig. 6 lines 17–18), and whether they are modular. */
export function proofOf(p: Program, aret: Aret): Proof {
  const reach = aret.states.map((ss) => or(...ss.map((s) => s.formula)));
  const env = aret.env.map((es) => or(...es.map((e) => e.formula)));
  const globals = new Set(p.globals);
  const over = (t: Term, ok: (v: string) => boolean) => [...varsOf(t)].every(ok);
  const modular = p.threads.every((th, i) => {
    const own = new Set([...globals, ...th.locals]);
    return over(reach[i], (v) => own.has(v)) && over(env[i], (v) => globals.has(unprimed(v)));
  });
  return { reach, env, modular, graphs: aretGraphs(p, aret) };
}

/**
 * A proof of the slice as a proof of the whole program: threads outside the cone get
 * R = E = true; a kept thread's E also admits steps that leave every variable its
 * R and E mention (other than its own locals) unchanged — the steps of the threads
 * outside the cone. CS1–CS5 are then re-checked on the whole program.
 */
export function liftProof(p: Program, slice: Slice, proof: Proof): Proof {
  const reach: Term[] = p.threads.map(() => and());
  const env: Term[] = p.threads.map(() => and());
  slice.threads.forEach((orig, k) => {
    const own = new Set(p.threads[orig].locals);
    const mentioned = new Set([...varsOf(proof.reach[k]), ...varsOf(proof.env[k])].map(unprimed).filter((v) => !own.has(v)));
    const stutter = and(...[...mentioned].sort().map((v) => eq(mkVar(primed(v)), mkVar(v))));
    reach[orig] = proof.reach[k];
    env[orig] = slice.program.threads.length === p.threads.length ? proof.env[k] : or(proof.env[k], stutter);
  });
  return { reach, env, modular: proof.modular, graphs: proof.graphs };
}

/** CS1–CS5 of Fig. 5 for `proof`, one obligation per thread, transition and target thread. */
export function proofObligations(p: Program, proof: Proof): Obligation[] {
  const { reach: R, env: E } = proof;
  return reachEnvPremises(p, { reach: (i) => R[i], reachPost: (i) => prime(R[i]), env: (i) => E[i] }).map(obligationOf);
}

/**
 * Re-checks every obligation with `checker` (a fresh solver, closed afterwards);
 * returns the first that fails, or undefined when the proof holds.
 */
export async function checkProof(p: Program, proof: Proof, checker: SmtSolver, checkTime?: () => void): Promise<string | undefined> {
  try {
    for (const o of proofObligations(p, proof)) {
      checkTime?.(); // a proof of many threads has many obligations: the run's deadline still holds
      const r = await checker.entails(o.premise, o.conclusion);
      // Undecided because the run's time is up or the run was stopped (a portfolio's other
      // lane decided, and the checker closed): a timeout, not a failed proof.
      if (r === 'unknown') checkTime?.();
      if (r !== true) return `${o.name} ${r === 'unknown' ? 'undecided' : 'does not hold'}`;
    }
    return undefined;
  } finally {
    await checker.close();
  }
}

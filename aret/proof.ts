/**
 * Safety proofs in the form of the proof rule REACHENV (Fig. 5): thread reachability
 * R_1..R_N and environment transitions E_1..E_N, taken from the final ARET labels,
 * and the premises CS1–CS5 they must satisfy, each one entailment.
 */
import { and, not, or, prime, varsOf, unprimed, type Term } from '../solver/formula.js';
import type { SmtSolver } from '../solver/smt.js';
import { fullFormula, type Program } from '../frontend/program.js';
import { ownFrame, type Aret } from './reach-env.js';

export interface Proof {
  /** R_i and E_i: disjunctions of the final ARET labels. */
  readonly reach: readonly Term[];
  readonly env: readonly Term[];
  /** State predicates only over globals and own locals; environment ones only over globals. */
  readonly modular: boolean;
}

/** One premise of REACHENV: `premise ⇒ conclusion` must be valid. */
export interface Obligation {
  readonly name: string;
  readonly premise: Term;
  readonly conclusion: Term;
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
  return { reach, env, modular };
}

/** CS1–CS5 of Fig. 5 for `proof`, one obligation per thread, transition and target thread. */
export function proofObligations(p: Program, proof: Proof): Obligation[] {
  const { reach: R, env: E } = proof;
  const out: Obligation[] = [];
  for (const [i, th] of p.threads.entries()) {
    out.push({ name: `CS1 (thread ${th.name})`, premise: p.init, conclusion: R[i] });
    out.push({ name: `CS3 (thread ${th.name})`, premise: and(R[i], E[i], ownFrame(p, i)), conclusion: prime(R[i]) });
    for (const t of th.transitions) {
      const rho = fullFormula(p, t);
      out.push({ name: `CS2 (transition t${t.id} of ${th.name})`, premise: and(R[i], rho), conclusion: prime(R[i]) });
      for (const [j, other] of p.threads.entries())
        if (j !== i) out.push({ name: `CS4 (t${t.id} into E of ${other.name})`, premise: and(R[i], rho), conclusion: E[j] });
    }
  }
  out.push({ name: 'CS5', premise: and(...R, p.err), conclusion: not(and()) }); // ⋀R_i ∧ φ_err ⇒ false
  return out;
}

/**
 * Re-checks every obligation with `checker` (a fresh solver, closed afterwards);
 * returns the first that fails, or undefined when the proof holds.
 */
export async function checkProof(p: Program, proof: Proof, checker: SmtSolver): Promise<string | undefined> {
  try {
    for (const o of proofObligations(p, proof)) {
      const r = await checker.entails(o.premise, o.conclusion);
      if (r !== true) return `${o.name} ${r === 'unknown' ? 'undecided' : 'does not hold'}`;
    }
    return undefined;
  } finally {
    await checker.close();
  }
}

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

/**
 * One premise of a proof rule in Horn form: the unknowns in `body` and `constraint`
 * imply `head` (absent: false). The unknowns `U` are formulas when a candidate proof
 * is checked (proofObligations) and relation atoms when the rule itself is handed to
 * a Horn solver (monolithic/encode.ts), so that the rule is written down once.
 */
export interface Premise<U> {
  readonly name: string;
  readonly body: readonly U[];
  readonly constraint: Term;
  readonly head?: U;
}

/** The unknowns of REACHENV for thread i: R_i over V, R_i' over V', E_i over V and V'. */
export interface ReachEnvUnknowns<U> {
  reach(i: number): U;
  reachPost(i: number): U;
  env(i: number): U;
}

/**
 * CS1–CS5 of Fig. 5. With `perTransition` (checks: a failure names its transition)
 * CS2 and CS4 come once per transition of thread i; without, once per thread with
 * ρ_i the disjunction of its transitions, as Fig. 5 states them — the same
 * conditions in fewer, larger premises, which Spacer solves far faster.
 */
export function reachEnvPremises<U>(p: Program, u: ReachEnvUnknowns<U>, perTransition = true): Premise<U>[] {
  const out: Premise<U>[] = [];
  for (const [i, th] of p.threads.entries()) {
    out.push({ name: `CS1 (thread ${th.name})`, body: [], constraint: p.init, head: u.reach(i) });
    out.push({ name: `CS3 (thread ${th.name})`, body: [u.reach(i), u.env(i)], constraint: ownFrame(p, i), head: u.reachPost(i) });
    const steps = perTransition
      ? th.transitions.map((t) => ({ what: `transition t${t.id} of ${th.name}`, short: `t${t.id}`, rho: fullFormula(p, t) }))
      : th.transitions.length
        ? [{ what: `thread ${th.name}`, short: th.name, rho: or(...th.transitions.map((t) => fullFormula(p, t))) }]
        : [];
    for (const { what, short, rho } of steps) {
      out.push({ name: `CS2 (${what})`, body: [u.reach(i)], constraint: rho, head: u.reachPost(i) });
      for (const [j, other] of p.threads.entries())
        if (j !== i) out.push({ name: `CS4 (${short} into E of ${other.name})`, body: [u.reach(i)], constraint: rho, head: u.env(j) });
    }
  }
  out.push({ name: 'CS5', body: p.threads.map((_, i) => u.reach(i)), constraint: p.err }); // ⋀R_i ∧ φ_err ⇒ false
  return out;
}

/** A premise over formulas as one entailment. */
export function obligationOf(pr: Premise<Term>): Obligation {
  return { name: pr.name, premise: and(...pr.body, pr.constraint), conclusion: pr.head ?? not(and()) };
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
      if (r !== true) return `${o.name} ${r === 'unknown' ? 'undecided' : 'does not hold'}`;
    }
    return undefined;
  } finally {
    await checker.close();
  }
}

/**
 * The proof rule REACHENV (Fig. 5): per thread i a reachability formula R_i over V and
 * an environment transition E_i over V, V', and the premises CS1–CS5 they must
 * satisfy. Written once as premises: the ARET engine checks its proofs against them
 * (engines/aret/proof.ts) and `rely emit-chc --encoding reachenv` hands them to a CHC solver
 * with R_i and E_i unknown (engines/monolithic/encode.ts), so the two cannot drift apart.
 */
import { or } from '../solver/formula.js';
import { fullFormula, ownFrame, type Program } from '../program/program.js';
import type { Premise } from './certificate.js';

/**
 * Names for R_i and E_i. Brackets keep them apart from program variables, whose
 * only brackets hold an array index (a number), never a thread name.
 */
export const reachName = (thread: string): string => `R[${thread}]`;
export const envName = (thread: string): string => `E[${thread}]`;

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


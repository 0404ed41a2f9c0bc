/**
 * The ARET engine's certificate: a REACHENV proof (proof.ts) as an SMT-LIB 2 script
 * that any SMT solver can check on its own, one `check-sat` per premise CS1–CS5,
 * each of which must answer unsat (written by core/certificate.ts).
 */
import { mkVar, prime, primed, type Term } from '../../solver/formula.js';
import type { Program } from '../../program/program.js';
import { obligationsSmt2 } from '../../core/certificate.js';
import { envName, reachName } from '../../core/reach-env-rule.js';
import { proofObligations, type Proof } from './proof.js';

/** `--proof`: the REACHENV proof's obligations as a script. */

export function proofSmt2(p: Program, proof: Proof): string {
  // R_i, R_i' and E_i as named Booleans, so that each obligation reads as the rule
  // states it and the (large) formulas are written once, in the definitions. The
  // obligations prime R_i by renaming its variables, which turns R[t] into R[t]'.
  const defs = new Map<string, Term>();
  const named = (name: string, body: Term): Term => {
    defs.set(name, body);
    return mkVar(name, 'bool');
  };
  const reach = p.threads.map((th, i) => {
    const r = named(reachName(th.name), proof.reach[i]);
    named(primed(reachName(th.name)), prime(proof.reach[i]));
    return r;
  });
  const env = p.threads.map((th, i) => named(envName(th.name), proof.env[i]));
  const obligations = proofObligations(p, { reach, env, modular: proof.modular });

  return obligationsSmt2(p, defs, obligations, [
    "; A safety proof by the rule REACHENV (Gupta, Popeea, Rybalchenko, POPL'11, Fig. 5):",
    '; per thread i, R[i] over-approximates the states thread i reaches (over V, primed',
    "; over V' in R[i]') and E[i] the steps of the other threads as thread i sees them",
    "; (over V and V'). Each obligation CS1-CS5 below asserts its premise and the negation",
    '; of its conclusion; the proof holds when every check-sat answers unsat.',
  ]);
}


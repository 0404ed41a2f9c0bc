/**
 * Proof certificates: a REACHENV proof (proof.ts) as an SMT-LIB 2 script that any
 * SMT solver can check on its own, one `check-sat` per premise CS1–CS5, each of
 * which must answer unsat. obligationsSmt2 writes any list of entailments that way
 * (monolithic/proof.ts uses it for an inductive invariant).
 */
import { mkVar, prime, primed, smtSymbol, toSmt, varsOf, type Term } from '../solver/formula.js';
import type { Program } from '../frontend/program.js';
import { proofObligations, type Obligation, type Proof } from './proof.js';

/**
 * Names for R_i and E_i. Brackets keep them apart from program variables, whose
 * only brackets hold an array index (a number), never a thread name.
 */
export const reachName = (thread: string): string => `R[${thread}]`;
export const envName = (thread: string): string => `E[${thread}]`;

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
    `; rely proof certificate for ${p.file}`,
    ';',
    "; A safety proof by the rule REACHENV (Gupta, Popeea, Rybalchenko, POPL'11, Fig. 5):",
    '; per thread i, R[i] over-approximates the states thread i reaches (over V, primed',
    "; over V' in R[i]') and E[i] the steps of the other threads as thread i sees them",
    "; (over V and V'). Each obligation CS1-CS5 below asserts its premise and the negation",
    '; of its conclusion; the proof holds when every check-sat answers unsat.',
  ]);
}

/**
 * A certificate script: `header` comments, every V and V' declared, the named
 * formulas `defs` as Boolean definitions (written once, used by name in the
 * obligations), and per obligation one check-sat of premise ∧ ¬conclusion, which
 * must answer unsat.
 */
export function obligationsSmt2(p: Program, defs: ReadonlyMap<string, Term>, obligations: readonly Obligation[], header: readonly string[]): string {
  // Every V and V' (as programSmt2 declares them), then whatever else the formulas
  // use: the transitions' auxiliary variables.
  const consts = new Set([...p.vars.keys()].flatMap((v) => [v, primed(v)]));
  for (const t of [...defs.values(), ...obligations.flatMap((o) => [o.premise, o.conclusion])]) varsOf(t, consts);
  for (const name of defs.keys()) consts.delete(name);

  const out = [
    ...header,
    ';',
    '; Run: z3 THIS_FILE.smt2   (every answer must be unsat)',
    '(set-logic ALL)',
    ...[...consts].map((v) => `(declare-const ${smtSymbol(v)} Int)`),
    ...[...defs].map(([name, body]) => `(define-fun ${smtSymbol(name)} () Bool ${toSmt(body)})`),
  ];
  for (const o of obligations)
    out.push(
      `(echo "${o.name.replace(/"/g, '""')}: expect unsat")`,
      '(push 1)',
      `(assert (and ${toSmt(o.premise)} (not ${toSmt(o.conclusion)})))`,
      '(check-sat)',
      '(pop 1)',
    );
  return out.join('\n') + '\n';
}

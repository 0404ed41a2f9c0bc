/**
 * Whole-program Horn-clause encodings, the baseline the compositional engine is
 * measured against (same program IR, same solver):
 *
 * - monolithic: the product program — all threads interleaved, every thread's pc a
 *   variable — with ONE unknown invariant Inv(V): init → Inv(V); Inv(V) ∧ ρ(V,V') →
 *   Inv(V') for every transition ρ of every thread (as one clause over their
 *   disjunction, see productPremises); Inv(V) ∧ err → false.
 * - reachenv: the proof rule REACHENV (Fig. 5) itself, with R_i(V) and E_i(V,V') as
 *   unknown relations, one pair per thread; the clauses are CS1–CS5 as
 *   core/reach-env-rule.ts states them, the same premises the ARET engine's proofs are
 *   checked against.
 *
 * Each transition enters as fullFormula: its own formula (which leaves a variable
 * of the thread's scope unconstrained when it does not mention the primed copy — a
 * nondet value — and frames the others explicitly) plus the frame of every other
 * thread's locals. That is the step relation the interpreter (core/replay.ts)
 * and the ARET engine execute. A primed variable the step leaves free, and every
 * aux variable, is a clause variable: universally quantified over the clause, which
 * is existential in the body — a nondet choice. Both systems are exact: they have a
 * solution iff no error location is reachable (for REACHENV by the paper's
 * Theorems 1 and 2), so `sat` means safe and `unsat` means unsafe.
 */
import { mkVar, or, primed, type Term } from '../../solver/formula.js';
import { hornToSmtLib, type Atom } from '../../solver/horn.js';
import { fullFormula, type Program } from '../../program/program.js';
import type { NamedHornSystem, Premise } from '../../core/certificate.js';
import { envName, reachEnvPremises, reachName } from '../../core/reach-env-rule.js';

export type ChcEncoding = 'monolithic' | 'reachenv';

/**
 * The invariant's relation (its parameters are V, in the order of `Program.vars`).
 * The brackets keep it apart from program variables, whose only brackets hold an
 * array index (a number).
 */
export const INV = 'Inv[V]';

/**
 * The product program's premises for an invariant `inv` over V and its primed copy
 * `invPost` over V': formulas to check a candidate, atoms to solve for one. The
 * consecution premise is one, Inv(V) ∧ ρ_T(V,V') → Inv(V') with ρ_T the disjunction
 * of every thread's transitions — the product's step relation — or, with
 * `perTransition` (checks: a failure names its transition), one per transition. The
 * two say the same, but Spacer (z3 4.8.12) solves the single clause far faster:
 * peterson.c in 1 s instead of 30 s, simple4.c in 7 s instead of over a minute.
 * `check` throws to stop (the run's deadline); it is called per transition.
 */
export function productPremises<U>(p: Program, inv: U, invPost: U, perTransition: boolean, check: () => void = () => {}): Premise<U>[] {
  const steps = p.threads.flatMap((th) =>
    th.transitions.map((t) => {
      check();
      return { t, th, formula: fullFormula(p, t) };
    }),
  );
  const consecution: Premise<U>[] = perTransition
    ? steps.map(({ t, th, formula }) => ({ name: `consecution (transition t${t.id} of ${th.name})`, body: [inv], constraint: formula, head: invPost }))
    : [{ name: 'consecution (any transition of any thread)', body: [inv], constraint: or(...steps.map(({ formula }) => formula)), head: invPost }];
  return [
    { name: 'initiation', body: [], constraint: p.init, head: inv },
    ...consecution,
    { name: 'safety', body: [inv], constraint: p.err },
  ];
}

const vars = (p: Program): string[] => [...p.vars.keys()];
const args = (names: readonly string[]): Term[] => names.map((v) => mkVar(v));

/** The monolithic encoding: one relation Inv(V); see productPremises for `perTransition`. `check` throws to stop (the run's deadline), called per transition. */
export function productSystem(p: Program, perTransition = false, check: () => void = () => {}): NamedHornSystem {
  const v = vars(p);
  return {
    relations: [{ name: INV, params: v }],
    clauses: productPremises<Atom>(p, { rel: INV, args: args(v) }, { rel: INV, args: args(v.map(primed)) }, perTransition, check),
  };
}

/** The REACHENV encoding: R_i(V) and E_i(V, V') per thread, clauses CS1–CS5 (CS2 and CS4 per thread, see reachEnvPremises). */
export function reachEnvSystem(p: Program): NamedHornSystem {
  const v = vars(p);
  const vv = [...v, ...v.map(primed)];
  const names = p.threads.map((th) => ({ r: reachName(th.name), e: envName(th.name) }));
  return {
    relations: names.flatMap(({ r, e }) => [
      { name: r, params: v },
      { name: e, params: vv },
    ]),
    clauses: reachEnvPremises<Atom>(p, {
      reach: (i) => ({ rel: names[i].r, args: args(v) }),
      reachPost: (i) => ({ rel: names[i].r, args: args(v.map(primed)) }),
      env: (i) => ({ rel: names[i].e, args: args(vv) }),
    }, false),
  };
}

/** `rely emit-chc`: an SMT-LIB 2 HORN script that any CHC solver (`z3 FILE`) answers. */
export function chcSmt2(p: Program, encoding: ChcEncoding): string {
  const sys = encoding === 'monolithic' ? productSystem(p) : reachEnvSystem(p);
  const what =
    encoding === 'monolithic'
      ? [
          '; The product program (all threads interleaved, every pc a variable) with one',
          '; unknown inductive invariant Inv[V] over all program variables V: init => Inv[V](V);',
          "; Inv[V](V) and a step of any thread => Inv[V](V') (one clause, its constraint the",
          "; disjunction of every thread's transitions); Inv[V](V) and err => false.",
        ]
      : [
          "; The proof rule REACHENV (Gupta, Popeea, Rybalchenko, POPL'11, Fig. 5) with one",
          "; unknown R[t](V) and E[t](V, V') per thread t, clauses CS1-CS5 (CS2 and CS4 with",
          "; rho_i the disjunction of thread i's transitions; CS5 has one body atom per thread).",
        ];
  return [
    `; rely constrained Horn clauses (${encoding} encoding) for ${p.file}`,
    ';',
    ...what,
    `; ${sys.relations.length} relation${sys.relations.length === 1 ? "" : "s"}, ${sys.clauses.length} clauses. Variables a step leaves unconstrained,`,
    '; and its auxiliary variables, are nondet values (universally quantified per clause).',
    ';',
    '; Run: z3 THIS_FILE   (sat: no error location is reachable; unsat: one is)',
  ].join('\n') + '\n' + hornToSmtLib(sys) + '(check-sat)\n';
}

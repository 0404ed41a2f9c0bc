/**
 * Proof obligations and their certificates. A proof rule is written down once as
 * premises in Horn form (`Premise<U>`): over relation atoms it is a Horn system for a
 * solver, over formulas a list of entailments (`obligationOf`) for a fresh solver to
 * check, or an SMT-LIB 2 script (`obligationsSmt2`) that any SMT solver runs without
 * rely, one check-sat per obligation, each of which must answer unsat.
 */
import { and, not, primed, smtSortOfName, smtSymbol, toSmt, varsOf, type Term } from '../solver/formula.js';
import type { Program } from '../program/program.js';
import { solutionObligations, type Atom, type HornSolution, type HornSystem } from '../solver/horn.js';
import type { SmtSolver } from '../solver/smt.js';
import { SolverUnknown } from './errors.js';

/**
 * One premise of a proof rule in Horn form: the unknowns in `body` and `constraint`
 * imply `head` (absent: false). The unknowns `U` are formulas when a candidate proof
 * is checked (engines/aret/proof.ts) and relation atoms when the rule itself is handed to
 * a Horn solver (engines/monolithic/encode.ts), so that the rule is written down once.
 */
export interface Premise<U> {
  readonly name: string;
  readonly body: readonly U[];
  readonly constraint: Term;
  readonly head?: U;
}

/** A Horn system whose clauses keep the names of the premises they come from. */
export interface NamedHornSystem extends HornSystem {
  readonly clauses: readonly Premise<Atom>[];
}

/**
 * Re-checks that `solution` satisfies every clause of `sys` with `checker`, a fresh
 * solver, closed afterwards: one query per clause, body ∧ constraint ∧ ¬head must be
 * unsat, each within `timeoutMs()`. The first clause that fails, or undefined; a
 * clause the solver leaves undecided throws SolverUnknown (the engines' UNKNOWN).
 */
export async function firstFailingClause(sys: NamedHornSystem, solution: HornSolution, checker: SmtSolver, timeoutMs: () => number | undefined): Promise<string | undefined> {
  try {
    for (const [k, f] of solutionObligations(sys, solution).entries()) {
      const r = await checker.check([f], { timeoutMs: timeoutMs() });
      // Undecided (the run's time ran out, the portfolio stopped the run and closed the
      // checker, or z3 gave up): UNKNOWN with the solver's reason, not a failed check
      // logged as an internal error.
      if (r.status === 'unknown') throw new SolverUnknown(r.reason);
      if (r.status !== 'unsat') return `${sys.clauses[k].name} does not hold`;
    }
    return undefined;
  } finally {
    await checker.close();
  }
}

/** One premise as an entailment: `premise ⇒ conclusion` must be valid. */
export interface Obligation {
  readonly name: string;
  readonly premise: Term;
  readonly conclusion: Term;
}

/** A premise over formulas as one entailment. */
export function obligationOf(pr: Premise<Term>): Obligation {
  return { name: pr.name, premise: and(...pr.body, pr.constraint), conclusion: pr.head ?? not(and()) };
}

/**
 * A certificate script: a title naming `p`'s file, `explanation` (comment lines: the
 * proof rule), every V and V' declared, the named formulas `defs` as Boolean
 * definitions (written once, used by name in the obligations), and per obligation one
 * check-sat of premise ∧ ¬conclusion, which must answer unsat.
 */
export function obligationsSmt2(p: Program, defs: ReadonlyMap<string, Term>, obligations: readonly Obligation[], explanation: readonly string[]): string {
  // Every V and V' (as programSmt2 declares them), then whatever else the formulas
  // use: the transitions' auxiliary variables.
  const consts = new Set([...p.vars.keys()].flatMap((v) => [v, primed(v)]));
  for (const t of [...defs.values(), ...obligations.flatMap((o) => [o.premise, o.conclusion])]) varsOf(t, consts);
  for (const name of defs.keys()) consts.delete(name);

  const out = [
    `; rely proof certificate for ${p.file}`,
    ';',
    ...explanation,
    ';',
    '; Run: z3 THIS_FILE.smt2   (every answer must be unsat)',
    '(set-logic ALL)',
    ...[...consts].map((v) => `(declare-const ${smtSymbol(v)} ${smtSortOfName(v)})`),
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

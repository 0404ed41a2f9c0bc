/**
 * The monolithic engine's safety proof: one inductive invariant of the product
 * program. A SAFE verdict needs it re-checked by a solver other than the Spacer run
 * that found it — every clause of productSystem valid under it — and `--proof`
 * writes the same checks as an SMT-LIB 2 script any SMT solver can run.
 */
import { mkVar, prime, primed, varsOf, type Term } from '../../solver/formula.js';
import type { SmtSolver } from '../../solver/smt.js';
import type { Program } from '../../program/program.js';
import { firstFailingClause, obligationOf, obligationsSmt2 } from '../../core/certificate.js';
import { INV, productPremises, productSystem } from './encode.js';

export interface InvariantProof {
  readonly kind: 'invariant';
  /** Over V (only the variables of the cone of influence, when Spacer ran on it). */
  readonly invariant: Term;
}

/**
 * Re-checks that `proof` satisfies every clause of the product program `p` (the
 * whole program) with `checker`, a fresh solver, closed afterwards: one query per
 * clause, body ∧ constraint ∧ ¬head must be unsat, each within `timeoutMs()` if
 * given. Returns the first clause that fails, or undefined when the invariant holds.
 */
export async function checkInvariant(
  p: Program,
  proof: InvariantProof,
  checker: SmtSolver,
  timeoutMs: () => number | undefined = () => undefined,
): Promise<string | undefined> {
  return firstFailingClause(productSystem(p, true), new Map([[INV, proof.invariant]]), checker, timeoutMs);
}

/** Size of an invariant, for the report: its atoms and the variables it mentions. */
export function invariantSize(proof: InvariantProof): { atoms: number; variables: number } {
  let atoms = 0;
  const seen = new Set<number>();
  const walk = (t: Term): void => {
    if (t.kind !== 'app' || seen.has(t.id)) return;
    seen.add(t.id);
    if (t.op === 'and' || t.op === 'or' || t.op === 'not' || (t.op === '=' && t.args[0].sort === 'bool')) t.args.forEach(walk);
    else atoms++;
  };
  walk(proof.invariant);
  return { atoms, variables: varsOf(proof.invariant).size };
}

/**
 * The invariant as a certificate: Inv and Inv' as named Booleans, then initiation,
 * one consecution check per transition, and safety, each of which must answer unsat.
 */
export function invariantSmt2(p: Program, proof: InvariantProof): string {
  const defs = new Map<string, Term>([
    [INV, proof.invariant],
    [primed(INV), prime(proof.invariant)],
  ]);
  const obligations = productPremises(p, mkVar(INV, 'bool'), mkVar(primed(INV), 'bool'), true).map(obligationOf);
  return obligationsSmt2(p, defs, obligations, [
    '; A safety proof by one inductive invariant Inv[V] of the product program (all threads',
    "; interleaved, every pc a variable; Inv[V] over V, Inv[V]' the same over V'). Each",
    '; obligation below asserts its premise and the negation of its conclusion (initiation:',
    "; init => Inv; consecution: Inv and a step => Inv'; safety: Inv and err => false); the invariant",
    '; holds when every check-sat answers unsat.',
  ]);
}

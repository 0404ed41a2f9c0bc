/** The thread-modular rule (core/thread-modular-rule.ts) as a Horn system, and a proof of it as a certificate. */
import { FALSE, and, conjuncts, eq, linearOf, mkVar, num, or, sub, substitute, type Term } from '../../solver/formula.js';
import type { Atom } from '../../solver/horn.js';
import type { Program } from '../../program/program.js';
import { withLockOwners } from '../../program/lock-owners.js';
import { obligationOf, obligationsSmt2, type NamedHornSystem, type Premise } from '../../core/certificate.js';
import { invariantName, invariantParams, threadModularPremises } from '../../core/thread-modular-rule.js';

/** One invariant per thread, over the globals and the thread's own locals (invariantParams), by R_i's name. */
export interface ThreadModularProof {
  readonly kind: 'thread-modular';
  /** Over the program with ghost owners of its lock flags (withLockOwners). */
  readonly lockOwners: boolean;
  readonly invariants: ReadonlyMap<string, Term>;
}

/** The program the proof is about: `p`, with the ghost owners of its lock flags if the proof uses them. */
export const provedProgram = (p: Program, proof: ThreadModularProof): Program => (proof.lockOwners ? withLockOwners(p) : p);

/** R_i(G, L_i) per thread, the premises once per transition: what a proof is checked against. `check` throws to stop (the run's deadline), called per premise. */
export function threadModularSystem(p: Program, check: () => void = () => {}): NamedHornSystem {
  return {
    relations: p.threads.map((th, i) => ({ name: invariantName(th.name), params: invariantParams(p, i) })),
    clauses: threadModularPremises<Atom>(p, (i, args) => ({ rel: invariantName(p.threads[i].name), args }), check),
  };
}

/** `--proof`: every premise, per transition, with the invariants written out, as a script any SMT solver checks. */
export function threadModularSmt2(whole: Program, proof: ThreadModularProof): string {
  const p = provedProgram(whole, proof);
  const R = (i: number, args: readonly Term[]): Term => {
    const params = invariantParams(p, i);
    return substitute(proof.invariants.get(invariantName(p.threads[i].name))!, new Map(params.map((v, k) => [v, args[k]] as const)));
  };
  return obligationsSmt2(p, new Map(), threadModularPremises(p, R).map(obligationOf), [
    '; A thread-modular proof (Owicki-Gries without auxiliary variables): per thread an',
    '; invariant over the globals and its own locals, closed under its own steps and under',
    "; every other thread's steps from that thread's invariant" + (p.threads.some((t) => t.replicated) ? ' (a template thread: also under' : '.'),
    ...(p.threads.some((t) => t.replicated) ? ["; another instance's steps, so the proof holds for any number of instances)."] : []),
    ...(proof.lockOwners ? ['; The ghost globals __owner[g] say which thread took the lock flag g (0: none), as a mutex', "; owner does; they follow g's writes exactly and nothing tests them."] : []),
    '; Each obligation asserts its premise and the negation of its conclusion; the proof',
    '; holds when every check-sat answers unsat.',
  ]);
}

/** The relation of thread `thread` at location `pc`: SPACER solves one relation per location far better than one over the pc. */
const atLocation = (rel: string, pc: number): string => `${rel}@${pc}`;

/** The value `c` that the conjunct `name = c` of `constraint` gives a variable, if one does. */
function fixedValue(constraint: Term, name: string): bigint | undefined {
  for (const a of conjuncts(constraint)) {
    if (a.kind !== 'app' || a.op !== '=') continue;
    const l = linearOf(sub(a.args[0], a.args[1]));
    const c = l?.coeffs.get(name);
    if (l && l.coeffs.size === 1 && (c === 1n || c === -1n)) return -l.constant * c;
  }
  return undefined;
}

/**
 * The same system with one relation per thread and location, over the globals and
 * the thread's locals but its pc (Spacer's preferred shape: control explicit, as
 * SeaHorn encodes programs): each clause once for every location its atoms' pcs
 * can be at — the value the constraint fixes (a transition's source and target,
 * φ_init's entry), else every location of the thread (the receiver of an
 * interference). `check` throws to stop (the run's deadline), called per clause.
 */
export function perLocationSystem(p: Program, check: () => void): NamedHornSystem {
  const sys = threadModularSystem(p, check);
  const threadOf = new Map(p.threads.map((th, i) => [invariantName(th.name), i] as const));
  const pcIndex = p.globals.length; // the pc is the thread's first local
  const clauses: Premise<Atom>[] = [];
  for (const c of sys.clauses) {
    const atoms = [...c.body, ...(c.head ? [c.head] : [])];
    // Each pc variable of the clause with the locations it can be at.
    const pcs = new Map<string, bigint[]>();
    for (const a of atoms) {
      const v = a.args[pcIndex];
      if (v.kind !== 'var' || pcs.has(v.name)) continue;
      const fixed = fixedValue(c.constraint, v.name);
      pcs.set(v.name, fixed !== undefined ? [fixed] : p.threads[threadOf.get(a.rel)!].locations.map((l) => BigInt(l.pc)));
    }
    let choices: Map<string, Term>[] = [new Map()];
    for (const [v, values] of pcs) choices = choices.flatMap((m) => values.map((k) => new Map([...m, [v, num(k)]])));
    for (const m of choices) {
      check();
      const constraint = substitute(c.constraint, m);
      if (constraint === FALSE) continue;
      const at = (a: Atom): Atom => {
        const pc = substitute(a.args[pcIndex], m);
        if (pc.kind !== 'int') throw new Error(`internal: the pc of ${a.rel} is not fixed`);
        return { rel: atLocation(a.rel, Number(pc.value)), args: a.args.filter((_, k) => k !== pcIndex).map((t) => substitute(t, m)) };
      };
      clauses.push({ name: c.name, body: c.body.map(at), constraint, ...(c.head && { head: at(c.head) }) });
    }
  }
  const relations = p.threads.flatMap((th, i) => {
    const params = invariantParams(p, i).filter((_, k) => k !== pcIndex);
    return th.locations.map((l) => ({ name: atLocation(invariantName(th.name), l.pc), params }));
  });
  return { relations, clauses };
}

/** The per-thread invariants of a per-location solution: ⋁_ℓ pc = ℓ ∧ R_i@ℓ (a location without a solution is unreachable). */
export function perThreadInvariants(p: Program, sol: ReadonlyMap<string, Term>): Map<string, Term> {
  return new Map(
    p.threads.map((th) => {
      const name = invariantName(th.name);
      return [name, or(...th.locations.map((l) => and(eq(mkVar(th.pc), num(l.pc)), sol.get(atLocation(name, l.pc)) ?? FALSE)))] as const;
    }),
  );
}

/**
 * The thread-modular proof rule — Owicki–Gries without auxiliary variables, the rule
 * whose least fixpoint Flanagan and Qadeer compute ("Thread-modular model checking",
 * SPIN 2003; the explicit-modular engine is that fixpoint over explicit states): per
 * thread i one invariant R_i over the globals G and i's own locals L_i (its pc
 * included), and the premises
 *
 *   init          φ_init ⇒ R_i(G, L_i)
 *   step          R_i(G, L_i) ∧ ρ_t(G, L_i, G', L_i') ⇒ R_i(G', L_i')          t of i
 *   interference  R_i(G, L_i) ∧ R_j(G_j, L_j) ∧ ρ_t(G_j, L_j, G_j', L_j') ⇒ R_i(G', L_i)   t of j ≠ i
 *   safety        R_i(G, L_i) ∧ pc_i = err_i ⇒ false
 *
 * A template thread (Thread.replicated) stands for any number of instances, so it
 * also interferes with itself (j = i, its maker's locals a second copy): then every
 * instance's state satisfies its template's R, which is why a solution proves the
 * program for ANY number of instances — the parameterized setting Flanagan–Qadeer
 * motivate the rule with.
 *
 * Mutex owners are names (only ever tested against 0; VarInfo.mutex): all instances
 * of a template write the same value I (its index + 1), so each thread reads them in
 * its own view, as explicit-modular's OwnerViews does: in a template's view I is
 * "this instance" and -I "another instance"; in every other thread's view an
 * instance of template T is -I_T. G_j is then the maker's view of the receiver's G,
 * mutex slot by slot (ownerView); without templates all views are G itself.
 *
 * Written once as premises (core/certificate.ts): over relation atoms they are the
 * Horn system the thread-modular engine hands to Spacer, over formulas the
 * obligations its proofs are re-checked against.
 */
import { and, eq, ite, mkVar, num, primed, rename, type Term } from '../solver/formula.js';
import type { Program } from '../program/program.js';
import type { Premise } from './certificate.js';

/** The name of R_i; brackets keep it apart from program variables (whose only brackets hold an array index). */
export const invariantName = (thread: string): string => `R[${thread}]`;

/** R_i's parameters: the globals, then thread i's locals. */
export const invariantParams = (p: Program, i: number): string[] => [...p.globals, ...p.threads[i].locals];

/** R_i applied to arguments (in invariantParams' order): an atom for a solver, a formula for a check. */
export type InvariantUnknown<U> = (i: number, args: readonly Term[]) => U;

/** The maker's copy of a name in an interference premise: its own locals when it is another instance of the receiver, its view of a mutex. */
const makerCopy = (name: string): string => `${name}@maker`;

/**
 * The receiver's value of a mutex whose value in maker m's view is `a` (OwnerViews in
 * engines/state-space/modular.ts): m's own I is another instance to everyone else (-I_m); a -I
 * of the receiver's template is the receiver itself or a third instance, as the
 * clause variable `me` chooses (the same choice before and after the step).
 */
function ownerView(a: Term, iMaker: bigint | undefined, iReceiver: bigint | undefined, me: Term): Term {
  let b = a;
  if (iReceiver !== undefined) b = ite(eq(a, num(-iReceiver)), ite(eq(me, num(1)), num(iReceiver), num(-iReceiver)), b);
  if (iMaker !== undefined) b = ite(eq(a, num(iMaker)), num(-iMaker), b);
  return b;
}

/** The premises above for program `p`, step and interference once per transition (a failed check names it). `check` throws to stop (the run's deadline), called per premise. */
export function threadModularPremises<U>(p: Program, R: InvariantUnknown<U>, check: () => void = () => {}): Premise<U>[] {
  const vars = (names: readonly string[]): Term[] => names.map((v) => mkVar(v));
  const owner = (i: number): bigint | undefined => (p.threads[i].replicated ? BigInt(i + 1) : undefined);
  const mutexes = p.globals.filter((g) => p.vars.get(g)?.mutex);
  const steps = (j: number) => p.threads[j].transitions.map((t) => ({ what: `t${t.id}`, rho: t.formula }));
  const out: Premise<U>[] = [];
  for (const [i, th] of p.threads.entries()) {
    const pre = vars(invariantParams(p, i));
    const post = vars([...p.globals.map(primed), ...th.locals.map(primed)]);
    const keepLocals = vars([...p.globals.map(primed), ...th.locals]);
    out.push({ name: `init (thread ${th.name})`, body: [], constraint: p.init, head: R(i, pre) });
    for (const s of steps(i)) {
      check();
      out.push({ name: `step (${s.what} of ${th.name})`, body: [R(i, pre)], constraint: s.rho, head: R(i, post) });
    }
    for (const [j, maker] of p.threads.entries()) {
      if (j === i && !th.replicated) continue;
      // Renamed for the maker: a second instance's locals; the mutexes when views differ.
      const views = owner(i) !== undefined || owner(j) !== undefined ? mutexes : [];
      const copied = new Set([...(j === i ? maker.locals : []), ...views].flatMap((v) => [v, primed(v)]));
      const asMaker = (name: string): string => (copied.has(name) ? makerCopy(name) : name);
      const me = mkVar(makerCopy(`me.${j}`));
      const agree = views.flatMap((m) => [m, primed(m)].map((v) => eq(mkVar(v), ownerView(mkVar(makerCopy(v)), owner(j), owner(i), me))));
      const makerPre = vars([...p.globals, ...maker.locals].map(asMaker));
      for (const s of steps(j)) {
        check();
        out.push({
          name: `interference (${s.what} of ${j === i ? 'another instance of ' : ''}${maker.name} into ${th.name})`,
          body: [R(i, pre), R(j, makerPre)],
          constraint: and(rename(s.rho, asMaker), ...agree),
          head: R(i, keepLocals),
        });
      }
    }
    if (th.errorPc !== undefined) out.push({ name: `safety (thread ${th.name})`, body: [R(i, pre)], constraint: eq(mkVar(th.pc), num(th.errorPc)) });
  }
  return out;
}

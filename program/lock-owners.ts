/**
 * Owners of lock flags: a ghost per global that the program uses as a hand-made lock
 * (`assume(m == 0); m = 1;` in an atomic function, a test-and-set, `m = 0` to release),
 * holding who took it: the thread that last changed the flag from 0 to another value,
 * while it is not 0. A pthread mutex has that owner built in (VarInfo.mutex); a flag
 * has not, and without it a thread-modular proof cannot tell "I hold the lock" from
 * "another thread holds it", so no such proof exists for a lock between instances
 * of one thread.
 *
 * The ghosts are exact (their updates follow the flag's writes) and nothing tests
 * them, so the program's runs are the same, each with the owners alongside: a proof
 * of this program is one of the original. A candidate flag is a global int that is
 * only ever assigned constants (a lock that is never released included); that the
 * program uses it as a lock is not assumed — a flag that is not one just gets a ghost
 * no proof needs.
 */
import { and, eq, ite, mkVar, num, primed, varsOf, type Term } from '../solver/formula.js';
import { fixedValue } from '../solver/bounds.js';
import type { Program, Transition, VarInfo } from './program.js';

/** The ghost owner of flag `g`. Brackets keep it apart from C names. */
const ownerName = (g: string): string => `__owner[${g}]`;

/** The constant a transition assigns to `g` (an atom `g' = c`, every atom on g' a bound on it alone), or null when it assigns something else. */
export function assigned(t: Transition, g: string): bigint | null {
  return fixedValue(t.atoms.filter((a) => varsOf(a).has(primed(g))), primed(g));
}

/** The globals used like lock flags: ints (no mutex, no ghost) written, and only with constants. */
export function lockFlags(p: Program): string[] {
  const writes = p.threads.flatMap((th) => th.transitions);
  return p.globals.filter((g) => {
    const v = p.vars.get(g)!;
    if (v.role !== 'user' || v.mutex) return false;
    const values = writes.filter((t) => t.writes.includes(g)).map((t) => assigned(t, g));
    return values.length > 0 && values.every((x) => x !== null);
  });
}

/** `p` with a ghost owner per lock flag (mutex-like: 0 free, else the taker's thread index + 1, seen through owner views as a mutex is). */
export function withLockOwners(p: Program): Program {
  const flags = lockFlags(p);
  if (!flags.length) return p;
  const vars = new Map<string, VarInfo>(p.vars);
  for (const g of flags) vars.set(ownerName(g), { name: ownerName(g), owner: null, role: 'ghost', unsigned: true, bool: false, mutex: true, cname: ownerName(g) });
  const update = (t: Transition, g: string): Term => {
    const [o, o2, x, x2] = [mkVar(ownerName(g)), mkVar(primed(ownerName(g))), mkVar(g), mkVar(primed(g))];
    if (!t.writes.includes(g)) return eq(o2, o);
    return eq(o2, ite(eq(x2, num(0)), num(0), ite(eq(x, num(0)), num(t.thread + 1), o)));
  };
  const threads = p.threads.map((th) => ({
    ...th,
    transitions: th.transitions.map((t) => {
      const atoms = [...t.atoms, ...flags.map((g) => update(t, g))];
      return { ...t, atoms, formula: and(...atoms), writes: [...t.writes, ...flags.filter((g) => t.writes.includes(g)).map(ownerName)] };
    }),
  }));
  return { ...p, vars, globals: [...p.globals, ...flags.map(ownerName)], threads, init: and(p.init, ...flags.map((g) => eq(mkVar(ownerName(g)), num(0)))) };
}

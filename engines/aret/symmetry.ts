/**
 * Threads that run the same C function need the same predicates, up to the names of
 * their locals. A refinement that teaches one instance a predicate can teach its
 * image to the others at once, instead of one round per instance as each hits the
 * same spurious error in turn. Any predicate is sound to add; this trades ARET size
 * for rounds.
 *
 * - A state predicate of P_i over the globals and i's locals goes to P_i' of every
 *   other instance i' of i's function.
 * - A transition predicate of P_i▷j describes thread i's own steps as thread j sees
 *   them, so it goes to P_i▷j' of every other instance j' of j's function: the same
 *   source, so its constants (i's id as a lock's owner, say) keep their meaning.
 *   Moving the source too carried i's constants to other threads' steps, and the ARET
 *   of Simple(8) grew twentyfold.
 */
import { isPrimed, primed, rename, unprimed, varsOf, type Term } from '../../solver/formula.js';
import type { Program } from '../../program/program.js';

/** The other threads running thread i's function, with as many locals. */
function otherInstances(p: Program, i: number): number[] {
  const t = p.threads[i];
  return p.threads.flatMap((u, k) => (k !== i && u.fn === t.fn && u.locals.length === t.locals.length ? [k] : []));
}

/**
 * `q` with thread a's locals (primed or not) renamed to thread b's, or null when `q`
 * speaks of a local of any thread other than a and `keep` (its image is not determined).
 */
function moved(p: Program, q: Term, a: number, b: number, keep?: number): Term | null {
  const position = new Map(p.threads[a].locals.map((v, k) => [v, k] as const));
  const kept = new Set([...p.globals, ...(keep === undefined ? [] : p.threads[keep].locals)]);
  if (![...varsOf(q)].every((v) => kept.has(unprimed(v)) || position.has(unprimed(v)))) return null;
  return rename(q, (v) => {
    const k = position.get(unprimed(v));
    if (k === undefined) return v;
    const w = p.threads[b].locals[k];
    return isPrimed(v) ? primed(w) : w;
  });
}

/** The images of `q` ∈ P_i in the other instances of thread i's function. */
export function stateImages(p: Program, i: number, q: Term): { thread: number; predicate: Term }[] {
  return otherInstances(p, i).flatMap((k) => {
    const predicate = moved(p, q, i, k);
    return predicate ? [{ thread: k, predicate }] : [];
  });
}

/** The images of `q` ∈ P_i▷j for the other instances of thread j's function (the source stays i). */
export function targetImages(p: Program, i: number, j: number, q: Term): { target: number; predicate: Term }[] {
  return otherInstances(p, j).flatMap((k) => {
    const predicate = k === i ? null : moved(p, q, j, k, i);
    return predicate ? [{ target: k, predicate }] : [];
  });
}

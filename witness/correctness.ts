/**
 * Correctness witnesses: location invariants written from a proof, and read back and
 * checked inductive by a fresh solver, Owicki–Gries style.
 *
 * Writing: the invariant of a place (thread, location) is what thread-modular model
 * checking found the thread can see there (engines/state-space/api.ts, an exact fixpoint that
 * over-approximates the reachable states), projected onto the C variables visible at
 * its position, as a disjunction of value tuples. Places at one position (a function
 * run by several threads) share the disjunction of their tuples. Where that fixpoint is
 * not exact, the views can be the exact reachable states (api.ts reachableViews) of the
 * program with ghosts that copy every thread's locals and say where it is
 * (pc-ghosts.ts): projected the same way, they name what the other threads hold.
 *
 * Checking: each invariant is attached to the places at its line and column
 * (locations.ts) and read in each place's thread scope. A place's assertion A(t, l)
 * is the conjunction of its invariants (true without any). The obligations of an
 * invariant I at (t, l), each one entailment for the solver:
 *   - initiation: φ_init ∧ pc_t = l ⇒ I (for t's entry location);
 *   - step tK: A(t, l₀) ∧ ρ_K ⇒ I' for each transition K of t from l₀ into l;
 *   - interference tK: A(t, l) ∧ pc_t = l ∧ A(u, l₀) ∧ ρ_K ⇒ I' for each transition K
 *     of every other thread u (from l₀), which leaves t's locals alone (A(t, l) includes
 *     I: the invariants still in play hold together, as in a proof of their conjunction).
 * An invariant with a failing obligation is dropped and the rest re-checked (the
 * obligations of the others may have leant on it) until all that remain hold: those
 * are inductive together, so each holds in every reachable state. Then safety: no
 * transition into an error location can fire under its thread's assertion.
 */
import { FALSE, TRUE, and, conjuncts, eq, isPrimed, mkVar, num, or, prime, rename, unprimed, varsOf, type Term } from '../solver/formula.js';
import type { SmtSolver } from '../solver/smt.js';
import { InputError } from '../program/diagnostics.js';
import type { ReadableProgram } from '../frontend/index.js';
import { effectAtoms, fullFormula, type Program, type Transition } from '../program/program.js';
import { liveVariables } from '../program/dead-locals.js';
import type { Obligation } from '../core/certificate.js';
import type { ThreadViews } from '../engines/state-space/api.js';
import type { LocationInvariant, ReadInvariant } from './format.js';
import { cLiteral, placesOf, positionKey, readInScope, scopeAt, type Place } from './locations.js';
import type { GhostCopy } from './ghosts.js';

type Functions = ReadableProgram['functions'];

/** Beyond this many value tuples at a position the invariant is left out (a witness is read by people and tools). */
const MAX_TUPLES = 2000;

/** Value tuples in numeric order, for a stable and readable witness. */
function byValues(a: readonly bigint[], b: readonly bigint[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

/**
 * The location invariants the views give, one per position that has visible variables:
 * the C variables there and the witness's ghosts (`ghosts`: C name → rely's variable).
 */
export function invariantsFromViews(
  p: Program,
  functions: Functions,
  views: readonly ThreadViews[],
  fileName: string,
  ghosts: ReadonlyMap<string, string> = new Map(),
  pointerText: ReadableProgram['pointerText'] = () => undefined,
): LocationInvariant[] {
  const byPos = new Map<string, { place: Place; names: Map<string, string> }[]>();
  for (const place of placesOf(p, functions)) {
    const k = positionKey(place.pos);
    if (!byPos.has(k)) byPos.set(k, []);
    // A variable dead at the place has a value the explicit engines fix (program/dead-locals.ts), not one C gives it: left out.
    const { live, tracked } = liveVariables(p, p.threads[place.thread]);
    const here = live.get(place.pc) ?? new Set<string>();
    const names = new Map([...scopeAt(p, place.thread, place.fn).names, ...ghosts].filter(([, v]) => !tracked.has(v) || here.has(v)));
    byPos.get(k)!.push({ place, names });
  }
  const out: LocationInvariant[] = [];
  for (const group of byPos.values()) {
    // The C names every place at the position can use.
    let cnames = [...group[0].names.keys()].filter((c) => group.every((g) => g.names.has(c))).sort();
    const tuples = new Map<string, bigint[]>();
    for (const { place, names } of group) {
      const v = views.find((x) => x.thread === place.thread)!;
      const slots = cnames.map((c) => v.names.indexOf(names.get(c)!));
      if (slots.some((s) => s < 0)) continue;
      for (const st of v.byPc.get(place.pc) ?? []) tuples.set(slots.map((s) => st[s]).join(','), slots.map((s) => st[s]));
    }
    const { pos, fn } = group[0].place;
    const at = { file_name: fileName, line: pos.line, column: pos.col, function: fn };
    // No view: the places are unreachable (an exact fixpoint over-approximates), which "0" says (and the reader checks).
    if (tuples.size === 0) out.push({ type: 'location_invariant', location: at, value: '0', format: 'c_expression' });
    if (tuples.size === 0 || tuples.size > MAX_TUPLES) continue;
    // A value as C: a pointer's as the address of what it points to (`&x`), or null when C has none for it.
    const text = (c: string, x: bigint): string | null => {
      const t = pointerText(group[0].names.get(c)!, x);
      return t === undefined ? cLiteral(x) : t;
    };
    const rows = [...tuples.values()].sort(byValues);
    const keep = cnames.map((c, i) => rows.every((xs) => text(c, xs[i]) !== null));
    cnames = cnames.filter((_, i) => keep[i]);
    if (cnames.length === 0) continue;
    const shown = new Set(rows.map((xs) => xs.flatMap((x, i) => (keep[i] ? [x] : [])).map((x, i) => `${cnames[i]} == ${text(cnames[i], x)}`).join(' && ')));
    const conj = [...shown];
    const value = conj.length === 1 ? conj[0] : conj.map((t) => (cnames.length > 1 ? `(${t})` : t)).join(' || ');
    out.push({ type: 'location_invariant', location: at, value, format: 'c_expression' });
  }
  return out;
}

/** The verdict on one invariant of a witness. */
export type InvariantStatus =
  | { readonly status: 'inductive' }
  | { readonly status: 'not inductive'; readonly obligation: string; readonly round: number }
  | { readonly status: 'not checked'; readonly reason: string };

export interface InvariantCheck {
  /** Per invariant of the witness, in order. */
  readonly invariants: readonly { readonly invariant: ReadInvariant; readonly result: InvariantStatus }[];
  /** The error transition whose firing the inductive invariants do not rule out, or undefined when they rule out every one. */
  readonly errorReachable?: string;
}

/** An invariant read at each of its places. */
interface Placed {
  readonly index: number;
  readonly at: readonly { readonly place: Place; readonly formula: Term }[];
}

/** Each invariant at its places, or why it is not checked. */
function place(rp: ReadableProgram, invariants: readonly ReadInvariant[], ghosts: ReadonlyMap<string, string>): (Placed | string)[] {
  const p = rp.program;
  const places = placesOf(p, rp.functions);
  return invariants.map((inv, index) => {
    const here = places.filter((pl) => pl.pos.line === inv.location.line && (inv.location.column === undefined || pl.pos.col === inv.location.column));
    if (here.length === 0) return `no location of rely's transition system at line ${inv.location.line}${inv.location.column ? `:${inv.location.column}` : ''}`;
    try {
      return { index, at: here.map((pl) => ({ place: pl, formula: readInScope(rp, pl.thread, pl.fn, inv.value.text, inv.value.at, pl.pos, { ghosts }) })) };
    } catch (e) {
      // Not C (a syntax error, an unknown name) makes the witness malformed; C that rely does not read leaves the invariant unchecked.
      if (e instanceof InputError && e.kind === 'unsupported') return e.message;
      throw e;
    }
  });
}

const atPc = (p: Program, thread: number, pc: number): Term => eq(mkVar(p.threads[thread].pc), num(pc));

/** The obligations of invariant `inv` given the assertions `A` of the invariants still in play. */
function obligationsOf(p: Program, inv: Placed, A: (thread: number, pc: number) => Term): Obligation[] {
  const out: Obligation[] = [];
  for (const { place: pl, formula: I } of inv.at) {
    const th = p.threads[pl.thread];
    if (pl.pc === th.entryPc) out.push({ name: `initiation (${th.name})`, premise: and(p.init, atPc(p, th.index, pl.pc)), conclusion: I });
    for (const t of th.transitions)
      if (t.to === pl.pc) out.push({ name: `step t${t.id} of ${th.name}`, premise: and(A(th.index, t.from), fullFormula(p, t)), conclusion: prime(I) });
    for (const u of p.threads)
      if (u.index !== th.index)
        for (const t of u.transitions)
          out.push({ name: `interference of t${t.id} (${u.name}) with ${th.name}`, premise: and(I, A(th.index, pl.pc), atPc(p, th.index, pl.pc), A(u.index, t.from), fullFormula(p, t)), conclusion: prime(I) });
  }
  return out;
}

/** The first obligation the solver does not show valid, or undefined. */
async function firstFailing(obligations: readonly Obligation[], solver: SmtSolver): Promise<string | undefined> {
  for (const o of obligations) {
    const r = await solver.entails(o.premise, o.conclusion);
    if (r !== true) return r === 'unknown' ? `${o.name} (undecided)` : o.name;
  }
  return undefined;
}

/** A witness's ghosts as the checker sees them: their C names (→ variable of the instrumented program) and what is known of them. */
export interface GhostContext {
  readonly names: ReadonlyMap<string, string>;
  /** Invariants of every state, already shown inductive (ghosts.ts ghostLinks). */
  readonly background: Term;
  /** Ghosts that copy a thread's local: where the local cannot be named, `ghost == local` is a candidate invariant, checked with the witness's. */
  readonly copies: readonly GhostCopy[];
}

/** The candidates `ghost == local` of the copies: one per place of the copy's thread where C cannot name the local. */
function copyCandidates(rp: ReadableProgram, places: readonly Place[], copies: readonly GhostCopy[]): Candidate[] {
  const p = rp.program;
  return copies.flatMap(({ ghost, local, thread }) =>
    places.filter((pl) => pl.thread === thread && ![...scopeAt(p, thread, pl.fn).names.values()].includes(local)).map((pl) => ({ place: pl, formula: eq(mkVar(ghost), mkVar(local)) })),
  );
}

/**
 * Where one position stands for several locations of a thread (the branches of a case
 * split over an array index or a pointer's targets start at one statement), the
 * witness's invariant there is the union of theirs. What the steps into such a location
 * establish about the state after them (their tests and assignments, over values they
 * leave: `top == 0`, `__ptr2 == back`) is a candidate there, checked like any invariant
 * (another thread may change what they read); one per fact for a location with one
 * step into it, their disjunction for one with several; at a thread's entry, the
 * initial values.
 */
function stepCandidates(p: Program, places: readonly Place[]): Candidate[] {
  const shared = places.filter((a) => places.some((b) => b !== a && b.thread === a.thread && b.pos.line === a.pos.line && b.pos.col === a.pos.col));
  return shared.flatMap((pl) => {
    const th = p.threads[pl.thread];
    // A thread's entry (its start shares the function's head with its end): the initial values, where no step changed them yet.
    if (pl.pc === th.entryPc) return initialFacts(p).map((formula) => ({ place: pl, formula }));
    const facts = th.transitions.filter((t) => t.to === pl.pc).map((t) => afterStep(t, th.pc));
    if (facts.length === 1) return facts[0].map((formula) => ({ place: pl, formula }));
    return facts.length > 0 && facts.every((f) => f.length > 0) ? [{ place: pl, formula: or(...facts.map((f) => and(...f))) }] : [];
  });
}

/**
 * A thread's own start and end flags (rely's `__started.T`, `__done.T`): while it is at a
 * location with a position it has not ended (its last step goes to its exit, which has
 * none), and past its entry it has started. Without them a join of another thread looks
 * able to fire while the thread still runs.
 */
function ownFlagCandidates(p: Program, places: readonly Place[]): Candidate[] {
  return places.flatMap((pl) => {
    const th = p.threads[pl.thread];
    const done = `__done.${th.name}`;
    const started = `__started.${th.name}`;
    return [
      ...(p.vars.has(done) ? [{ place: pl, formula: eq(mkVar(done), num(0)) }] : []),
      ...(p.vars.has(started) && pl.pc !== th.entryPc ? [{ place: pl, formula: eq(mkVar(started), num(1)) }] : []),
    ];
  });
}

/** The atoms of the initial condition on one variable each, not a pc (`block = 0`). */
const initialFacts = (p: Program): Term[] =>
  conjuncts(p.init).filter((a) => {
    const vs = [...varsOf(a)];
    return vs.length === 1 && p.vars.get(vs[0])?.role !== 'pc';
  });

/** The atoms of step t (not its frame, not its pc) that speak of the state after it: over values it sets, or reads and leaves; primes dropped. */
function afterStep(t: Transition, pc: string): Term[] {
  const after = (v: string): boolean => (isPrimed(v) ? unprimed(v) !== pc : v !== pc && !t.writes.includes(v) && !t.aux.includes(v));
  return effectAtoms(t)
    .filter((a) => [...varsOf(a)].every(after))
    .map((a) => rename(a, unprimed));
}

interface Candidate {
  readonly place: Place;
  readonly formula: Term;
}

/**
 * Checks a correctness witness's invariants on `rp`'s program with `solver` (a fresh
 * one): the inductive ones (the largest set whose obligations all hold) and whether
 * they rule out every step into an error location. With ghosts, `rp`'s program is the
 * one instrumented with them (ghosts.ts), and each assertion includes their background.
 */
export async function checkInvariants(rp: ReadableProgram, invariants: readonly ReadInvariant[], solver: SmtSolver, ghosts?: GhostContext): Promise<InvariantCheck> {
  const p = rp.program;
  const placed = place(rp, invariants, ghosts?.names ?? new Map());
  const results: InvariantStatus[] = placed.map((x) => (typeof x === 'string' ? { status: 'not checked', reason: x } : { status: 'inductive' }));
  const places = placesOf(p, rp.functions);
  // Invariants rely adds of its own, checked like the witness's (indices below 0: not reported).
  const candidates = [...copyCandidates(rp, places, ghosts?.copies ?? []), ...stepCandidates(p, places), ...ownFlagCandidates(p, places)].map((c, k) => ({ index: -1 - k, at: [c] }));
  let active = [...placed.filter((x): x is Placed => typeof x !== 'string'), ...candidates];
  const background = ghosts?.background ?? TRUE;
  const A = (thread: number, pc: number): Term =>
    and(background, ...active.flatMap((inv) => inv.at.filter(({ place: pl }) => pl.thread === thread && pl.pc === pc).map(({ formula }) => formula)));
  for (let round = 1; ; round++) {
    const failed = new Map<Placed, string>();
    for (const inv of active) {
      const bad = await firstFailing(obligationsOf(p, inv, A), solver);
      if (bad) failed.set(inv, bad);
    }
    if (failed.size === 0) break;
    for (const [inv, obligation] of failed) if (inv.index >= 0) results[inv.index] = { status: 'not inductive', obligation, round };
    active = active.filter((inv) => !failed.has(inv));
  }
  const errorSteps: Obligation[] = p.threads.flatMap((th) =>
    th.transitions.filter((t) => t.to === th.errorPc).map((t) => ({ name: `t${t.id} of ${th.name} into its error location`, premise: and(A(th.index, t.from), fullFormula(p, t)), conclusion: FALSE })),
  );
  return { invariants: invariants.map((invariant, k) => ({ invariant, result: results[k] })), errorReachable: await firstFailing(errorSteps, solver) };
}

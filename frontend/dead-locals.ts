/**
 * Locals that are dead where their thread starts: on every path of the thread, written
 * before they are read. C leaves an uninitialised local's value indeterminate; for
 * such a local the value never reaches a guard, another variable or the error (a pc),
 * so the runs from any two initial values take the same steps and reach the same
 * locations. The explicit engines then start it at one value instead of enumerating
 * a range of them (which would make their answer hold only for that range). The same
 * holds for a value a transition draws for a local that is dead after it.
 */
import { and, eq, isPrimed, mkVar, num, primed, unprimed, varsOf, type Term } from '../solver/formula.js';
import { boundsOf, witness } from '../solver/bounds.js';
import { effectAtoms, isFrameAtom, type Program, type Thread, type Transition } from './program.js';

/** The dead-at-entry locals of every thread. */
export function deadAtEntry(p: Program): Set<string> {
  const dead = new Set<string>();
  for (const th of p.threads) {
    const live = liveLocals(p, th);
    for (const v of th.locals) if (v !== th.pc && !live.get(th.entryPc)?.has(v)) dead.add(v);
  }
  return dead;
}

/**
 * Backward liveness over the thread's transitions: live(l) = ∪ uses(t) ∪ (live(t.to) \
 * defs(t)) for t from l. A local that another thread's transition mentions is live
 * everywhere. Kept calls: a push saves every local in a frame that its pop restores at
 * the return site, so what is live there is live before the push; a pop passes on the
 * callee's results.
 */
export function liveLocals(p: Program, th: Thread): ReadonlyMap<number, ReadonlySet<string>> {
  let c = liveness.get(p);
  if (!c) liveness.set(p, (c = { shared: readByOthers(p), live: new Map() }));
  let live = c.live.get(th.index);
  if (!live) c.live.set(th.index, (live = computeLive(th, c.shared.get(th.index) ?? new Set())));
  return live;
}

/** Per program, liveLocals' answers by thread: the explorer and the initial states both ask. */
const liveness = new WeakMap<Program, { shared: Map<number, Set<string>>; live: Map<number, Map<number, Set<string>>> }>();

/** Per thread, its locals that another thread's transitions mention. */
function readByOthers(p: Program): Map<number, Set<string>> {
  const out = new Map<number, Set<string>>();
  for (const th of p.threads)
    for (const t of th.transitions)
      for (const a of effectAtoms(t))
        for (const v of varsOf(a)) {
          const owner = p.vars.get(unprimed(v))?.owner;
          if (owner !== null && owner !== undefined && owner !== th.index) out.set(owner, (out.get(owner) ?? new Set()).add(unprimed(v)));
        }
  return out;
}

function computeLive(th: Thread, shared: ReadonlySet<string>): Map<number, Set<string>> {
  const own = new Set(th.locals);
  const flow = th.transitions.flatMap((t) => {
    const uses = new Set<string>();
    for (const a of effectAtoms(t)) for (const v of varsOf(a)) if (!isPrimed(v) && own.has(v)) uses.add(v);
    if (t.stack?.kind === 'pop') for (const v of t.stack.keep) uses.add(v);
    // Without a frame atom x' = x a local is assigned or havocked: its old value ends here.
    const kept = new Set(t.atoms.filter(isFrameAtom).flatMap((a) => [...varsOf(a)].filter((v) => !isPrimed(v))));
    const step = { from: t.from, to: t.stack?.kind === 'pop' ? undefined : t.to, uses, kept };
    if (t.stack?.kind !== 'push') return [step];
    const results = calleeResults(th, t.to);
    return [step, { from: t.from, to: t.stack.returnPc, uses, kept: new Set([...own].filter((v) => !results.has(v))) }];
  });
  const live = new Map<number, Set<string>>(th.locations.map((l) => [l.pc, new Set(shared)]));
  for (let changed = true; changed; ) {
    changed = false;
    for (const f of flow) {
      const at = live.get(f.from)!;
      const size = at.size;
      for (const v of f.uses) at.add(v);
      for (const v of f.to === undefined ? [] : (live.get(f.to) ?? [])) if (f.kept.has(v)) at.add(v);
      if (at.size !== size) changed = true;
    }
  }
  return live;
}

/** The variables the pops of the function entered at `entry` pass back (its result): the frame does not restore them. */
function calleeResults(th: Thread, entry: number): Set<string> {
  const seen = new Set([entry]);
  const results = new Set<string>();
  for (const pc of seen)
    for (const t of th.transitions) {
      if (t.from !== pc) continue;
      if (t.stack?.kind === 'pop') for (const v of t.stack.keep) results.add(v);
      else seen.add(t.stack?.kind === 'push' ? t.stack.returnPc : t.to);
    }
  return results;
}

/**
 * The transition with one value drawn for each local that is dead after it and that it
 * leaves unconstrained or bounds alone (`k' ≥ 3` on the path that aborts): every value
 * gives the same runs from there, and the one drawn satisfies the original formula (a
 * replayed step is checked against that). Null when nothing changes.
 */
export function withDeadChoicesFixed(th: Thread, t: Transition, liveAfter: ReadonlySet<string>): Term | null {
  if (t.stack?.kind === 'pop') return null; // its successor's locals come from the frame
  // Only a local the step writes (assigns or havocs: no frame atom) can be drawn.
  const own = new Set(th.locals);
  const candidates = t.writes.filter((v) => own.has(v) && v !== th.pc && !liveAfter.has(v));
  if (!candidates.length) return null;
  const atoms = [...t.atoms];
  const byPrimed = new Map<string, Term[]>();
  for (const a of atoms) for (const v of varsOf(a)) if (isPrimed(v)) byPrimed.set(v, [...(byPrimed.get(v) ?? []), a]);
  let changed = false;
  for (const v of candidates) {
    const x = primed(v);
    const uses = byPrimed.get(x) ?? [];
    // Already one value (`x' = 0`, a reset) or a value the step computes: nothing to draw.
    if (uses.length === 1 && uses[0].kind === 'app' && uses[0].op === '=') continue;
    const bounds = boundsOf(uses, x);
    const w = bounds && witness(bounds);
    if (w === null || w === undefined) continue;
    for (const a of uses) atoms.splice(atoms.indexOf(a), 1);
    atoms.push(eq(mkVar(x), num(w)));
    changed = true;
  }
  return changed ? and(...atoms) : null;
}

/**
 * Locals that are dead where their thread starts: on every path of the thread, written
 * before they are read. C leaves an uninitialised local's value indeterminate; for
 * such a local the value never reaches a guard, another variable or the error (a pc),
 * so the runs from any two initial values take the same steps and reach the same
 * locations. The explicit engines then start it at one value instead of enumerating
 * a range of them (which would make their answer hold only for that range). The same
 * holds for a value a transition draws for a local that is dead after it.
 *
 * Globals too, while the thread runs alone: when it is the only thread running at
 * init, no other thread takes a step before it starts one, so until then a global is
 * as private as a local (an uninitialised struct of main's whose address escapes is a
 * global, ../points-to.ts). From a start on, a global another thread mentions is live;
 * one a property reads (VarInfo.observed) is live everywhere.
 */
import { and, eq, isArrayName, isPrimed, mkVar, num, primed, unprimed, varsOf, type Term } from '../solver/formula.js';
import { boundsOf, witness } from '../solver/bounds.js';
import { effectAtoms, isFrameAtom, type Program, type Thread, type Transition } from './program.js';

/** The dead-at-entry locals of every thread. `check` as liveVariables takes it. */
export function deadAtEntry(p: Program, check: () => void = () => {}): Set<string> {
  const dead = new Set<string>();
  for (const th of p.threads) {
    const { live } = liveVariables(p, th, check);
    for (const v of th.locals) if (v !== th.pc && !live.get(th.entryPc)?.has(v)) dead.add(v);
  }
  return dead;
}

export interface Liveness {
  /** Per location, the live variables among `tracked`. */
  readonly live: ReadonlyMap<number, ReadonlySet<string>>;
  /** The variables the analysis follows: the thread's locals, and the globals while it runs alone. Any other variable is live everywhere. */
  readonly tracked: ReadonlySet<string>;
}

/**
 * Backward liveness over the thread's transitions: live(l) = ∪ uses(t) ∪ (live(t.to) \
 * defs(t)) for t from l. A local that another thread's transition mentions is live
 * everywhere. Kept calls: a push saves every local in a frame that its pop restores at
 * the return site, so what is live there is live before the push; a pop passes on the
 * callee's results. `check` throws to stop (the run's deadline: program/ cannot see
 * the engines' budget); it is called per transition of each pass, and an analysis cut
 * short is not kept.
 */
export function liveVariables(p: Program, th: Thread, check: () => void = () => {}): Liveness {
  let c = cache.get(p);
  if (!c) cache.set(p, (c = { shared: readByOthers(p, check), byThread: new Map() }));
  let l = c.byThread.get(th.index);
  if (!l) {
    const alone = aloneAtStart(p, th);
    const tracked = new Set([...th.locals, ...(alone?.globals ?? [])]);
    c.byThread.set(th.index, (l = { live: computeLive(th, c.shared.get(th.index) ?? new Set(), alone, check), tracked }));
  }
  return l;
}

/** Per program, liveVariables' answers by thread: the explorer and the initial states both ask. */
const cache = new WeakMap<Program, { shared: Map<number, Set<string>>; byThread: Map<number, Liveness> }>();

/** Per thread, its locals that another thread's transitions mention. */
function readByOthers(p: Program, check: () => void): Map<number, Set<string>> {
  const out = new Map<number, Set<string>>();
  for (const th of p.threads)
    for (const t of th.transitions) {
      check();
      for (const a of effectAtoms(t))
        for (const v of varsOf(a)) {
          const owner = p.vars.get(unprimed(v))?.owner;
          if (owner !== null && owner !== undefined && owner !== th.index) out.set(owner, (out.get(owner) ?? new Set()).add(unprimed(v)));
        }
    }
  return out;
}

/** What a thread that runs alone at its start (the only one running at init) may treat as its own: every scalar global until it starts a thread. */
interface Alone {
  readonly globals: ReadonlySet<string>;
  /** Per other thread's start flag (ghost `__started.<name>`, ../lower/thread.ts): the globals that thread, or one it starts, mentions: live once the flag is set. */
  readonly seenAfter: ReadonlyMap<string, ReadonlySet<string>>;
}

function aloneAtStart(p: Program, th: Thread): Alone | undefined {
  if (!th.startedAtInit || p.threads.some((o) => o !== th && o.startedAtInit)) return undefined;
  const others = p.threads.filter((o) => o !== th);
  const flagOf = new Map(others.map((o) => [`__started.${o.name}`, o.index]));
  if ([...flagOf.keys()].some((f) => !p.vars.has(f))) return undefined;
  const mentions = new Map<number, Set<string>>();
  const starts = new Map<number, Set<number>>();
  for (const o of others) {
    const seen = new Set<string>();
    const started = new Set<number>();
    for (const t of o.transitions) {
      for (const a of effectAtoms(t)) for (const v of varsOf(a)) if (p.vars.get(unprimed(v))?.owner === null) seen.add(unprimed(v));
      for (const v of t.writes) if (flagOf.has(v)) started.add(flagOf.get(v)!);
    }
    mentions.set(o.index, seen);
    starts.set(o.index, started);
  }
  const seenAfter = new Map<string, Set<string>>();
  for (const [flag, i] of flagOf) {
    const reach = new Set([i]);
    for (const j of reach) for (const k of starts.get(j) ?? []) reach.add(k);
    seenAfter.set(flag, new Set([...reach].flatMap((j) => [...mentions.get(j)!])));
  }
  return { globals: new Set(p.globals.filter((g) => !isArrayName(g) && !p.vars.get(g)?.observed)), seenAfter };
}

/** Per location of the thread, the start flags a run may have set on its way there (kept calls: what a callee sets reaches every return site). */
function flagsSet(th: Thread, flags: ReadonlySet<string>): Map<number, Set<string>> {
  const at = new Map<number, Set<string>>(th.locations.map((l) => [l.pc, new Set()]));
  const returns = th.transitions.flatMap((t) => (t.stack?.kind === 'push' ? [t.stack.returnPc] : []));
  for (let changed = true; changed; ) {
    changed = false;
    for (const t of th.transitions) {
      const out = [...at.get(t.from)!, ...t.writes.filter((v) => flags.has(v))];
      const targets = t.stack?.kind === 'pop' ? returns : t.stack?.kind === 'push' ? [t.to, t.stack.returnPc] : [t.to];
      for (const pc of targets) {
        const set = at.get(pc)!;
        const size = set.size;
        for (const f of out) set.add(f);
        if (set.size !== size) changed = true;
      }
    }
  }
  return at;
}

function computeLive(th: Thread, shared: ReadonlySet<string>, alone: Alone | undefined, check: () => void): Map<number, Set<string>> {
  const locals = new Set(th.locals);
  const own = alone ? new Set([...locals, ...alone.globals]) : locals;
  const flow = th.transitions.flatMap((t) => {
    check();
    const uses = new Set<string>();
    for (const a of effectAtoms(t)) for (const v of varsOf(a)) if (!isPrimed(v) && own.has(v)) uses.add(v);
    if (t.stack?.kind === 'pop') for (const v of t.stack.keep) uses.add(v);
    if (alone) {
      // A start lets the thread started read what it mentions; a return passes every global back to the caller (the frame restores locals only).
      for (const v of t.writes) for (const g of alone.seenAfter.get(v) ?? []) uses.add(g);
      if (t.stack?.kind === 'pop') for (const v of alone.globals) uses.add(v);
    }
    // Without a frame atom x' = x a variable is assigned or havocked: its old value ends here.
    const kept = new Set(t.atoms.filter(isFrameAtom).flatMap((a) => [...varsOf(a)].filter((v) => !isPrimed(v))));
    const step = { from: t.from, to: t.stack?.kind === 'pop' ? undefined : t.to, uses, kept };
    if (t.stack?.kind !== 'push') return [step];
    const results = calleeResults(th, t.to);
    return [step, { from: t.from, to: t.stack.returnPc, uses, kept: new Set([...locals].filter((v) => !results.has(v))) }];
  });
  const set = alone && flagsSet(th, new Set(alone.seenAfter.keys()));
  const live = new Map<number, Set<string>>(th.locations.map((l) => [l.pc, new Set([...shared, ...[...(set?.get(l.pc) ?? [])].flatMap((f) => [...alone!.seenAfter.get(f)!])])]));
  for (let changed = true; changed; ) {
    changed = false;
    for (const f of flow) {
      check();
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
 * replayed step is checked against that). Null when nothing changes. `check` as
 * liveVariables takes it.
 */
export function withDeadChoicesFixed(p: Program, th: Thread, t: Transition, check: () => void = () => {}): Term | null {
  if (t.stack?.kind === 'pop') return null; // its successor's locals come from the frame
  const { live, tracked } = liveVariables(p, th, check);
  const liveAfter = live.get(t.to) ?? new Set();
  // Only a variable the step writes (assigns or havocs: no frame atom) can be drawn.
  const candidates = t.writes.filter((v) => tracked.has(v) && v !== th.pc && !liveAfter.has(v));
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

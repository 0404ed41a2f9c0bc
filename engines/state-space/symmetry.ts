/**
 * Symmetry of identical thread instances (a function started N times with the same
 * argument), for the global explicit-state search: states that differ only by a
 * permutation of such instances are one state, which turns a product of N copies into
 * a multiset of them (Emerson–Sistla; Ip–Dill's scalarsets).
 *
 * Sound only for a group of permutations that maps the program to itself, so nothing
 * is assumed from the lowering: every transposition (r a) of a class's representative
 * r with another instance a is checked to map φ_init, φ_err and the transition set
 * onto themselves, formula by formula (terms are hash-consed, so equal conjunct sets
 * are equal sets of ids). These transpositions generate every permutation of the
 * class. A check that fails leaves the class out. Joins of the instances in a row are
 * one transition (blocks.ts), which is what makes `main` symmetric in them.
 *
 * A variable that holds a thread's identity (a mutex holds its owner's index + 1) and
 * is only ever compared with constants is permuted too: its value i + 1 becomes the
 * value of i's image. Without it, a mutex locked by each instance in turn breaks the
 * symmetry of every lock-protected counter.
 */
import { conjuncts, eq, isPrimed, mkVar, num, primed, rename, unprimed, varsOf, type Term } from '../../solver/formula.js';
import { boundOf } from '../../solver/bounds.js';
import { isFrameAtom, type Program, type Transition } from '../../program/program.js';

export interface SymmetryClass {
  /** Thread indices of the instances; the first is the representative. */
  readonly threads: readonly number[];
  /** Per instance, its variables in corresponding order: its locals (pc first), then its ghost flags. */
  readonly vars: readonly (readonly string[])[];
}

export interface Symmetry {
  readonly classes: readonly SymmetryClass[];
  /** Variables whose values are thread identities (thread index + 1; 0 for none), permuted with the threads. */
  readonly idVars: readonly string[];
  /** The transition of thread `to` that corresponds to `t` (t's own thread in the same class). */
  counterpart(t: Transition, to: number): Transition;
}

/** The ghost flags that belong to thread `name` (`__done.worker#2`), by their prefix. */
function ghostsOf(p: Program, name: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const g of p.globals)
    if (p.vars.get(g)!.role === 'ghost' && g.endsWith(`.${name}`)) out.set(g.slice(0, -name.length - 1), g);
  return out;
}

interface InstanceVars {
  /** Its locals (pc first), then its ghost flags by prefix. */
  readonly vars: readonly string[];
  /** Its locals' names without the thread's name, and its ghost flags' prefixes: what must agree across instances. */
  readonly shape: string;
}

/** The instance's variables in an order that corresponds across instances, or null when a local is not named after the thread. */
function instanceVars(p: Program, th: number): InstanceVars | null {
  const t = p.threads[th];
  if (t.locals.some((v) => !v.startsWith(`${t.name}.`))) return null;
  const ghosts = ghostsOf(p, t.name);
  const prefixes = [...ghosts.keys()].sort();
  return {
    vars: [...t.locals, ...prefixes.map((x) => ghosts.get(x)!)],
    shape: JSON.stringify([t.locals.map((v) => v.slice(t.name.length + 1)), prefixes]),
  };
}

const parts = (t: Term, op: 'and' | 'or'): readonly Term[] => (op === 'and' ? conjuncts(t) : t.kind === 'app' && t.op === 'or' ? t.args : [t]);
const setKey = (ts: readonly Term[]): string => [...new Set(ts.map((x) => x.id))].sort((a, b) => a - b).join(',');
/** A transition by what a permutation must preserve: thread, locations, stack action (with the variables a pop keeps, as `name` names them) and conjuncts. */
const transitionKey = (thread: number, t: Transition, atoms: readonly Term[], name: (v: string) => string = (v) => v): string => {
  const stack = !t.stack ? '' : t.stack.kind === 'push' ? `push ${t.stack.returnPc}` : `pop ${t.stack.keep.map(name).join(',')}`;
  return `${thread}:${t.from}>${t.to}:${stack}:${setKey(atoms)}`;
};

const varsOfAtom = new WeakMap<Term, readonly string[]>();
/** An atom's variables, kept: a transposition asks for every atom of the program. */
function atomVars(a: Term): readonly string[] {
  let vs = varsOfAtom.get(a);
  if (!vs) varsOfAtom.set(a, (vs = [...varsOf(a)]));
  return vs;
}

const indexes = new WeakMap<Transition, { atoms: ReadonlySet<Term>; byVar: ReadonlyMap<string, readonly Term[]> }>();
/** A transition's conjuncts, and by each variable (primed or not) the conjuncts that mention it. */
function atomIndex(t: Transition): { atoms: ReadonlySet<Term>; byVar: ReadonlyMap<string, readonly Term[]> } {
  let ix = indexes.get(t);
  if (!ix) {
    const atoms = conjuncts(t.formula);
    const byVar = new Map<string, Term[]>();
    for (const a of atoms) for (const v of atomVars(a)) byVar.set(v, [...(byVar.get(v) ?? []), a]);
    indexes.set(t, (ix = { atoms: new Set(atoms), byVar }));
  }
  return ix;
}

const frames = new Map<string, Term>();
/** x' = x, kept by name. */
function frameAtom(x: string): Term {
  let t = frames.get(x);
  if (!t) frames.set(x, (t = eq(mkVar(primed(x)), mkVar(x))));
  return t;
}

/** `x = c` (x a variable, primed or not, c a constant) as [x, c], or null. */
function constantTest(a: Term): [string, bigint] | null {
  const vs = [...varsOf(a)];
  const b = vs.length === 1 ? boundOf(a, vs[0]) : null;
  return b?.op === '=' && (b.c === 1n || b.c === -1n) ? [vs[0], -b.d / b.c] : null;
}

/** Global variables that every formula only sets to or compares with constants (and frames): candidates for thread identities. */
function constantOnlyGlobals(p: Program): Set<string> {
  const out = new Set(p.globals.filter((g) => p.vars.get(g)!.role === 'user'));
  const formulas = [...parts(p.init, 'and'), ...parts(p.err, 'or')];
  for (const th of p.threads) for (const t of th.transitions) formulas.push(...t.atoms.filter((a) => !isFrameAtom(a)));
  for (const a of formulas) if (!constantTest(a)) for (const v of varsOf(a)) out.delete(unprimed(v));
  return out;
}

/** Whether the transposition of `r` and `a` (their variables `rv`, `av`; identities in `ids`) maps the program onto itself; if so, each transition of r to a's and back. */
function transposition(p: Program, index: ReadonlyMap<string, Transition>, r: number, a: number, rv: readonly string[], av: readonly string[], ids: ReadonlySet<string>): Map<Transition, Transition> | null {
  const swap = new Map<string, string>();
  rv.forEach((v, i) => swap.set(v, av[i]).set(av[i], v));
  const f = (name: string): string => (isPrimed(name) ? primed(swap.get(unprimed(name)) ?? unprimed(name)) : (swap.get(name) ?? name));
  const [rid, aid] = [BigInt(r + 1), BigInt(a + 1)];
  const touched = new Set([...swap.keys(), ...ids].flatMap((v) => [v, primed(v)]));
  const atomImage = (x: Term): Term => {
    const vs = atomVars(x);
    // Most atoms (other threads' frames) mention neither instance nor an identity: they map to themselves.
    if (!vs.some((v) => touched.has(v))) return x;
    if (isFrameAtom(x) && !vs.some((v) => ids.has(unprimed(v)))) return frameAtom(f(unprimed(vs[0])));
    const c = constantTest(x);
    if (!c || !ids.has(unprimed(c[0]))) return rename(x, f);
    return eq(mkVar(c[0]), num(c[1] === rid ? aid : c[1] === aid ? rid : c[1]));
  };
  const image = (ts: readonly Term[]): Term[] => ts.map(atomImage);
  if (setKey(image(parts(p.init, 'and'))) !== setKey(parts(p.init, 'and'))) return null;
  if (setKey(image(parts(p.err, 'or'))) !== setKey(parts(p.err, 'or'))) return null;
  const map = new Map<Transition, Transition>();
  for (const th of p.threads) {
    const to = th.index === r ? a : th.index === a ? r : th.index;
    for (const t of th.transitions) {
      // Threads outside the pair must be mapped onto themselves transition by transition: the image of its conjuncts is the same set
      // (only its atoms over the pair's variables or identities can move).
      if (to === th.index) {
        const { atoms, byVar } = atomIndex(t);
        for (const v of touched) for (const x of byVar.get(v) ?? []) if (!atoms.has(atomImage(x))) return null;
        continue;
      }
      const u = index.get(transitionKey(to, t, image(conjuncts(t.formula)), f));
      if (!u) return null;
      map.set(t, u);
    }
  }
  return map;
}

/**
 * The classes of identical instances whose permutations provably map the program onto
 * itself, or null when there are none. The search is made with the candidate identity
 * variables permuted and without; the one that finds more instances is kept (a global
 * that main sets to 2 is data, not worker 1's identity).
 */
export function findSymmetry(p: Program): Symmetry | null {
  if (!shapeGroups(p).some((g) => g.length > 1)) return null;
  const plain = symmetryWith(p, new Set());
  const ids = constantOnlyGlobals(p);
  const withIds = ids.size ? symmetryWith(p, ids) : null;
  const size = (s: Symmetry | null): number => s?.classes.reduce((n, c) => n + c.threads.length, 0) ?? 0;
  return size(withIds) > size(plain) ? withIds : plain;
}

/** Threads other than main grouped by what identical instances share (function, locations, numbers of locals and transitions). */
function shapeGroups(p: Program): number[][] {
  const shape = (i: number): string => {
    const t = p.threads[i];
    return JSON.stringify([t.fn, t.startedAtInit, t.entryPc, t.errorPc ?? null, t.locals.length, t.locations.map((l) => l.kind), t.transitions.length]);
  };
  const groups = new Map<string, number[]>();
  for (const th of p.threads) if (th.index !== 0) groups.set(shape(th.index), [...(groups.get(shape(th.index)) ?? []), th.index]);
  return [...groups.values()];
}

function symmetryWith(p: Program, ids: ReadonlySet<string>): Symmetry | null {
  const classes: SymmetryClass[] = [];
  const toRep = new Map<Transition, Transition>();
  const fromRep = new Map<number, Map<Transition, Transition>>();
  const index = new Map<string, Transition>();
  for (const th of p.threads) for (const t of th.transitions) index.set(transitionKey(th.index, t, conjuncts(t.formula)), t);
  // An instance the transpositions with the representative leave out may still be
  // the representative of a class of the rest (a property singles out instance 1).
  const pending = shapeGroups(p);
  while (pending.length) {
    const members = pending.shift()!;
    if (members.length < 2) continue;
    const [r, ...rest] = members;
    const repVars = instanceVars(p, r);
    if (!repVars) {
      pending.unshift(rest);
      continue;
    }
    const threads = [r];
    const vars = [repVars.vars];
    const left: number[] = [];
    for (const a of rest) {
      const av = instanceVars(p, a);
      const map = av?.shape === repVars.shape ? transposition(p, index, r, a, repVars.vars, av.vars, ids) : null;
      if (!av || !map) {
        left.push(a);
        continue;
      }
      threads.push(a);
      vars.push(av.vars);
      const back = new Map<Transition, Transition>();
      for (const [t, u] of map) {
        if (t.thread === r) back.set(t, u);
        else toRep.set(t, u);
      }
      fromRep.set(a, back);
    }
    if (threads.length > 1) classes.push({ threads, vars });
    pending.unshift(left);
  }
  if (!classes.length) return null;
  return {
    classes,
    idVars: [...ids],
    counterpart(t, to) {
      if (t.thread === to) return t;
      const rep = toRep.get(t) ?? t; // t's thread is the representative, or t maps to it
      return to === classes.find((c) => c.threads.includes(to))!.threads[0] ? rep : fromRep.get(to)!.get(rep)!;
    },
  };
}

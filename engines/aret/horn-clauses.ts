/**
 * MKHORNCLAUSES (Fig. 10) and its modular variant (Fig. 11): the recursion-free Horn
 * clauses of an error tuple, read off the ARET's Parent maps. Each abstract state and
 * environment transition on the way to the tuple becomes an unknown relation; a
 * solution is a proof that the tuple is spurious, and its atoms are REFINE's new
 * predicates (refine.ts).
 */
import { and, eq, mkVar, num, primed, type Term } from '../../solver/formula.js';
import type { HornClause, HornSystem, Relation } from '../../solver/horn.js';
import { fullFormula, ownFrame, type Program } from '../../program/program.js';
import { isEnv, type AbsState, type EnvTransition } from './aret.js';

/**
 * Whose variables REFINE's unknowns may mention. `groups` partitions the threads: an
 * unknown state of thread i ranges over V_G and the locals of i's group, an unknown
 * environment transition into i over V_G, the locals of the rest of i's group, and
 * their primed copies. Each thread alone is Fig. 11 (modular); grouped is between it
 * and Fig. 10 (unbiased: every variable, no groups).
 */
export interface Level {
  readonly name: 'modular' | 'grouped' | 'unbiased';
  readonly groups?: readonly (readonly number[])[];
}

/** Fig. 10: the unknowns range over all of V (and V'). */
export const unbiasedLevel: Level = { name: 'unbiased' };

/**
 * Fig. 11 (with REFINE's changed line 1): an unknown state of thread i ranges over
 * V_G and V_i, an unknown environment transition over V_G and V'_G — every thread
 * alone in its group.
 */
export function modularLevel(p: Program): Level {
  return { name: 'modular', groups: p.threads.map((_, i) => [i]) };
}

/** Between the two: the groups of threads a proof needs together (modular-precheck.ts). */
export function groupedLevel(groups: readonly (readonly number[])[]): Level {
  return { name: 'grouped', groups };
}

/** Thread i's group at a level with groups. */
export const groupOf = (level: Level, i: number): readonly number[] => level.groups!.find((g) => g.includes(i))!;

/** The variables of each unknown at `level`: a state's over V, an environment transition's over V and V'. */
function unknownParams(p: Program, level: Level): { state: (i: number) => string[]; env: (i: number) => string[] } {
  const all = [...p.vars.keys()];
  const localsOf = (ks: readonly number[]): string[] => ks.flatMap((k) => p.threads[k].locals);
  const state = (i: number): string[] => (level.groups ? [...p.globals, ...localsOf(groupOf(level, i))] : all);
  const env = (i: number): string[] => {
    const base = level.groups ? [...p.globals, ...localsOf(groupOf(level, i).filter((k) => k !== i))] : all;
    return [...base, ...base.map(primed)];
  };
  return { state, env };
}

/** The relation symbols "S" and "ρ" of Fig. 9 and 10. */
export const stateRel = (s: AbsState): string => `s${s.id}`;
export const envRel = (e: EnvTransition): string => `e${e.id}`;

/**
 * The clauses for an error tuple: REFINE line 1 plus MKHORNCLAUSES(S_i) for each S_i
 * (Fig. 10), with unknowns over the variables `level` allows (Fig. 11 and the changed
 * line 1 for the modular level).
 */
export function mkHornClauses(p: Program, tuple: readonly AbsState[], level: Level): HornSystem {
  const params = unknownParams(p, level);
  const relations = new Map<string, Relation>();
  const clauses: HornClause[] = [];
  const atState = (s: AbsState, post = false) => {
    const ps = params.state(s.thread);
    relations.set(stateRel(s), { name: stateRel(s), params: ps });
    return { rel: stateRel(s), args: ps.map((v) => mkVar(post ? primed(v) : v)) };
  };
  const atEnv = (e: EnvTransition) => {
    const ps = params.env(e.target);
    relations.set(envRel(e), { name: envRel(e), params: ps });
    return { rel: envRel(e), args: ps.map((v) => mkVar(v)) };
  };
  // A state's relation holds only at its location: saying so in every body lets
  // solutions leave the thread's own pc out.
  const at = (s: AbsState): Term => eq(mkVar(p.threads[s.thread].pc), num(s.pc));
  const seen = new Set<number>();
  const visit = (d: AbsState): void => {
    if (seen.has(d.id)) return; // the trees share states: the clauses form a DAG
    seen.add(d.id);
    const parent = d.parent;
    if (!parent) {
      clauses.push({ body: [], constraint: p.init, head: atState(d) }); // line 14
      return;
    }
    visit(parent.from); // line 5
    const s = parent.from;
    if (isEnv(parent.via)) {
      const e = parent.via;
      const o = e.parent.from;
      // line 9, once per environment transition however many states it leads to
      if (!relations.has(envRel(e))) clauses.push({ body: [atState(o)], constraint: and(at(o), fullFormula(p, e.parent.via)), head: atEnv(e) });
      clauses.push({ body: [atState(s), atEnv(e)], constraint: and(at(s), ownFrame(p, d.thread)), head: atState(d, true) }); // line 10
      visit(o); // line 11
    } else {
      clauses.push({ body: [atState(s)], constraint: and(at(s), fullFormula(p, parent.via)), head: atState(d, true) }); // line 12
    }
  };
  for (const s of tuple) visit(s);
  clauses.push({ body: tuple.map((s) => atState(s)), constraint: and(...tuple.map(at), p.err) }); // REFINE line 1
  return { relations: [...relations.values()], clauses };
}

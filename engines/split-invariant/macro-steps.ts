/**
 * Invisible local steps run to their end. A location all of whose transitions read
 * and write only the thread's own locals (and the booleans exposed of them, which are
 * functions of them; never a copy of a location the property names) is one no other
 * thread can observe or disable; a thread that reaches it moves on by such steps alone. For a property
 * without X (stutter-invariant) the runs that take those steps at once are
 * stutter-equivalent to the others and keep every thread's turns, the classic
 * partial-order argument, so a step into such a location continues through it: the
 * abstract processes see one macro step. Without this, every such location (a loop
 * head, an unnamed label) is a local state the refinement must expose before a
 * fair abstract run can be built of must-transitions.
 */
import { unprimed, varsOf } from '../../solver/formula.js';
import { isFrameAtom, type Program, type Thread, type Transition } from '../../program/program.js';
import type { Ltl } from '../../core/ltl.js';
import type { RealMove, ThreadMoves } from '../state-space/api.js';

/** A step and, when it ran through invisible locations, the real steps it is made of. */
export interface MacroMove extends RealMove {
  readonly path: readonly RealMove[];
}

/** What the split engine asks of a thread's steps. */
export interface Moves {
  real(vals: readonly bigint[]): MacroMove[];
  idle(vals: readonly bigint[]): boolean;
  readonly clipped: boolean;
}

/** Whether `f` uses X (then a run's number of steps matters and nothing is merged). */
export function usesNext(f: Ltl): boolean {
  if (f.op === 'X') return true;
  if ('arg' in f) return usesNext(f.arg);
  if ('left' in f) return usesNext(f.left) || usesNext(f.right);
  return false;
}

/** The locations of `th` whose every transition reads and writes only its locals and `own` shared variables (booleans of its own locals the property does not read). */
function invisibleLocations(p: Program, th: Thread, own: ReadonlySet<string>): Set<number> {
  const mine = (v: string): boolean => p.vars.get(unprimed(v))?.owner === th.index || own.has(unprimed(v));
  const reads = (t: Transition): string[] => t.atoms.filter((a) => !isFrameAtom(a)).flatMap((a) => [...varsOf(a)]);
  const local = new Map<number, boolean>();
  for (const t of th.transitions) local.set(t.from, (local.get(t.from) ?? true) && !t.stack && reads(t).every((v) => mine(v) || t.aux.includes(v)));
  return new Set([...local].filter(([, yes]) => yes).map(([pc]) => pc));
}

/** `inner`'s steps, each continued through invisible locations (all ways it may go); `own` null: none merged. */
export function macroMoves(p: Program, th: Thread, inner: ThreadMoves, pcSlot: number, own: ReadonlySet<string> | null): Moves {
  const invisible = own ? invisibleLocations(p, th, own) : new Set<number>();
  const extend = (path: RealMove[], seen: Set<string>, out: MacroMove[]): void => {
    const last = path[path.length - 1];
    const key = last.next.join(',');
    const next = invisible.has(Number(last.next[pcSlot])) && !seen.has(key) ? inner.real(last.next) : [];
    if (!next.length) {
      out.push({ ...last, path });
      return;
    }
    seen.add(key);
    for (const m of next) extend([...path, m], seen, out);
    seen.delete(key);
  };
  return {
    real(vals) {
      const out: MacroMove[] = [];
      for (const m of inner.real(vals)) extend([m], new Set([vals.join(',')]), out);
      return out;
    },
    idle: (vals) => inner.idle(vals),
    get clipped() {
      return inner.clipped;
    },
  };
}

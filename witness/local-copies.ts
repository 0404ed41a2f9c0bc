/**
 * Ghost copies of a thread's locals, for the places where C cannot name them: inside a
 * function the thread calls (inlined), the caller's locals are out of scope, so an
 * invariant there cannot say that the loop counter of the caller is 2, and the step
 * back into the caller loses it. A ghost `rely_T_x` that each assignment to x (in T's
 * own function) updates to x's new value can be named everywhere; the checker relates
 * it to x where x is out of scope (correctness.ts: a candidate invariant `rely_T_x == x`
 * at each such place, checked like the witness's own).
 *
 * A witness from the exact reachable states copies every local of each thread's own
 * function, so that another thread's invariant can name it (cli/witness.ts).
 *
 * Such an update reads the program's state: its value is a variable visible at its
 * location, taken right after the step that executes the statement there (ghosts.ts).
 * It never blocks a step or changes a program variable.
 */
import { and, eq, mkVar, num, primed } from '../solver/formula.js';
import type { SourcePos } from '../program/diagnostics.js';
import { liveVariables } from '../program/dead-locals.js';
import type { Program, VarInfo } from '../program/program.js';
import type { ReadableProgram } from '../frontend/index.js';
import { functionAt, placesOf, positionKey, scopeAt, stepPositions } from './locations.js';

type Functions = ReadableProgram['functions'];

const COPY = '__copy.';
/** rely's ghost that copies local x, and the local a copy ghost copies. */
const copyOf = (x: string): string => COPY + x;
export const copied = (g: string): string | undefined => (g.startsWith(COPY) ? g.slice(COPY.length) : undefined);

/** The locals of each thread's own function (C name → IR variable) that are live at a place in a function it calls. */
function hiddenLive(p: Program, functions: Functions): Map<string, { thread: number; cname: string }> {
  const out = new Map<string, { thread: number; cname: string }>();
  for (const place of placesOf(p, functions)) {
    const th = p.threads[place.thread];
    if (place.fn === th.fn) continue;
    const here = new Set(scopeAt(p, th.index, place.fn).names.values());
    const { live, tracked } = liveVariables(p, th);
    const liveHere = live.get(place.pc) ?? new Set<string>();
    for (const [cname, v] of scopeAt(p, th.index, th.fn).names)
      if (p.vars.get(v)!.owner !== null && !here.has(v) && (!tracked.has(v) || liveHere.has(v))) out.set(v, { thread: th.index, cname });
  }
  return out;
}


/**
 * Where the copy of thread `thread`'s local x (C name `cname`) is updated: one statement
 * of each step that writes x, in the thread's own function where x is visible, that
 * only steps writing x execute (no other thread's among them); undefined when some step
 * writing x has none.
 */
export function copyUpdates(p: Program, functions: Functions, x: string, thread: number, cname: string): SourcePos[] | undefined {
  const steps = p.threads.flatMap((th) => th.transitions);
  const fine = new Map<string, boolean>();
  for (const t of steps)
    for (const pos of stepPositions(t)) fine.set(positionKey(pos), (fine.get(positionKey(pos)) ?? true) && t.thread === thread && t.writes.includes(x) && !t.stack);
  const out = new Map<string, SourcePos>();
  for (const t of steps.filter((s) => s.thread === thread && s.writes.includes(x))) {
    const pos = stepPositions(t)
      .reverse()
      .find((q) => fine.get(positionKey(q)) && scopeAt(p, thread, functionAt(functions, q)).names.get(cname) === x);
    if (!pos) return undefined;
    out.set(positionKey(pos), pos);
  }
  return [...out.values()];
}

/** Every local of each thread's own function (C name → IR variable). */
function ownLocals(p: Program): Map<string, { thread: number; cname: string }> {
  const out = new Map<string, { thread: number; cname: string }>();
  for (const th of p.threads)
    for (const [cname, v] of scopeAt(p, th.index, th.fn).names) if (p.vars.get(v)!.owner === th.index) out.set(v, { thread: th.index, cname });
  return out;
}

/**
 * `p` with a ghost global copying each thread's local that is live where it cannot be
 * named (0 until the local's first write) — with `every`, each local of each thread's
 * own function, so that the invariants of one thread can say what the others' are.
 */
export function withLocalCopies(p: Program, functions: Functions, every = false): Program {
  const xs = [...(every ? new Map([...hiddenLive(p, functions), ...ownLocals(p)]) : hiddenLive(p, functions))].filter(([x, { thread, cname }]) => copyUpdates(p, functions, x, thread, cname) !== undefined).map(([x]) => x);
  if (xs.length === 0) return p;
  const vars = new Map<string, VarInfo>(p.vars);
  for (const x of xs) vars.set(copyOf(x), { name: copyOf(x), owner: null, role: 'ghost', unsigned: false, bool: false, cname: copyOf(x) });
  const threads = p.threads.map((th) => ({
    ...th,
    transitions: th.transitions.map((t) => {
      const extra = xs.map((x) => eq(mkVar(primed(copyOf(x))), mkVar(t.writes.includes(x) ? primed(x) : copyOf(x))));
      return { ...t, atoms: [...t.atoms, ...extra], formula: and(t.formula, ...extra), writes: [...t.writes, ...xs.filter((x) => t.writes.includes(x)).map(copyOf)] };
    }),
  }));
  return { ...p, vars, globals: [...p.globals, ...xs.map(copyOf)], threads, init: and(p.init, ...xs.map((x) => eq(mkVar(copyOf(x)), num(0)))) };
}

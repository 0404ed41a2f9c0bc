/**
 * Ghost variables of correctness witnesses (format 2.1): state a proof needs that C
 * cannot name — who holds a mutex, whether a thread was started or has ended.
 *
 * Writing: rely's program already keeps that state in ghost globals of its own (a
 * mutex's owner, 0 or the holder's thread index + 1; `__started.T` and `__done.T`
 * of the thread start and join flags; frontend/lower/). Each becomes a witness ghost
 * (`rely_owner_m`, `rely_started_T`, `rely_done_T`) when its every change can be
 * said as a constant set at a statement: every step of the program that executes
 * that statement sets it to the same constant (a lock in a function that two
 * threads run sets two owners there, and is left out).
 *
 * Reading: each ghost becomes a global of the checked transition system, set to its
 * initial value, and updated atomically with each step that executes the statement at
 * an update's location (a step of rely's is a block of statements: the updates are
 * done in the order of its statements); every other step leaves it alone. Updates may
 * only set integer constants or copy a variable visible at their location (its value
 * right after the step, local-copies.ts), so ghosts are written only by updates and
 * read only by invariants: an update is `g' = value`, which every step can meet, so
 * ghosts never block or change a step,
 * and the program's runs projected on its own variables are the same — whatever
 * the ghosts are, an invariant proved of the instrumented program holds of the
 * original. For the invariants to use what rely's model knows about a mutex or a
 * thread flag (a lock waits while the owner is not 0), the reader looks for ghosts
 * that always equal one of rely's own ghost globals: each such link `g == x` is
 * checked inductive by the solver before the invariants may lean on it.
 */
import { and, conjuncts, eq, isArrayName, mkVar, num, prime, primed, varsOf, type Term } from '../solver/formula.js';
import { fixedValue } from '../solver/bounds.js';
import type { SmtSolver } from '../solver/smt.js';
import { InputError, showPos, type SourcePos } from '../program/diagnostics.js';
import { assigned } from '../program/lock-owners.js';
import { fullFormula, type Program, type VarInfo } from '../program/program.js';
import type { ReadableProgram } from '../frontend/index.js';
import type { GhostInstrumentation, GhostUpdates, ReadGhostUpdate, ReadGhosts } from './format.js';
import { cLiteral, functionAt, positionKey, samePos, scopeAt, stepPositions } from './locations.js';
import { copied, copyUpdates } from './local-copies.js';

type Functions = ReadableProgram['functions'];

/** IR names of a witness's ghosts: apart from every name of the program. */
const GHOST = '<ghost>.';
const isWitnessGhost = (v: string): boolean => v.startsWith(GHOST);

/** rely's own state that C cannot name: mutex owners and ghost flags (not a witness's ghosts). */
const hiddenState = (p: Program): string[] =>
  p.globals.filter((g) => {
    const v = p.vars.get(g)!;
    return !isWitnessGhost(g) && (v.role === 'ghost' || v.mutex === true);
  });

/** What a ghost of rely's stands for, in words. */
function describe(p: Program, x: string): string {
  if (p.vars.get(x)!.mutex) return `the owner of mutex ${p.vars.get(x)!.cname} (0 when free, else its holder's thread index + 1)`;
  const flag = /^__(started|done)\.(.+)$/.exec(x);
  if (flag) return `thread ${flag[2]}'s ${flag[1] === 'started' ? 'start' : 'end'} flag`;
  return x === '__halted' ? 'the flag that abort() and exit() set' : `rely's ${x}`;
}

/** The witness name of rely's ghost x: a C identifier unlike every C name of the program. */
function ghostName(p: Program, x: string, taken: Set<string>): string {
  const info = p.vars.get(x)!;
  const flag = /^__(started|done)\.(.+)$/.exec(x);
  const local = copied(x);
  const base = local ? `rely_${p.threads[p.vars.get(local)!.owner!].name}_${p.vars.get(local)!.cname}` : info.mutex ? `rely_owner_${info.cname}` : flag ? `rely_${flag[1]}_${flag[2]}` : `rely_${x}`;
  let name = base.replace(/\W/g, '_').replace(/^rely_+/, 'rely_');
  while (taken.has(name)) name += '_';
  taken.add(name);
  return name;
}

/**
 * Where the changes of x can be said as updates: per statement position, the constant
 * that every step executing a statement there sets x to — undefined when some step
 * that sets x has no such position, or sets it to something other than a constant.
 */
function updatesOf(p: Program, x: string, heads: ReadonlySet<string>): Map<string, { pos: SourcePos; value: bigint }> | undefined {
  const steps = p.threads.flatMap((th) => th.transitions);
  const flag = /^__\w+\.(.+)$/.exec(x);
  const mentions = (text: string): boolean => text.includes(`(${flag ? flag[1] : p.vars.get(x)!.cname})`);
  // Per position: the value every step through it leaves in x, or null when one leaves x alone or steps disagree.
  const through = new Map<string, { pos: SourcePos; value: bigint | null }>();
  for (const t of steps)
    for (const pos of stepPositions(t)) {
      const k = positionKey(pos);
      const value = t.writes.includes(x) && !t.stack ? assigned(t, x) : null;
      const before = through.get(k);
      through.set(k, { pos, value: before === undefined || before.value === value ? value : null });
    }
  const out = new Map<string, { pos: SourcePos; value: bigint }>();
  for (const t of steps.filter((s) => s.writes.includes(x))) {
    // Any statement of the step where the update can stand gives the step's final value; for a reader, the one
    // that writes x (its text names it: `pthread_mutex_lock(m)`, `pthread_create(T)`), else the last one that is
    // not a function's head (which stands for the function's start and end).
    const ok = (c: string): boolean => through.get(c)!.value !== null;
    const named = t.steps.filter((s) => ok(positionKey(s.pos)) && mentions(s.text)).map((s) => positionKey(s.pos));
    const ks = stepPositions(t).map(positionKey).reverse().filter(ok);
    const k = named.at(-1) ?? ks.find((c) => !heads.has(c)) ?? ks[0];
    if (k === undefined) return undefined;
    out.set(k, through.get(k) as { pos: SourcePos; value: bigint });
  }
  return out;
}

/** The ghosts a witness of `p` declares, and their C names (→ rely's variable) for its invariants. */
export interface WrittenGhosts {
  readonly instrumentation: GhostInstrumentation;
  readonly names: ReadonlyMap<string, string>;
}

/** rely's ghost state of `p` as witness ghosts, each where its every change can be said at a location. */
export function ghostsOf(p: Program, functions: Functions, fileName: string): WrittenGhosts {
  const taken = new Set([...p.vars.values()].map((v) => v.cname));
  const init = conjuncts(p.init);
  const heads = new Set(functions.map((f) => positionKey(f.pos)));
  const names = new Map<string, string>();
  const variables: GhostInstrumentation['ghost_variables'][number][] = [];
  const at = new Map<string, { pos: SourcePos; updates: GhostUpdates['updates'][number][] }>();
  const add = (name: string, x: string, initial: bigint, updates: Iterable<{ pos: SourcePos; value: string }>): void => {
    names.set(name, x);
    variables.push({ name, scope: 'global', type: 'int', initial: { value: cLiteral(initial), format: 'c_expression' } });
    for (const { pos, value } of updates) {
      if (!at.has(positionKey(pos))) at.set(positionKey(pos), { pos, updates: [] });
      at.get(positionKey(pos))!.updates.push({ variable: name, value, format: 'c_expression' });
    }
  };
  for (const x of hiddenState(p)) {
    const local = copied(x);
    if (local !== undefined) {
      // A copy of a thread's local (local-copies.ts): 0 until the local's first write, then its value.
      const { owner, cname } = p.vars.get(local)!;
      const at = copyUpdates(p, functions, local, owner!, cname);
      if (at) add(ghostName(p, x, taken), x, 0n, at.map((pos) => ({ pos, value: cname })));
      continue;
    }
    const initial = fixedValue(init.filter((a) => varsOf(a).has(x)), x);
    const updates = updatesOf(p, x, heads);
    if (initial === null || !updates || updates.size === 0) continue;
    add(ghostName(p, x, taken), x, initial, [...updates.values()].map(({ pos, value }) => ({ pos, value: cLiteral(value) })));
  }
  const ghost_updates = [...at.values()]
    .map(({ pos, updates }) => ({ location: { file_name: fileName, line: pos.line, column: pos.col, function: functionAt(functions, pos) }, updates }))
    .sort(byLocation);
  return { instrumentation: { ghost_variables: variables, ghost_updates }, names };
}

// ---------------------------------------------------------------------------
// Reading.

/** Ghost updates in source order. */
export const byLocation = (a: GhostUpdates, b: GhostUpdates): number => a.location.line - b.location.line || a.location.column - b.location.column;

/** The program with a witness's ghosts, their C names (→ IR variable), and what the reader noted about them. */
export interface Instrumented {
  readonly program: Program;
  readonly names: ReadonlyMap<string, string>;
  readonly notes: readonly string[];
  /** Ghosts that copy a thread's local (IR names). */
  readonly copies: readonly GhostCopy[];
}

export interface GhostCopy {
  readonly ghost: string;
  readonly local: string;
  readonly thread: number;
}

const INTEGER = /^\s*(\(\s*)?-?\s*\d+\s*(\)\s*)?$/;
const IDENT = /^[A-Za-z_]\w*$/;

/** An integer constant's value, or undefined for any other C expression. */
function integer(text: string): bigint | undefined {
  if (!INTEGER.test(text) || (text.includes('(') !== text.includes(')'))) return undefined;
  return BigInt(text.replace(/[\s()]/g, ''));
}

/** An update's value: an integer constant, or a variable's value right after the step (a copy, local-copies.ts). */
type Value = { readonly k: 'const'; readonly v: bigint } | { readonly k: 'copy'; readonly cname: string };

/** An update's value as rely reads it, or undefined for any other C expression (one that computes from the program's state). */
function valueOf(text: string): Value | undefined {
  const v = integer(text);
  if (v !== undefined) return { k: 'const', v };
  return IDENT.test(text.trim()) ? { k: 'copy', cname: text.trim() } : undefined;
}

const same = (a: Value, b: Value): boolean => (a.k === 'const' ? b.k === 'const' && a.v === b.v : b.k === 'copy' && a.cname === b.cname);
const showValue = (a: Value): string => (a.k === 'const' ? `${a.v}` : a.cname);

/**
 * `rp`'s program instrumented with `ghosts`, or why rely does not check them (a ghost
 * that is not a global int, an initial value that is not an integer constant, an
 * update that is neither an integer constant nor a variable visible where it stands).
 * A ghost the witness does not declare, or declares twice, is malformed (InputError).
 */
export function withGhosts(rp: ReadableProgram, ghosts: ReadGhosts): Instrumented | { readonly reason: string } {
  const p = rp.program;
  const cnames = new Set([...p.vars.values()].filter((v) => v.role === 'user').map((v) => v.cname));
  const initial = new Map<string, bigint>();
  for (const g of ghosts.variables) {
    if (!IDENT.test(g.name)) throw new InputError(g.at, `ghost variable '${g.name}' is not a C identifier`);
    if (initial.has(g.name)) throw new InputError(g.at, `ghost variable '${g.name}' is declared twice`);
    if (cnames.has(g.name)) return { reason: `${showPos(g.at)}: ghost variable '${g.name}' has the name of a variable of the program` };
    if (g.scope !== 'global') return { reason: `${showPos(g.at)}: ghost variable '${g.name}' has scope '${g.scope}' (rely reads global ghosts)` };
    if (g.type.trim() !== 'int') return { reason: `${showPos(g.at)}: ghost variable '${g.name}' has type '${g.type}' (rely reads int ghosts)` };
    const v = integer(g.initial.text);
    if (v === undefined) return { reason: `${showPos(g.initial.at)}: the initial value of ghost '${g.name}' is not an integer constant` };
    initial.set(g.name, v);
  }
  const updates: { location: ReadGhostUpdate['location']; variable: string; value: Value; at: SourcePos }[] = [];
  for (const u of ghosts.updates) {
    if (!initial.has(u.variable)) throw new InputError(u.at, `update of '${u.variable}', which no ghost_variables entry declares`);
    const value = valueOf(u.value.text);
    // A value computed from the program's state could make the update a test; rely reads constants and copies only.
    if (value === undefined) return { reason: `${showPos(u.value.at)}: the update of ghost '${u.variable}' is neither an integer constant nor a variable (rely reads updates that set a constant or copy a variable)` };
    const twice = updates.find((v) => v.variable === u.variable && !same(v.value, value) && v.location.line === u.location.line && v.location.column === u.location.column);
    if (twice) return { reason: `${showPos(u.at)}: ghost '${u.variable}' is set to ${showValue(twice.value)} and to ${showValue(value)} at the same location` };
    updates.push({ location: u.location, variable: u.variable, value, at: u.value.at });
  }
  const names = new Map([...initial.keys()].map((g) => [g, GHOST + g]));
  // Per transition id: the value each ghost ends with, the updates done in the order of its statements.
  const sets = new Map<number, Map<string, Term>>();
  const done = new Set<(typeof updates)[number]>();
  const copies = new Map<string, Set<string>>();
  for (const t of p.threads.flatMap((th) => th.transitions)) {
    if (t.stack) continue;
    for (const pos of stepPositions(t))
      for (const u of updates.filter((v) => samePos(pos, v.location))) {
        let value: Term;
        if (u.value.k === 'const') value = num(u.value.v);
        else {
          const x = scopeAt(p, t.thread, functionAt(rp.functions, pos)).names.get(u.value.cname);
          if (x === undefined || isArrayName(x)) return { reason: `${showPos(u.at)}: the update of ghost '${u.variable}' reads '${u.value.cname}', which is not a variable rely can place at line ${pos.line}:${pos.col}` };
          value = mkVar(primed(x));
          if (!copies.has(u.variable)) copies.set(u.variable, new Set());
          copies.get(u.variable)!.add(x);
        }
        if (!sets.has(t.id)) sets.set(t.id, new Map());
        sets.get(t.id)!.set(u.variable, value);
        done.add(u);
      }
  }
  const notes = updates
    .filter((v) => !done.has(v))
    .map((u) => `ghost update of ${u.variable} at line ${u.location.line}${u.location.column ? `:${u.location.column}` : ''}: no step of rely's transition system executes a statement there, so it is never done`);
  const vars = new Map<string, VarInfo>(p.vars);
  for (const [g, v] of names) vars.set(v, { name: v, owner: null, role: 'ghost', unsigned: false, bool: false, cname: g });
  const threads = p.threads.map((th) => ({
    ...th,
    transitions: th.transitions.map((t) => {
      const set = sets.get(t.id);
      const extra = [...names].map(([g, v]) => eq(mkVar(primed(v)), set?.get(g) ?? mkVar(v)));
      const atoms = [...t.atoms, ...extra];
      return { ...t, atoms, formula: and(t.formula, ...extra), writes: [...t.writes, ...[...(set?.keys() ?? [])].map((g) => names.get(g)!)] };
    }),
  }));
  const init = and(p.init, ...[...names].map(([g, v]) => eq(mkVar(v), num(initial.get(g)!))));
  // A ghost every update of which copies one local of one thread: a copy of it (local-copies.ts).
  const copyOfLocal = [...copies].flatMap(([g, xs]) => {
    const [x] = xs;
    const only = xs.size === 1 && updates.every((u) => u.variable !== g || u.value.k === 'copy') && p.vars.get(x)!.owner !== null;
    return only ? [{ ghost: names.get(g)!, local: x, thread: p.vars.get(x)!.owner! }] : [];
  });
  return { program: { ...p, vars, globals: [...p.globals, ...names.values()], threads, init }, names, notes, copies: copyOfLocal };
}

/** A link: witness ghost `ghost` always equals rely's `x`. */
export interface Link {
  readonly ghost: string;
  readonly x: string;
  readonly formula: Term;
  readonly describes: string;
}

/**
 * The links `g == x` between the witness ghosts of instrumented `p` and rely's own
 * ghost state that are inductive together (initiation, and kept by every step of every
 * thread), as `solver` shows. A candidate whose steps do not agree syntactically (a
 * step sets one and not the other) is not tried.
 */
export async function ghostLinks(p: Program, names: ReadonlyMap<string, string>, solver: SmtSolver): Promise<Link[]> {
  const steps = p.threads.flatMap((th) => th.transitions);
  const agree = (g: string, x: string): boolean =>
    steps.every((t) => (t.writes.includes(g) ? assigned(t, g) === assigned(t, x) : !t.writes.includes(x)));
  let links: Link[] = [...names].flatMap(([cname, g]) =>
    hiddenState(p)
      .filter((x) => agree(g, x))
      .map((x) => ({ ghost: cname, x, formula: eq(mkVar(g), mkVar(x)), describes: describe(p, x) })),
  );
  links = await holdInitially(p, links, solver);
  for (let changed = true; changed && links.length > 0; ) {
    changed = false;
    const premise = and(...links.map((l) => l.formula));
    for (const t of steps) {
      if ((await solver.entails(and(premise, fullFormula(p, t)), prime(and(...links.map((l) => l.formula))))) === true) continue;
      const kept: Link[] = [];
      for (const l of links) if ((await solver.entails(and(premise, fullFormula(p, t)), prime(l.formula))) === true) kept.push(l);
      changed = true;
      links = kept;
      break;
    }
  }
  return links;
}

async function holdInitially(p: Program, links: readonly Link[], solver: SmtSolver): Promise<Link[]> {
  const out: Link[] = [];
  for (const l of links) if ((await solver.entails(p.init, l.formula)) === true) out.push(l);
  return out;
}

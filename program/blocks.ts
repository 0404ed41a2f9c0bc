/**
 * Large-block encoding: folds paths of a thread's CFG into transitions. A transition
 * runs from one cut location to the next and contains at most one visible step (one
 * that touches a global variable) or one whole atomic section; thread-local steps
 * before and after it are merged in, since no other thread can observe them. After
 * its visible step a block also stops before a blocking assume, so a visible write is
 * never undone by a later local wait, nor dropped when the thread then blocks for good
 * (a dead end: `__VERIFIER_assume(0)`). Loop heads, the error, exit and halt
 * locations are always cuts, so every path is finite.
 *
 * One exception: consecutive stable assumes (joins) form one step. A join's condition,
 * once true, stays true, so a run that passes one join and later the next maps to a
 * run that passes both at the later time (between them the thread only does local
 * steps, which nobody reads); the states skipped differ only in this thread's pc at a
 * location that is no error location. `for (…) pthread_join(t[i], 0)` over identical
 * threads is then one step that treats them alike.
 *
 * An atomic section too wide to fold (its paths past the limits) runs step by step
 * under a ghost flag instead (`atomicFlag`): its first step takes the flag, its last
 * releases it, and every transition outside such a section, of every thread, requires
 * it free. The flag is 0/1, not an owner, so identical threads stay interchangeable.
 */
import { FALSE, TRUE, and, conjuncts, eq, isArrayName, isLinear, le, mkVar, num, primed, substitute, type Term } from '../solver/formula.js';
import { actionVars, type Cfg, type Edge } from './cfg.js';
import { checkDeadline, fail, unsupported, type DeadlineOption, type SourcePos } from './diagnostics.js';
import type { Location, Step, Transition } from './program.js';

const iteMemo = new WeakMap<Term, boolean>();
/** Whether an if-then-else occurs in t (memoised: terms are hash-consed DAGs). */
function hasIte(t: Term): boolean {
  if (t.kind !== 'app') return false;
  let h = iteMemo.get(t);
  if (h === undefined) iteMemo.set(t, (h = t.op === 'ite' || t.args.some(hasIte)));
  return h;
}

export interface BlockInput extends DeadlineOption {
  cfg: Cfg;
  entry: number;
  thread: number;
  pcVar: string;
  /** Globals and the thread's own locals (without the pc). */
  scope: string[];
  isGlobal: (v: string) => boolean;
  /** Conjoined to every transition (the halt flag is 0). */
  guard?: Term;
  largeBlocks: boolean;
  /** Locations that must stay locations (labels a property names), besides the usual cuts. */
  cuts?: ReadonlySet<number>;
  /** The ghost flag of atomic sections run step by step, when some thread of the program needs it (else undefined). */
  atomicFlag?: string;
}

/** A thread's atomic section is too wide to fold: the caller builds every thread again with an `atomicFlag`. */
export class NeedsAtomicFlag extends Error {
  constructor(readonly pos: SourcePos) {
    super('an atomic section needs the ghost flag');
  }
}

/** The transitions, the locations, and the pc of each CFG location that became one. */
export interface Blocks {
  readonly transitions: Omit<Transition, 'id'>[];
  readonly locations: Location[];
  readonly pcOf: ReadonlyMap<number, number>;
}

const MAX_PATHS_PER_CUT = 4096;
/**
 * Work from one cut, in edges walked weighted by the length of the path so far (what a
 * step copies), before it counts as a path explosion too: an else-if chain of n arms
 * whose tests are stable makes n paths of up to n edges each, n³ work and formulas n²
 * long (4,000 arms take minutes).
 */
const MAX_WORK_PER_CUT = 1_000_000;

/** Too many paths, or too much work, from one cut; `pos` is where the path that went past the limit starts. */
class PathExplosion extends Error {
  constructor(readonly pos: SourcePos | undefined) {
    super('too many paths from one cut');
  }
}

interface PathState {
  sym: Map<string, Term>;
  atoms: Term[];
  aux: string[];
  sawVisible: boolean;
  /** Every visible step so far is a stable assume (a join). */
  onlyStable: boolean;
  depth: number;
  atomic: boolean;
  steps: Step[];
  first?: Edge;
  visibleEdge?: Edge;
}

export function buildTransitions(input: BlockInput): Blocks {
  const cuts = [...(input.cuts ?? [])];
  try {
    return build(input, new Set(cuts));
  } catch (e) {
    if (!(e instanceof PathExplosion)) throw e;
  }
  // Too many paths through local branching: also cut at every join location.
  cuts.push(...joinLocations(input.cfg));
  try {
    return build(input, new Set(cuts));
  } catch (e) {
    if (!(e instanceof PathExplosion)) throw e;
  }
  // Still too many (a long else-if chain, whose arms' tests do not join): also cut at every branch.
  input.cfg.out.forEach((edges, l) => edges.length > 1 && cuts.push(l));
  try {
    return build(input, new Set(cuts));
  } catch (e) {
    if (!(e instanceof PathExplosion)) throw e;
  }
  // Still too much work (a straight run of thousands of steps, e.g. nested `if (1)`,
  // has no branch to cut at): small blocks.
  let pos: SourcePos;
  try {
    return build({ ...input, largeBlocks: false }, new Set(cuts));
  } catch (e) {
    if (!(e instanceof PathExplosion)) throw e;
    pos = e.pos ?? input.cfg.posOf[input.entry]!;
  }
  // Small blocks cut at every step but inside an atomic section, which folds into one
  // transition: its branches multiply. Such a section
  // runs step by step under the flag, cut at every branch as the thread's other code.
  if (!input.atomicFlag) throw new NeedsAtomicFlag(pos);
  const flagged = [
    { largeBlocks: input.largeBlocks, cuts: input.cuts ?? [], everyStep: false },
    { largeBlocks: false, cuts, everyStep: true },
  ];
  for (const f of flagged)
    try {
      return build({ ...input, largeBlocks: f.largeBlocks }, new Set(f.cuts), { flag: input.atomicFlag, everyStep: f.everyStep });
    } catch (e) {
      if (!(e instanceof PathExplosion)) throw e;
    }
  // Every step is its own transition then: only a straight run too long for one block is left.
  return unsupported(pos, `an atomic section with paths too long to fold into one step`);
}

/** The locations more than one edge leads to. */
function joinLocations(cfg: Cfg): Set<number> {
  const indeg = new Map<number, number>();
  for (const edges of cfg.out) for (const ed of edges) indeg.set(ed.to, (indeg.get(ed.to) ?? 0) + 1);
  return new Set([...indeg].filter(([, n]) => n > 1).map(([l]) => l));
}

/** Atomic sections run under the flag: cut at their joins (one transition per branch taken), or at `everyStep`. */
interface FlagSections {
  readonly flag: string;
  readonly everyStep: boolean;
}

/**
 * The locations strictly inside atomic sections (after an outermost begin, before its
 * end), checked for what a section run step by step cannot do: wait. A blocked step
 * would hold the flag for good, where the folded section just did not start.
 */
function insideSections(cfg: Cfg, roots: readonly number[]): Set<number> {
  const depth = new Map<number, number>(roots.map((r) => [r, 0]));
  const work = [...roots];
  while (work.length) {
    const l = work.pop()!;
    const d = depth.get(l)!;
    for (const e of cfg.out[l]) {
      const next = d + (e.action.kind === 'atomicBegin' ? 1 : e.action.kind === 'atomicEnd' ? -1 : 0);
      if (!depth.has(e.to)) {
        depth.set(e.to, next);
        work.push(e.to);
      }
    }
  }
  const inside = new Set([...depth].filter(([, d]) => d > 0).map(([l]) => l));
  for (const l of inside) {
    if (!cfg.terminal.has(l) && cfg.out[l].length === 0) unsupported(cfg.posOf[l] ?? cfg.posOf[roots[0]]!, 'a thread that blocks for good inside an atomic section too wide to fold into one step');
    for (const e of cfg.out[l]) if (e.action.kind === 'assume' && e.action.blocking) unsupported(e.pos, 'a blocking wait inside an atomic section too wide to fold into one step');
  }
  return inside;
}

function build(input: BlockInput, forcedCuts: Set<number>, sections?: FlagSections): Blocks {
  return new BlockBuilder(input, forcedCuts, sections).blocks();
}

const START: PathState = { sym: new Map(), atoms: [], aux: [], sawVisible: false, onlyStable: true, depth: 0, atomic: false, steps: [] };

/** One build of a thread's blocks: walks the paths from each cut to the next and emits a transition for each. */
class BlockBuilder {
  private readonly cfg: Cfg;
  /** Kept calls: the call sites, the return sites, the callee entries and the return locations (always cuts). */
  private readonly stackCuts = new Set<number>();
  private readonly heads: Set<number>;
  /** The flag of atomic sections run step by step in this build (undefined: sections fold). */
  private readonly sectionFlag: string | undefined;
  /** The locations strictly inside a section run under the flag. */
  private readonly inside: Set<number>;
  private readonly scopeSet: Set<string>;
  private readonly pcOf = new Map<number, number>();
  private readonly locations: Location[] = [];
  /** Cut locations whose paths are still to walk. */
  private readonly work: number[] = [];
  private readonly out: Omit<Transition, 'id'>[] = [];
  /** Transitions emitted so far, by their ends and formula: a path that repeats one adds nothing. */
  private readonly seen = new Set<string>();
  private auxCount = 0;

  constructor(
    readonly input: BlockInput,
    private readonly forcedCuts: Set<number>,
    sections: FlagSections | undefined,
  ) {
    const { cfg, entry } = input;
    this.cfg = cfg;
    // Kept calls: the callee bodies are reached through call edges only; their entries,
    // the call sites, the return sites and the return locations are all cuts.
    const procEntries: number[] = [];
    for (const edges of cfg.out)
      for (const e of edges) {
        if (e.action.kind === 'call') {
          procEntries.push(e.action.entry);
          this.stackCuts.add(e.from).add(e.to).add(e.action.entry);
        } else if (e.action.kind === 'return') this.stackCuts.add(e.from);
      }
    this.heads = cfg.loopHeads([entry, ...procEntries]);
    // Inside a section under the flag no other thread runs: its steps fold into blocks
    // from join to join (each branch taken its own transition) whatever they touch.
    this.sectionFlag = sections?.flag;
    this.inside = sections ? insideSections(cfg, [entry, ...procEntries]) : new Set<number>();
    const joins = sections?.everyStep ? undefined : joinLocations(cfg);
    for (const l of this.inside) if (!joins || joins.has(l)) forcedCuts.add(l);
    this.scopeSet = new Set(input.scope);
  }

  blocks(): Blocks {
    this.pc(this.input.entry);
    while (this.work.length) {
      checkDeadline(this.input.deadline);
      const start = this.work.shift()!;
      const stackEdge = this.cfg.out[start].find((e) => e.action.kind === 'call' || e.action.kind === 'return');
      if (stackEdge) this.emitStack(stackEdge);
      else new PathWalk(this, start).walk(start, START, 0);
    }
    return { transitions: this.out, locations: this.locations, pcOf: this.pcOf };
  }

  /** The pc of a cut location, numbered when first met (and its paths queued). */
  pc(loc: number): number {
    let p = this.pcOf.get(loc);
    if (p === undefined) {
      p = this.locations.length;
      this.pcOf.set(loc, p);
      const { cfg } = this;
      const kind = loc === this.input.entry ? 'entry' : (cfg.terminal.get(loc) ?? 'block');
      this.locations.push({ pc: p, kind, pos: cfg.posOf[loc] });
      if (!cfg.terminal.has(loc)) this.work.push(loc);
    }
    return p;
  }

  /** Outside a section run under the flag, a transition requires the flag free. */
  private flagFree(from: number): Term[] {
    const flag = this.input.atomicFlag;
    return flag && !this.inside.has(from) ? [eq(mkVar(flag), num(0))] : [];
  }

  private releases(e: Edge): boolean {
    return this.sectionFlag !== undefined && e.action.kind === 'atomicEnd' && !this.inside.has(e.to);
  }

  private visible(e: Edge): boolean {
    if (e.action.kind === 'atomicBegin' || this.releases(e)) return true;
    for (const v of actionVars(e.action)) if (this.input.isGlobal(v)) return true;
    return false;
  }

  /** Whether the path walked so far ends at `loc` (a cut, or where its block must stop). */
  stopsAt(loc: number, st: PathState): boolean {
    const { cfg, heads, inside, forcedCuts } = this;
    if (st.depth > 0 && heads.has(loc)) unsupported(cfg.posOf[loc] ?? st.first!.pos, 'a loop inside an atomic section');
    if (st.depth > 0 && this.stackCuts.has(loc)) unsupported(cfg.posOf[loc] ?? st.first!.pos, 'a kept procedure call inside an atomic section');
    return (
      cfg.terminal.has(loc) ||
      this.stackCuts.has(loc) ||
      (inside.has(loc) && (heads.has(loc) || forcedCuts.has(loc))) ||
      (st.depth === 0 &&
        !inside.has(loc) &&
        (heads.has(loc) ||
          forcedCuts.has(loc) ||
          !this.input.largeBlocks ||
          // A dead end (a thread that blocks for good) keeps the visible step before it.
          (st.sawVisible && cfg.out[loc].length === 0) ||
          (st.sawVisible && cfg.out[loc].some((e) => (this.visible(e) || blocking(e)) && !(st.onlyStable && stable(e))))))
    );
  }

  /** The block of the path `st` from cut `from` to cut `to`, unless it is unsatisfiable or already emitted. */
  emit(from: number, to: number, st: PathState): void {
    const { input, cfg, sectionFlag } = this;
    const { scope, pcVar } = input;
    checkDeadline(input.deadline);
    const atoms: Term[] = [eq(mkVar(pcVar), num(this.pc(from))), eq(mkVar(primed(pcVar)), num(this.pc(to))), ...st.atoms, ...this.flagFree(from)];
    if (input.guard) atoms.push(input.guard);
    // A thread that ends inside a section run under the flag ends the section too.
    if (sectionFlag && cfg.terminal.get(to) === 'exit') st = { ...st, sym: new Map(st.sym).set(sectionFlag, num(0)) };
    const writes: string[] = [];
    for (const v of scope) {
      const val = st.sym.get(v) ?? mkVar(v);
      if (val !== mkVar(v)) writes.push(v);
      atoms.push(eq(mkVar(primed(v)), val));
    }
    // A nondet value that some variable keeps is that variable's primed copy.
    const rename = new Map<string, Term>();
    const kept: string[] = [];
    for (const a of st.aux) {
      const holder = scope.find((v) => st.sym.get(v) === mkVar(a));
      if (holder) rename.set(a, mkVar(primed(holder)));
      else kept.push(a);
    }
    const formula = and(...atoms.map((a) => substitute(a, rename)));
    if (formula === FALSE) return;
    const key = `${from}>${to}:${formula.id}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const main = st.visibleEdge ?? st.first!;
    this.out.push({
      thread: input.thread,
      from: this.pc(from),
      to: this.pc(to),
      formula,
      atoms: conjuncts(formula),
      aux: kept,
      writes,
      pos: main.pos,
      steps: st.steps,
      atomic: st.atomic,
      linear: isLinear(formula),
    });
  }

  /** T⁺ and T⁻ of a kept call: the only edge out of a call site or a return location. */
  private emitStack(e: Edge): void {
    const { input } = this;
    const { pcVar } = input;
    const a = e.action;
    const step = { pos: e.pos, text: e.text };
    const base = { thread: input.thread, pos: e.pos, steps: e.text ? [step] : [], atomic: false, aux: [] };
    const guard = [...(input.guard ? [input.guard] : []), ...this.flagFree(e.from)];
    if (a.kind === 'call') {
      // The callee starts with its parameters bound and every other local zero; globals stay.
      const args = new Map(a.args.map((x) => [x.param, x.value]));
      const atoms = [eq(mkVar(pcVar), num(this.pc(e.from))), eq(mkVar(primed(pcVar)), num(this.pc(a.entry))), ...guard];
      for (const v of input.scope) atoms.push(eq(mkVar(primed(v)), input.isGlobal(v) ? mkVar(v) : (args.get(v) ?? num(0))));
      const formula = and(...atoms);
      this.out.push({ ...base, from: this.pc(e.from), to: this.pc(a.entry), formula, atoms: conjuncts(formula), writes: input.scope.filter((v) => !input.isGlobal(v)), linear: isLinear(formula), stack: { kind: 'push', returnPc: this.pc(e.to) } });
    } else if (a.kind === 'return') {
      const formula = and(eq(mkVar(pcVar), num(this.pc(e.from))), ...guard);
      this.out.push({ ...base, from: this.pc(e.from), to: this.pc(e.from), formula, atoms: conjuncts(formula), writes: [], linear: true, stack: { kind: 'pop', keep: a.keep } });
    }
  }

  /** The path state after edge `e`, or undefined when `e`'s condition is false on the path. */
  step(st: PathState, e: Edge): PathState | undefined {
    const { sectionFlag } = this;
    const a = e.action;
    const ns: PathState = {
      ...st,
      sym: st.sym,
      atoms: st.atoms,
      aux: st.aux,
      steps: e.text ? [...st.steps, { pos: e.pos, text: e.text }] : st.steps,
      first: st.first ?? e,
    };
    const vis = this.visible(e);
    if (vis && !ns.visibleEdge) ns.visibleEdge = e;
    ns.sawVisible ||= vis;
    ns.onlyStable &&= !vis || stable(e);
    const sub = (t: Term): Term => substitute(t, st.sym);
    switch (a.kind) {
      case 'assume': {
        const c = sub(a.cond);
        if (c === FALSE) return undefined;
        if (c !== TRUE) ns.atoms = [...st.atoms, c];
        break;
      }
      case 'assign': {
        if (!this.scopeSet.has(a.target)) fail(e.pos, `internal: assignment to '${a.target}' outside the thread's scope`);
        const value = sub(a.value);
        if (!hasIte(value)) {
          ns.sym = new Map(st.sym).set(a.target, value);
          break;
        }
        // An if-then-else value (an atomic section's `?:`, conditions.ts) gets a name that
        // later steps read: substituted, a run of n such stores that read each other
        // (a store buffer's update) would grow as the product of their reads, not as n.
        const name = `ite!${++this.auxCount}${value.sort === 'array' ? '[]' : ''}`;
        ns.sym = new Map(st.sym).set(a.target, mkVar(name));
        ns.aux = [...st.aux, name];
        ns.atoms = [...st.atoms, eq(mkVar(name), value)];
        break;
      }
      case 'havoc': {
        const name = `nd!${++this.auxCount}${isArrayName(a.target) ? '[]' : ''}`;
        const v = mkVar(name);
        ns.sym = new Map(st.sym).set(a.target, v);
        ns.aux = [...st.aux, name];
        const range: Term[] = [];
        if (a.lo !== undefined) range.push(le(num(a.lo), v));
        if (a.hi !== undefined) range.push(le(v, num(a.hi)));
        ns.atoms = [...st.atoms, ...range];
        break;
      }
      case 'atomicBegin':
        ns.atomic = true;
        if (!sectionFlag) ns.depth = st.depth + 1;
        else if (!this.inside.has(e.from)) ns.sym = new Map(st.sym).set(sectionFlag, num(1));
        break;
      case 'atomicEnd':
        if (sectionFlag) {
          if (this.releases(e)) ns.sym = new Map(st.sym).set(sectionFlag, num(0));
          break;
        }
        if (st.depth === 0) fail(e.pos, '__VERIFIER_atomic_end() without a matching __VERIFIER_atomic_begin()');
        ns.depth = st.depth - 1;
        break;
      case 'skip':
        break;
      case 'call':
      case 'return':
        return fail(e.pos, 'internal: a call or return edge inside a block');
    }
    return ns;
  }
}

const blocking = (e: Edge): boolean => e.action.kind === 'assume' && e.action.blocking;
const stable = (e: Edge): boolean => e.action.kind === 'assume' && e.action.stable === true;

/** The depth-first walk of every path from one cut, within the limits on paths and work. */
class PathWalk {
  private paths = 0;
  private cost = 0;

  constructor(
    private readonly b: BlockBuilder,
    private readonly start: number,
  ) {}

  walk(loc: number, st: PathState, len: number): void {
    const { b, start } = this;
    const cfg = b.input.cfg;
    if ((this.cost += len + 1) > MAX_WORK_PER_CUT) throw new PathExplosion(st.first?.pos ?? cfg.posOf[start]);
    if (len > 0 && b.stopsAt(loc, st)) {
      if (++this.paths > MAX_PATHS_PER_CUT) throw new PathExplosion(st.first?.pos ?? cfg.posOf[start]);
      b.emit(start, loc, st);
      return;
    }
    for (const e of cfg.out[loc]) {
      const next = b.step(st, e);
      if (next) this.walk(e.to, next, len + 1);
    }
  }
}

/**
 * The lowering's entry: a Lowering builds every thread's CFG (lower/thread.ts), which
 * are folded into large-block transitions (program/blocks.ts) and assembled into the
 * Program with φ_init and φ_err.
 */
import type { Expr, TranslationUnit } from '../ast.js';
import { buildTransitions, NeedsAtomicFlag } from '../../program/blocks.js';
import { unsupported } from '../../program/diagnostics.js';
import { errorFormula, type Program, type Thread, type Transition } from '../../program/program.js';
import { and, eq, isArrayName, mkVar, num, type Term } from '../../solver/formula.js';
import type { ThreadBuilder } from './builder.js';
import { threadCondition } from './thread.js';
import { Lowering, type LowerOptions } from './translation-unit.js';

/** The program from the threads' CFGs: large-block transitions, φ_init, φ_err. */
function assemble(L: Lowering, builders: ThreadBuilder[]): Program {
  for (const b of builders) {
    const inst = b.inst;
    // Thread termination: set the done flag if somebody joins this thread.
    if (inst.joined) {
      const done = L.ghost(`__done.${inst.name}`);
      b.cfg.edge(b.preExit, b.exit, { kind: 'assign', target: done, value: num(1) }, inst.fn.pos, `${inst.name} exits`);
    } else b.cfg.edge(b.preExit, b.exit, { kind: 'skip' }, inst.fn.pos, '');
  }
  try {
    return assembleThreads(L, builders);
  } catch (e) {
    if (!(e instanceof NeedsAtomicFlag)) throw e;
  }
  // An atomic section too wide to fold: every thread is built again, respecting the flag (blocks.ts).
  return assembleThreads(L, builders, L.ghost('__atomic'));
}

function assembleThreads(L: Lowering, builders: ThreadBuilder[], atomicFlag?: string): Program {
  const threads: Thread[] = [];
  const init: Term[] = [];
  let id = 0;
  for (const b of builders) {
    const inst = b.inst;
    const pc = `${inst.name}.pc`;
    L.addVar({ name: pc, owner: inst.index, role: 'pc', unsigned: true, bool: false, cname: 'pc' });
    const built = buildTransitions({
      cfg: b.cfg,
      entry: b.entry,
      thread: inst.index,
      pcVar: pc,
      scope: [...L.globals, ...b.locals],
      isGlobal: (v) => L.isGlobal(v),
      guard: L.halting ? eq(mkVar(L.halting), num(0)) : undefined,
      largeBlocks: L.opts.largeBlocks ?? true,
      cuts: L.opts.keepLabels ? new Set(b.labelLocs.values()) : undefined,
      atomicFlag,
      deadline: L.opts.deadline,
    });
    const labels = new Map([...b.labelLocs].flatMap(([name, loc]) => (built.pcOf.has(loc) ? [[name, built.pcOf.get(loc)!] as const] : [])));
    const transitions: Transition[] = built.transitions.map((t) => ({ ...t, id: id++ }));
    threads.push({
      index: inst.index,
      name: inst.name,
      fn: inst.fn.decl.name!,
      pc,
      locals: [pc, ...b.locals],
      locations: built.locations,
      entryPc: 0,
      errorPc: built.locations.find((l) => l.kind === 'error')?.pc,
      startedAtInit: inst.startedAtInit,
      ...(L.opts.keepLabels && { labels }),
      ...(inst.replicated && { replicated: true }),
      transitions,
    });
    init.push(eq(mkVar(pc), num(0)));
    for (const [v, val] of b.initValues) init.push(eq(mkVar(v), num(val)));
  }
  // A region's array starts with any contents: nothing reaches it before its allocation (pointers.ts).
  for (const g of L.globals) if (!isArrayName(g)) init.push(eq(mkVar(g), num(L.globalInit.get(g) ?? 0n)));
  // Variables are global or owned by one thread; both are needed to read the frame.
  return {
    file: L.tu.file,
    vars: L.vars,
    globals: L.globals,
    threads,
    init: and(...init),
    err: errorFormula(threads),
    warnings: L.warnings,
    instanceBound: L.boundedLoops ? L.opts.maxInstances : undefined,
  };
}


/** Lowerings after the first that may be needed until the points-to solution covers the program. */
const MAX_POINTER_RUNS = 6;

/**
 * The lowering that built the program, and the program. A program with run-time
 * pointers is lowered again: the first run gathers the points-to analysis
 * (points-to.ts), which the next reads. Usually the second run is final; one that
 * inlines more (calls through function pointers) runs again until its solution
 * covers what it lowered.
 */
function lowering(tu: TranslationUnit, opts: LowerOptions): { L: Lowering; program: Program } {
  let L = new Lowering(tu, opts);
  const builders = L.buildThreads();
  if (!L.pointers.used) return { L, program: assemble(L, builders) };
  for (let run = 1; ; run++) {
    L = new Lowering(tu, opts, L.pointers);
    const bs = L.buildThreads();
    if (L.pointers.consistent()) return { L, program: assemble(L, bs) };
    if (run === MAX_POINTER_RUNS)
      unsupported({ file: tu.file, line: 1, col: 1 }, `pointers whose targets the points-to analysis did not settle in ${MAX_POINTER_RUNS} runs of the lowering`);
  }
}

/**
 * A lowering kept for reading conditions in a thread's scope after the program is
 * built (threadCondition). It is a lowering of its own: a rejected condition may have
 * declared a temporary, which must not become a variable of the program.
 */
export function conditionReader(tu: TranslationUnit, opts: LowerOptions = {}): ConditionReader {
  const { L } = lowering(tu, opts);
  return {
    condition: (thread, locals, e) => threadCondition(L, L.instances[thread], locals, e),
    pointee: (variable, value) => (L.pointerVarType(variable) === undefined ? undefined : value === 0n ? '' : (L.pointers.cellAt(value)?.name ?? null)),
  };
}

export interface ConditionReader {
  condition(thread: number, locals: ReadonlyMap<string, string>, e: Expr): Term;
  /** For a pointer variable's value: '' for NULL, the IR variable of the cell it points to, or null (no cell: an integer, a function, one past an end); undefined for a variable that is not a pointer. */
  pointee(variable: string, value: bigint): string | null | undefined;
}

/** Lowers a parsed translation unit to the transition-system IR. */
export function lowerProgram(tu: TranslationUnit, opts: LowerOptions = {}): Program {
  return lowering(tu, opts).program;
}

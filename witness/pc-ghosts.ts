/**
 * Control-position ghosts of correctness witnesses: `rely_pc_T` says which statement
 * thread T executed last, so that an invariant of one thread can say where the others
 * are (mutual exclusion: "while I am in my critical section, T is not in its own").
 *
 * Writing: every statement position that the steps of exactly one thread T execute
 * (not a function several threads run: an update there would be done by each of them;
 * not a function's head, which stands for both the thread's start and its end) gets
 * the update `rely_pc_T = k`, k a number of its own for each position (1, 2, … in
 * source order; 0 before T's first step). A step executes a block of statements: the
 * updates are done in their order (ghosts.ts), so after the step the ghost names its
 * last statement with an update. The two outcomes of a branch execute the same
 * condition, so they set the same k: which way T went shows only from its next
 * statement on. The ghost is an ordinary 2.1 ghost (a constant set at a location), read
 * by ghosts.ts like every other; the writer instruments the program with the very
 * reading (withGhosts) before it explores it, so the values its invariants give the
 * ghost are the ones the reader's program gives it.
 */
import { comparePos, type SourcePos } from '../program/diagnostics.js';
import type { Program } from '../program/program.js';
import type { ReadableProgram } from '../frontend/index.js';
import type { GhostInstrumentation, ReadGhosts } from './format.js';
import { functionAt, positionKey, stepPositions } from './locations.js';
import { byLocation } from './ghosts.js';

type Functions = ReadableProgram['functions'];


/** The pc ghosts of `p` (C names apart from `taken`), as written and as the reader reads them. */
export function pcGhostsOf(p: Program, functions: Functions, fileName: string, taken: ReadonlySet<string>): { instrumentation: GhostInstrumentation; read: ReadGhosts } {
  // Per position: the threads whose steps execute a statement there.
  const at = new Map<string, { pos: SourcePos; threads: Set<number> }>();
  const heads = new Set(functions.map((f) => positionKey(f.pos)));
  for (const t of p.threads.flatMap((th) => th.transitions))
    for (const pos of stepPositions(t).filter((q) => !heads.has(positionKey(q)))) {
      if (!at.has(positionKey(pos))) at.set(positionKey(pos), { pos, threads: new Set() });
      at.get(positionKey(pos))!.threads.add(t.thread);
    }
  const variables: GhostInstrumentation['ghost_variables'][number][] = [];
  const updates: { pos: SourcePos; variable: string; value: string }[] = [];
  const used = new Set(taken);
  for (const th of p.threads) {
    if (th.replicated) continue;
    const own = [...at.values()].filter((x) => x.threads.size === 1 && x.threads.has(th.index)).map((x) => x.pos).sort(comparePos);
    if (own.length === 0) continue;
    let name = `rely_pc_${th.name}`.replace(/\W/g, '_');
    while (used.has(name)) name += '_';
    used.add(name);
    variables.push({ name, scope: 'global', type: 'int', initial: { value: '0', format: 'c_expression' } });
    own.forEach((pos, k) => updates.push({ pos, variable: name, value: `${k + 1}` }));
  }
  updates.sort((a, b) => comparePos(a.pos, b.pos));
  const ghost_updates = updates.map(({ pos, variable, value }) => ({
    location: { file_name: fileName, line: pos.line, column: pos.col, function: functionAt(functions, pos) },
    updates: [{ variable, value, format: 'c_expression' as const }],
  }));
  // As read from a witness file (positions in the witness: none, so its own first line).
  const w: SourcePos = { file: fileName, line: 1, col: 1 };
  const read: ReadGhosts = {
    variables: variables.map((v) => ({ name: v.name, type: v.type, scope: v.scope, initial: { text: v.initial.value, at: w }, at: w })),
    updates: updates.map(({ pos, variable, value }) => ({ location: { line: pos.line, column: pos.col, at: w }, variable, value: { text: value, at: w }, at: w })),
  };
  return { instrumentation: { ghost_variables: variables, ghost_updates }, read };
}

/** Two sets of ghosts as one (their names apart): the updates at one location together. */
export function bothGhosts(a: GhostInstrumentation, b: GhostInstrumentation): GhostInstrumentation {
  const at = new Map<string, GhostInstrumentation['ghost_updates'][number]>();
  for (const u of [...a.ghost_updates, ...b.ghost_updates]) {
    const k = `${u.location.line}:${u.location.column}`;
    const before = at.get(k);
    at.set(k, before ? { ...before, updates: [...before.updates, ...u.updates] } : u);
  }
  const ghost_updates = [...at.values()].sort(byLocation);
  return { ghost_variables: [...a.ghost_variables, ...b.ghost_variables], ghost_updates };
}

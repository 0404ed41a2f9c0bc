/** Renders a `Program` as readable text, JSON, or SMT-LIB 2. */
import { and, primed, show, smtSortOfName, smtSymbol, toSmt } from '../solver/formula.js';
import { showPos } from './diagnostics.js';
import { effectAtoms, fullFormula, type Program, type Transition } from './program.js';

const where = (t: Transition): string => `${t.pos.file}:${t.pos.line}`;

export function programText(p: Program): string {
  const lines: string[] = [];
  const nTrans = p.threads.reduce((n, t) => n + t.transitions.length, 0);
  lines.push(`program ${p.file}: ${p.threads.length} threads, ${p.globals.length} globals, ${nTrans} transitions`);
  lines.push(`globals: ${p.globals.join(', ') || '(none)'}`);
  for (const th of p.threads) {
    const start = th.startedAtInit ? 'running at init' : `started by pthread_create (__started.${th.name})`;
    lines.push(`thread ${th.index} ${th.name} (function ${th.fn}, ${start})`);
    lines.push(`  locals: ${th.locals.join(', ')}`);
    const locs = th.locations.map((l) => `${l.pc}${l.kind === 'block' ? '' : ` ${l.kind}`}${l.pos ? `@${l.pos.line}` : ''}`);
    lines.push(`  locations: ${locs.join(', ')}`);
  }
  lines.push(`init: ${show(p.init)}`);
  lines.push(`err: ${show(p.err)}`);
  lines.push('transitions (variables not mentioned keep their values):');
  for (const th of p.threads)
    for (const t of th.transitions) {
      const stack = t.stack?.kind === 'push' ? `call, returns to pc ${t.stack.returnPc}` : t.stack ? `return${t.stack.keep.length ? `, keeps ${t.stack.keep.join(', ')}` : ''}` : '';
      const flags = [t.atomic ? 'atomic' : '', t.linear ? '' : 'nonlinear', stack]
        .filter(Boolean)
        .join(',');
      const aux = t.aux.length ? ` exists ${t.aux.join(', ')}:` : '';
      const to = t.stack?.kind === 'pop' ? 'caller' : String(t.to);
      lines.push(`  t${t.id} ${th.name} ${where(t)} pc ${t.from} -> ${to}${flags ? ` [${flags}]` : ''}:${aux} ${show(and(...effectAtoms(t)))}`);
    }
  for (const w of p.warnings) lines.push(`warning: ${showPos(w.pos)}: ${w.message}`);
  return lines.join('\n') + '\n';
}

export function programJson(p: Program): unknown {
  return {
    file: p.file,
    globals: p.globals,
    vars: [...p.vars.values()].map((v) => ({ name: v.name, owner: v.owner, role: v.role, unsigned: v.unsigned, bool: v.bool, cname: v.cname })),
    threads: p.threads.map((th) => ({
      index: th.index,
      name: th.name,
      function: th.fn,
      pc: th.pc,
      locals: th.locals,
      startedAtInit: th.startedAtInit,
      entryPc: th.entryPc,
      errorPc: th.errorPc ?? null,
      locations: th.locations.map((l) => ({ pc: l.pc, kind: l.kind, line: l.pos?.line ?? null })),
      transitions: th.transitions.map((t) => ({
        id: t.id,
        from: t.from,
        to: t.to,
        formula: show(t.formula),
        smt: toSmt(t.formula),
        aux: t.aux,
        writes: t.writes,
        file: t.pos.file,
        line: t.pos.line,
        col: t.pos.col,
        steps: t.steps.map((s) => ({ line: s.pos.line, text: s.text })),
        atomic: t.atomic,
        linear: t.linear,
        stack: t.stack ?? null,
      })),
    })),
    init: show(p.init),
    err: show(p.err),
    warnings: p.warnings.map((w) => ({ file: w.pos.file, line: w.pos.line, col: w.pos.col, message: w.message })),
  };
}

/**
 * SMT-LIB 2: constants for V and V', `init` and `err` over V, and one Boolean
 * `t<id>` per transition over V and V' with the full frame (ρ_j^= included).
 */
export function programSmt2(p: Program): string {
  const vars = [...p.vars.keys()];
  const out: string[] = [`; rely transition system for ${p.file}`, '(set-logic ALL)'];
  for (const v of vars) out.push(`(declare-const ${smtSymbol(v)} ${smtSortOfName(v)})`, `(declare-const ${smtSymbol(primed(v))} ${smtSortOfName(v)})`);
  out.push(`(define-fun init () Bool ${toSmt(p.init)})`);
  out.push(`(define-fun err () Bool ${toSmt(p.err)})`);
  for (const th of p.threads)
    for (const t of th.transitions) {
      const body = toSmt(fullFormula(p, t));
      const aux = t.aux.map((a) => `(${smtSymbol(a)} ${smtSortOfName(a)})`).join(' ');
      // A pop's formula is only its guard: the values come from the frame on the stack.
      const stack = t.stack?.kind === 'push' ? ` (call: also pushes a frame returning to pc ${t.stack.returnPc})` : t.stack ? ' (return: the guard only; the frame restores the locals)' : '';
      out.push(`; thread ${th.name}, ${where(t)}, pc ${t.from} -> ${t.stack?.kind === 'pop' ? 'caller' : t.to}${stack}`);
      out.push(`(define-fun ${smtSymbol(`t${t.id}`)} () Bool ${aux ? `(exists (${aux}) ${body})` : body})`);
    }
  return out.join('\n') + '\n';
}

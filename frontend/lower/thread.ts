/**
 * Lowers the C statements one thread instance executes into its control-flow graph:
 * calls are inlined (so recursion is rejected) or kept, conditions become single-atom
 * assume edges, thread creation loops with a constant bound are unrolled, atomic
 * functions and regions are bracketed by atomic markers, and mutexes, joins and thread
 * starts become guards on ghost globals. This module starts a thread's builder and
 * connects the modules that lower its statements, expressions and calls.
 */
import { eq, mkVar, num, type Term } from '../../solver/formula.js';
import type { Expr } from '../ast.js';
import { unsupported } from '../../program/diagnostics.js';
import { ThreadBuilder, type Frame, type Recursion } from './builder.js';
import { call } from './calls.js';
import { threadResult } from './builtins.js';
import { conditionFormula } from './conditions.js';
import { hoistDecl } from './declarations.js';
import { atLvalue } from './places.js';
import { runDestructors } from './keys.js';
import { paramsOf } from './declared-types.js';
import { someNode } from './ast-queries.js';
import { effect, rvalue } from './expressions.js';
import type { FileScope, Instance } from './file-scope.js';
import { stmt } from './statements.js';

const RECURSION: Recursion = { stmt, effect, rvalue, call, atLvalue };

/** The CFG of one thread instance, from its function's body. */
export function buildThread(L: FileScope, inst: Instance): ThreadBuilder {
  const b = new ThreadBuilder(L, inst, RECURSION);
  const { fn } = inst;
  const pos = fn.pos;
  if (!inst.startedAtInit) {
    const flag = L.ghost(`__started.${inst.name}`);
    b.emit({ kind: 'assume', cond: eq(mkVar(flag), num(1)), blocking: true }, pos, `start ${inst.name}`);
  }
  // A thread's end runs its key destructors first (keys.ts); main's return ends the process, which runs none.
  const destructors = inst.index > 0 ? L.keyDestructors() : [];
  const end = destructors.length ? b.cfg.newLoc(pos) : b.preExit;
  const frame: Frame = { fn: fn.decl.name!, prefix: inst.name, retLoc: end, labels: new Map(), retVar: inst.index > 0 ? threadResult(L, inst) : undefined };
  b.frames.push(frame);
  b.scopes.push(new Map());
  const params = paramsOf(L.typeEnv, fn);
  if (inst.index === 0) {
    // The command line is not modelled: main's parameters may be declared, not used.
    for (const p of params) {
      if (!p.name) continue;
      if (someNode(fn.body, (e) => e.k === 'id' && e.name === p.name)) unsupported(p.pos, `main's parameter '${p.name}' (the command line is not modelled)`);
      b.bind(p.name, { k: 'null' });
    }
    for (const { name, init } of L.pointerInitializers()) b.effect({ k: 'assign', op: '=', target: { k: 'id', name, pos: init.pos }, value: init, pos: init.pos });
  }
  else {
    if (params.length > 1) unsupported(pos, `thread function '${frame.fn}' takes ${params.length} parameters (pthread_create passes one)`);
    if (params[0]?.name) b.bind(params[0].name, inst.arg);
  }
  const body = fn.body.k === 'block' ? fn.body.body : [fn.body];
  let hoisting = inst.startedAtInit;
  for (const s of body) {
    if (hoisting && s.k === 'decl' && hoistDecl(b, s.decl)) continue;
    hoisting = false;
    b.stmt(s);
  }
  b.goto(end, fn.pos);
  if (destructors.length) {
    b.cur = end;
    runDestructors(b, destructors, pos);
    b.goto(b.preExit, pos, '');
  }
  b.checkLabels(frame);
  b.checkOnce();
  for (const [name, l] of frame.labels) if (name !== 'ERROR') b.labelLocs.set(name, l.loc);
  b.scopes.pop();
  b.frames.pop();
  return b;
}

/**
 * A side-effect-free condition (conditionFormula) read in the scope of thread `inst`
 * where the C names `locals` denote the given IR variables; other names resolve at
 * file scope, as in C. For invariants and constraints read back from a witness.
 */
export function threadCondition(L: FileScope, inst: Instance, locals: ReadonlyMap<string, string>, e: Expr): Term {
  const b = new ThreadBuilder(L, inst, RECURSION);
  b.prefixOpen = false; // a condition assigns nothing, not even an initial value
  b.frames.push({ fn: inst.fn.decl.name!, prefix: inst.name, retLoc: b.preExit, labels: new Map() });
  b.scopes.push(new Map([...locals].map(([cname, v]) => [cname, b.lookupVar(v)])));
  return conditionFormula(b, e);
}

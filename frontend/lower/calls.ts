/**
 * Calls. A builtin (builtins.ts) is lowered by its table entry; a call of a function
 * the program defines is inlined, with fresh locals per call site (so recursion is
 * rejected), or — with LowerOptions.calls 'keep' — stays a call edge into a body
 * lowered once per thread, which the explicit engines run with a stack.
 */
import type { Expr, FunctionDef } from '../ast.js';
import { fail, unsupported } from '../../program/diagnostics.js';
import { mkVar, num, show, type Term } from '../../solver/formula.js';
import { convertConstant, showType } from '../types.js';
import { assigns, calleeOf, createsObjects, stripCasts, takesAddress, type CallExpr } from './ast-queries.js';
import { callThroughPointer } from './function-pointers.js';
import type { Frame, Proc, ThreadBuilder } from './builder.js';
import { builtin } from './builtins.js';
import { paramsOf, returnTypeOf, type ParamInfo } from './declared-types.js';
import type { Binding } from './file-scope.js';
import { lvalue } from './places.js';
import { namesVariable } from './functions.js';
import { pointerValue, storePointer, type PtrValue } from './pointers.js';
import { convertTo } from './integers.js';

/** Lowers a call: a builtin, else a function of the program (inlined or kept), else through a function pointer, else an error. */
export function call(b: ThreadBuilder, e: CallExpr, wantValue: boolean): Term | undefined {
  const callee = calleeOf(e.callee);
  if (callee.k === 'id' && !namesVariable(b, callee.name, callee.pos)) return callNamed(b, callee.name, e, wantValue);
  return callThroughPointer(b, e, wantValue, (name) => callNamed(b, name, e, wantValue));
}

/** A call of the function named `name` (whatever expression named it). */
function callNamed(b: ThreadBuilder, name: string, e: CallExpr, wantValue: boolean): Term | undefined {
  const defined = b.L.hasBody(name);
  const lib = builtin(name, defined);
  if (lib) return lib.lower(b, { e, name, wantValue });
  if (defined) return keptCall(b, name) ? callKept(b, name, e, wantValue) : inline(b, name, e, wantValue);
  // The thread, semaphore and atomic libraries are refused by name: their functions change what other threads see.
  if (/^(pthread_|sem_|__sync_|__atomic_|atomic_)/.test(name)) return unsupported(e.pos, `${name}`);
  if (b.L.isDeclaredFunction(name)) return unsupported(e.pos, `call of '${name}', which has no body`);
  return fail(e.pos, `call of undeclared function '${name}'`);
}

function checkArity(name: string, params: ParamInfo[], e: CallExpr): void {
  if (params.length !== e.args.length) fail(e.pos, `'${name}' takes ${params.length} argument(s), given ${e.args.length}`);
}

// ---- inlined calls

/** Inlines a call of a function with a body (fresh locals per call site). */
function inline(b: ThreadBuilder, name: string, e: CallExpr, wantValue: boolean): Term | undefined {
  const fn = b.L.functionDef(name)!;
  if (b.frames.some((f) => f.fn === name)) {
    const chain = [...b.frames.map((f) => f.fn), name].join(' → ');
    unsupported(
      e.pos,
      `recursion (${chain}): calls are inlined for this engine; --engine explicit-modular or explicit-global keep calls of functions with int parameters as calls`,
    );
  }
  const params = paramsOf(b.L.typeEnv, fn);
  checkArity(name, params, e);
  // Arguments are evaluated in the caller's scope.
  const bindings = params.map((p, i) => argumentBinding(b, fn, p, e.args[i]));
  const values = params.map((p, i) => {
    const x = bindings[i];
    return x === RUNTIME ? pointerValue(b, e.args[i]) : x.k === 'const' && p.type.k === 'int' ? b.rvalue(e.args[i]) : undefined;
  });
  const atomic = name.startsWith('__VERIFIER_atomic_');
  if (atomic) {
    b.emit({ kind: 'atomicBegin' }, e.pos, `${name}(…) {`);
    b.atomicDepth++;
  }
  const n = (b.inlineCount.get(name) ?? 0) + 1;
  b.inlineCount.set(name, n);
  const prefix = `${b.inst.name}.${name}${n > 1 ? `#${n}` : ''}`;
  const retType = returnTypeOf(b.L.typeEnv, fn);
  const retLoc = b.cfg.newLoc(e.pos);
  const frame: Frame = { fn: name, prefix, retLoc, labels: new Map() };
  const savedTemps = b.liveTemps;
  b.inFrame(frame, () => {
    if ((retType.k === 'int' || retType.k === 'ptr') && wantValue) frame.retVar = (b.declareLocal('return', retType, e.pos) as { name: string }).name;
    const firstLocal = b.locals.length;
    params.forEach((p, i) => bindParam(b, fn, p, values[i], bindings[i], e));
    b.stmt(fn.body);
    b.goto(retLoc, fn.pos, '');
    b.cur = retLoc;
    // The callee's locals are dead after the return: reset them so stale values do not multiply states.
    for (const v of b.locals.slice(firstLocal)) if (v !== frame.retVar) b.emit({ kind: 'assign', target: v, value: num(0) }, e.pos, '');
  });
  b.liveTemps = [...savedTemps, ...(frame.retVar ? [frame.retVar] : [])];
  if (atomic) {
    b.atomicDepth--;
    b.emit({ kind: 'atomicEnd' }, e.pos, '}');
  }
  if (!wantValue) return undefined;
  return frame.retVar ? mkVar(frame.retVar) : undefined;
}

/** A pointer parameter that is a variable of the callee, holding its argument's value. */
const RUNTIME = 'runtime';

/**
 * What a pointer or array parameter denotes: the `&variable`, array or pointer passed,
 * as an alias (no variable, no address: places.ts reads through it), or RUNTIME — a
 * pointer variable of the callee, for a parameter the body assigns or whose argument
 * is a pointer value (pointers.ts). Other parameters get a placeholder constant here;
 * the values of int arguments are evaluated after all of these.
 */
function argumentBinding(b: ThreadBuilder, fn: FunctionDef, p: ParamInfo, a: Expr): Binding | typeof RUNTIME {
  if (p.type.k === 'ptr' || p.type.k === 'array') {
    if (p.name && (assigns(fn.body, p.name) || takesAddress(fn.body, p.name))) return RUNTIME;
    const s = stripCasts(a);
    if (s.k === 'unary' && s.op === '&' && staticLvalue(b, s.arg)) return { k: 'alias', target: lvalue(b, s.arg) };
    // A function designator is a function pointer's value.
    if (s.k === 'id' && !namesVariable(b, s.name, s.pos)) return RUNTIME;
    if (s.k === 'id') {
      const x = b.lookup(s.name, s.pos);
      if (x.k === 'alias' || x.k === 'null') return x;
      if (x.k === 'array') return { k: 'alias', target: x };
    }
    if (b.L.constant(s) === 0n) return { k: 'null' };
    return RUNTIME;
  }
  if (p.type.k === 'thread' || p.type.k === 'mutex' || p.type.k === 'struct') return unsupported(a.pos, `${showType(p.type)} parameter passed by value`);
  return { k: 'const', value: 0n };
}

/** An lvalue that denotes one binding known now: a variable, or an array cell at a constant index. */
function staticLvalue(b: ThreadBuilder, e: Expr): boolean {
  if (e.k === 'id') {
    if (!namesVariable(b, e.name, e.pos)) return false; // a function
    const x = b.lookup(e.name, e.pos);
    return x.k !== 'var' || x.type.k !== 'ptr';
  }
  if (e.k === 'index') return staticLvalue(b, e.base) && (b.L.constant(e.index) !== undefined || (e.index.k === 'id' && b.lookup(e.index.name, e.index.pos).k === 'const'));
  return false;
}

/**
 * Binds a parameter in the callee's frame. An int parameter the body never assigns nor
 * takes the address of, given a constant, is bound to the constant itself (no variable,
 * no state); another int parameter, or a RUNTIME pointer, gets a local; the rest denote
 * their argument binding.
 */
function bindParam(b: ThreadBuilder, fn: FunctionDef, p: ParamInfo, v: Term | PtrValue | undefined, arg: Binding | typeof RUNTIME, e: CallExpr): void {
  if (!p.name) return;
  if (v !== undefined && 'from' in v) {
    // An array parameter is a pointer (C11 6.7.6.3).
    const x = b.declareLocal(p.name, p.type.k === 'array' ? { k: 'ptr', to: p.type.of } : p.type, p.pos);
    b.bind(p.name, x);
    storePointer(b, x, v, e.pos);
  } else if (v?.kind === 'int' && !assigns(fn.body, p.name) && !takesAddress(fn.body, p.name)) {
    b.bind(p.name, { k: 'const', value: convertConstant(v.value, p.type) });
  } else if (v !== undefined) {
    const x = b.declareLocal(p.name, p.type, p.pos);
    b.bind(p.name, x);
    b.assign(x, v, e.pos, `${p.name} = ${show(v)}`);
  } else if (arg !== RUNTIME) b.bind(p.name, arg);
}

// ---- kept calls

/** Whether a call of user function `name` stays a call: see LowerOptions.calls. */
function keptCall(b: ThreadBuilder, name: string): boolean {
  if (!b.L.keepCalls || b.atomicDepth > 0 || name.startsWith('__VERIFIER_atomic_')) return false;
  const fn = b.L.functionDef(name)!;
  if (createsObjects(fn.body, (n) => b.L.functionDef(n)?.body)) return false;
  return paramsOf(b.L.typeEnv, fn).every((p) => p.type.k === 'int') && ['int', 'void'].includes(returnTypeOf(b.L.typeEnv, fn).k);
}

/**
 * A kept call: arguments are evaluated in the caller, then a call edge pushes the
 * caller's locals and enters the callee (lowered once per thread, so recursion is
 * fine); after the return the result is copied into a temporary, since the next
 * call of the same function overwrites its result variable.
 */
function callKept(b: ThreadBuilder, name: string, e: CallExpr, wantValue: boolean): Term | undefined {
  const fn = b.L.functionDef(name)!;
  checkArity(name, paramsOf(b.L.typeEnv, fn), e);
  // Each argument converts to its parameter's type, as C passes it.
  const args = paramsOf(b.L.typeEnv, fn).map((p, i) => (p.type.k === 'int' ? convertTo(b, b.rvalue(e.args[i]), p.type, e.pos) : b.rvalue(e.args[i])));
  const proc = b.procs.get(name) ?? lowerProc(b, name, fn);
  // The call site must have the call as its only edge.
  if (b.cfg.out[b.cur].length) b.emit({ kind: 'skip' }, e.pos, '');
  const cont = b.cfg.newLoc(e.pos);
  const edge = { kind: 'call' as const, fn: name, entry: proc.entry, args: proc.params.map((param, i) => ({ param, value: args[i] })) };
  b.edge(b.cur, cont, edge, e.pos, `${name}(${args.map(show).join(', ')})`);
  b.cur = cont;
  if (!wantValue || !proc.retVar) return undefined;
  const tmp = b.fresh('ret');
  b.assign(tmp, mkVar(proc.retVar), e.pos, '');
  return b.read(tmp, e.pos);
}

/** The body of a kept function, once per thread: from its entry to a return edge. */
function lowerProc(b: ThreadBuilder, name: string, fn: FunctionDef): Proc {
  const entry = b.cfg.newLoc(fn.pos);
  const retLoc = b.cfg.newLoc(fn.pos);
  const proc: Proc = { entry, params: [] };
  b.procs.set(name, proc); // before the body, so that recursive calls find it
  const frame: Frame = { fn: name, prefix: `${b.inst.name}.${name}`, retLoc, labels: new Map(), kept: true };
  const cur = b.cur;
  b.inFrame(frame, () => {
    const retType = returnTypeOf(b.L.typeEnv, fn);
    if (retType.k === 'int') frame.retVar = proc.retVar = (b.declareLocal('return', retType, fn.pos) as { name: string }).name;
    paramsOf(b.L.typeEnv, fn).forEach((p, i) => {
      const x = b.declareLocal(p.name ?? `__param${i}`, p.type, p.pos);
      if (p.name) b.bind(p.name, x);
      proc.params.push((x as { name: string }).name);
    });
    b.cur = entry;
    b.stmt(fn.body);
    b.goto(retLoc, fn.pos, '');
  });
  b.cfg.edge(retLoc, b.cfg.newLoc(), { kind: 'return', fn: name, keep: proc.retVar ? [proc.retVar] : [] }, fn.pos, `return from ${name}`);
  b.cur = cur;
  return proc;
}

/**
 * Thread ids: `pthread_self` and `pthread_equal`. A file that reads ids
 * (FileScope.threadIds; `pthread_detach(pthread_self())` alone needs none) gives every
 * thread instance the id index + 1 (main 1; 0 is no thread, a zero-initialised
 * pthread_t) and every pthread_t an `int` variable holding the id of the thread it
 * names (never read as a C integer, so its type is free). pthread_create stores the
 * new thread's id after starting it, so the thread may run before its creator's store,
 * as POSIX allows (its rationale: the id need not be available before the thread
 * starts). An id is read only where it is compared (`pthread_equal`, or `==` and `!=`
 * of two pthread_t, which glibc's `unsigned long` ids make the same) or stored into
 * another pthread_t; anything else it could be used for (arithmetic, a comparison
 * with a number, printing its value) would see numbers that are not the
 * implementation's, and is refused. The instances of a thread created in a loop
 * without constant bounds share one lowering, hence would share one id: a file that
 * reads ids creates no such threads.
 */
import type { Expr } from '../ast.js';
import { unsupported, type SourcePos } from '../../program/diagnostics.js';
import { eq, gt, lt, mkVar, num, type Term } from '../../solver/formula.js';
import { calleeName, stripCasts } from './ast-queries.js';
import type { ThreadBuilder } from './builder.js';
import type { Binding, Instance } from './file-scope.js';
import { arity, arms, result, type BuiltinCall } from './library.js';
import { place, readPlace } from './places.js';
import { exprCType } from './pointers.js';

/** The id of a thread instance. */
export const idOf = (inst: Instance): Term => num(inst.index + 1);

/** Whether e is a call of `pthread_self` (a builtin whatever the file defines). */
export const isSelf = (e: Expr): boolean => {
  const s = stripCasts(e);
  return s.k === 'call' && calleeName(s) === 'pthread_self';
};

/** Whether e is a pthread_t value: `pthread_self()` or a pthread_t object (not another call's pthread_t result). */
export function isThreadValue(b: ThreadBuilder, e: Expr): boolean {
  const s = stripCasts(e);
  return isSelf(s) || (['id', 'index', 'member', 'unary'].includes(s.k) && exprCType(b, s)?.k === 'thread');
}

/** The value of a pthread_t expression: `pthread_self()`, or a pthread_t (a cell chosen at run time is a case split). */
export function threadValue(b: ThreadBuilder, e: Expr): Term {
  const s = stripCasts(e);
  if (isSelf(s)) {
    arity(s as Extract<Expr, { k: 'call' }>, 0);
    // Not a template's: a file that reads ids creates none (builtins.ts threadCreate).
    return idOf(b.inst);
  }
  if (!isThreadValue(b, s)) return unsupported(e.pos, 'a pthread_t value other than pthread_self() or a pthread_t object');
  return readPlace(b, place(b, s), e.pos, (cell) => mkVar(handleId(cell, e.pos).name));
}

/** The variable holding a handle's id. */
function handleId(cell: Binding, pos: SourcePos): Extract<Binding, { k: 'var' }> {
  const h = cell.k === 'alias' ? cell.target : cell;
  if (h.k !== 'handle') return unsupported(pos, 'a pthread_t value other than pthread_self() or a pthread_t object');
  return h.id ?? unsupported(pos, 'a pthread_t value in a file that calls neither pthread_self nor pthread_equal (only there does a pthread_t hold a thread id)');
}

/**
 * `h = v` for a pthread_t h (a cell an assignment writes). A handle is either written
 * by pthread_create (then joined by the instance it names, known statically) or by
 * assignments (then only compared): one written both ways would be joined by a name
 * the lowering cannot know.
 */
export function storeThreadId(b: ThreadBuilder, cell: Binding, value: Term, pos: SourcePos): void {
  const h = cell.k === 'alias' ? cell.target : cell;
  if (h.k !== 'handle') return unsupported(pos, 'a pthread_t value stored into something other than a pthread_t');
  if (h.slot.inst || h.slot.alternatives) unsupported(pos, 'assignment to a pthread_t that pthread_create also writes');
  h.slot.stored ??= pos;
  b.assign(handleId(h, pos), value, pos);
}

/** After pthread_create started `inst` into handle h: h holds its id (nothing to hold in a file that reads no ids). */
export function storeCreatedId(b: ThreadBuilder, cell: Binding, inst: Instance, pos: SourcePos): void {
  const h = cell.k === 'alias' ? cell.target : cell;
  if (h.k !== 'handle') return;
  if (h.slot.stored) unsupported(pos, 'pthread_create into a pthread_t that an assignment also writes');
  if (h.id) b.assign(h.id, idOf(inst), pos, `${b.L.cname(h.id.name)} = id of ${inst.name}`);
}

/** `pthread_self()`: its value is read where a pthread_t is expected (threadValue); alone, a call without effect. */
export function threadSelf(_b: ThreadBuilder, { e, wantValue }: BuiltinCall): undefined {
  arity(e, 0);
  return wantValue ? unsupported(e.pos, "pthread_self()'s value other than stored into a pthread_t or given to pthread_equal or pthread_detach") : undefined;
}

/** `pthread_equal(a, b)`: 1 if both name the same thread, else 0 (one step: the ids are read together). */
export function threadEqual(b: ThreadBuilder, { e, wantValue }: BuiltinCall): Term | undefined {
  arity(e, 2);
  const x = threadValue(b, e.args[0]);
  const y = threadValue(b, e.args[1]);
  if (!wantValue) return undefined;
  const r = result(b, true, e.pos);
  arms(b, e.pos, [
    [[eq(x, y)], () => r.set(num(1))],
    [[lt(x, y)], () => r.set(num(0))],
    [[gt(x, y)], () => r.set(num(0))],
  ]);
  return r.value();
}

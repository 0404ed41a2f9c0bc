/**
 * The extended programs' constructs: `%` and `/` by constants, the helpers `add` and
 * `put`, an array with computed indices, nondet locals, bounded loops.
 */
import type { Generator } from './generator.js';
import type { AssignmentForm, Scope } from './model.js';

/** The extended programs' assignment forms: remainder and quotient, a call of `add`, a computed array index, a nondet value. */
export function extendedAssignments(g: Generator, s: Scope): AssignmentForm[] {
  const x = g.extras;
  if (!x) return [];
  const bounded = (e: string): string => (g.looping || g.inLoop > 0 ? `(${e}) % 4` : e);
  return [
    [x.arith ? 1 : 0, () => [g.pick(s.vars), `${g.pick(s.vars)} ${g.pick(['%', '/'])} ${g.int(2, 3)}`, undefined]],
    [x.calls ? 1 : 0, () => [g.pick(s.vars), bounded(`add(${g.pick(s.vars)}, ${g.int(0, 2)})`), undefined]],
    [x.array && s.locals.length ? 0.7 : 0, () => [g.pick(s.vars), `arr[${g.pick(s.locals)} % 2]`, undefined]],
  ];
}

/** The extended statements: `put(c)`, a nondet local bounded by an assume, a bounded loop. */
export function extendedStmt(g: Generator, s: Scope, kind: string, indent: number): void {
  switch (kind) {
    case 'put': {
      const c = g.int(0, 3);
      const target = g.extras!.putTarget;
      g.emit(indent, `put(${c});`);
      g.forget(s, target);
      s.facts.set(target, { kind: 'const', value: c });
      g.wrote(target, c);
      return;
    }
    case 'nondet': {
      const l = g.pick(s.locals);
      // Data programs' indices may reach 3, one past `da`'s end. Mostly sums of nondet
      // bools there: finite by their type, so exploration stays exact even when the
      // frontend puts the assume in a step of its own (after a global access).
      if (g.data && g.chance(0.85)) g.emit(indent, `${l} = __VERIFIER_nondet_bool() + ${g.pick(['', '2 * '])}__VERIFIER_nondet_bool();`);
      else {
        g.emit(indent, `${l} = __VERIFIER_nondet_int();`);
        g.emit(indent, `__VERIFIER_assume(0 <= ${l} && ${l} <= ${g.data ? g.int(2, 3) : 2});`);
      }
      g.forget(s, l);
      return;
    }
    case 'loop': {
      s.counter = true;
      const n = g.int(1, 3);
      g.emit(indent, `for (k = 0; k < ${n}; k++) {`);
      const before = new Map(s.facts);
      g.inLoop++;
      g.times *= n;
      g.block(s, 'loop', indent + 1, 1, 2);
      g.times /= n;
      g.inLoop--;
      g.emit(indent, '}');
      // A fact the body changed may hold after one iteration and not after another.
      g.keepAgreeing(s, before);
      return;
    }
  }
}

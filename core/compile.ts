/**
 * IR terms compiled to closures over concrete values: what the interpreter executes.
 * Trace replay (replay.ts) and the explicit-state engines (engines/state-space/execute.ts) run
 * the very formulas the symbolic engines reason about, through this one evaluator.
 */
import { constArrayValue, intValue, selectValue, storeValue, valuesEqual, type ArrayValue, type Term, type Value as VarValue } from '../solver/formula.js';

export type Value = VarValue | boolean;
/** Variables' values by slot: integers (Bool as 0/1), and arrays where the program has arrays of run-time size. */
export type Env = VarValue[];
export type Compiled = (env: Env) => Value;

/** Compiles a term to a closure over an environment indexed by `slot`. */
export function compile(t: Term, slot: (name: string) => number): Compiled {
  switch (t.kind) {
    case 'int': {
      const v = t.value;
      return () => v;
    }
    case 'bool': {
      const v = t.value;
      return () => v;
    }
    case 'var': {
      const i = slot(t.name);
      return t.sort === 'bool' ? (env) => env[i] !== 0n : (env) => env[i];
    }
    case 'app': {
      const a = t.args.map((x) => compile(x, slot));
      switch (t.op) {
        case '+':
          return (env) => a.reduce((s, f) => s + (f(env) as bigint), 0n);
        case '*':
          return (env) => (a[0](env) as bigint) * (a[1](env) as bigint);
        case 'cdiv':
          return (env) => {
            const d = a[1](env) as bigint;
            if (d === 0n) throw new RangeError('division by zero');
            return (a[0](env) as bigint) / d;
          };
        case 'crem':
          return (env) => {
            const d = a[1](env) as bigint;
            if (d === 0n) throw new RangeError('remainder by zero');
            return (a[0](env) as bigint) % d;
          };
        case 'ite':
          return (env) => (a[0](env) ? a[1](env) : a[2](env));
        case '<=':
          return (env) => (a[0](env) as bigint) <= (a[1](env) as bigint);
        case '<':
          return (env) => (a[0](env) as bigint) < (a[1](env) as bigint);
        case 'and':
          return (env) => a.every((f) => f(env));
        case 'or':
          return (env) => a.some((f) => f(env));
        case 'not':
          return (env) => !a[0](env);
        case '=':
          return t.args[0].sort === 'array' ? (env) => valuesEqual(a[0](env), a[1](env)) : (env) => a[0](env) === a[1](env);
        case 'select':
          return (env) => selectValue(a[0](env) as ArrayValue, intValue(a[1](env)));
        case 'store':
          return (env) => storeValue(a[0](env) as ArrayValue, intValue(a[1](env)), intValue(a[2](env)));
        case 'const':
          return (env) => constArrayValue(intValue(a[0](env)));
      }
    }
  }
}

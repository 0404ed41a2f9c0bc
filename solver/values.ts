/** Concrete values of the formula IR's variables: integers (Bool as 0/1) and arrays from Int to Int. */

/** A concrete array: `rest` at every index but those in `at` (never equal to `rest`, so equal arrays print and compare alike). */
export interface ArrayValue {
  readonly rest: bigint;
  readonly at: ReadonlyMap<bigint, bigint>;
}
/** A variable's concrete value: an integer (Bool as 0/1) or an array. */
export type Value = bigint | ArrayValue;

export const constArrayValue = (rest: bigint): ArrayValue => ({ rest, at: new Map() });
export const selectValue = (a: ArrayValue, i: bigint): bigint => a.at.get(i) ?? a.rest;
export function storeValue(a: ArrayValue, i: bigint, v: bigint): ArrayValue {
  const at = new Map(a.at);
  if (v === a.rest) at.delete(i);
  else at.set(i, v);
  return { rest: a.rest, at };
}
export function valuesEqual(a: Value | boolean, b: Value | boolean): boolean {
  if (typeof a !== 'object' || typeof b !== 'object') return a === b;
  return a.rest === b.rest && a.at.size === b.at.size && [...a.at].every(([i, v]) => b.at.get(i) === v);
}
/** An integer value, or an internal error where an array was found (a sort mix-up, never the program's fault). */
export function intValue(v: Value | boolean | undefined, what = 'a value'): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'boolean') return v ? 1n : 0n;
  throw new Error(`internal: ${what} is ${v === undefined ? 'missing' : 'an array'} where an integer is expected`);
}
export function arrayValue(v: Value | boolean): ArrayValue {
  if (typeof v !== 'object') throw new Error('internal: an integer where an array is expected');
  return v;
}
export const showValue = (v: Value): string =>
  typeof v === 'bigint' ? v.toString() : `[${[...[...v.at].sort(([i], [j]) => (i < j ? -1 : 1)).map(([i, x]) => `${i}: ${x}`), `…: ${v.rest}`].join(', ')}]`;

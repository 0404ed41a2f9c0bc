/**
 * Option values shared by engines and commands: their parsers (which throw
 * OptionError with the reason) and the options more than one engine reads.
 */
import { findZ3 } from '../solver/z3-native.js';
import type { SolverChoice } from '../solver/select.js';
import { OptionError, type EngineOption } from './engine.js';

export function parseRange(v: string): [bigint, bigint] {
  const m = /^(-?\d+)\.\.(-?\d+)$/.exec(v.trim());
  if (!m) throw new OptionError('expected LO..HI, e.g. -2..2');
  const lo = BigInt(m[1]);
  const hi = BigInt(m[2]);
  if (lo > hi) throw new OptionError(`empty range ${v}`);
  if (hi - lo > 1000n) throw new OptionError('at most 1001 values');
  return [lo, hi];
}

export function parseCount(v: string): number {
  if (!/^\d+$/.test(v) || Number(v) < 1) throw new OptionError('expected a positive integer');
  return Number(v);
}

export function parseSeed(v: string): number {
  if (!/^\d+$/.test(v) || Number(v) > 0xffffffff) throw new OptionError('expected an integer 0..4294967295');
  return Number(v);
}

export function parseSolver(v: string): SolverChoice {
  if (v !== 'auto' && v !== 'wasm' && v !== 'native') throw new OptionError('expected auto, wasm or native');
  if (v === 'native' && findZ3() === undefined) throw new OptionError('no z3 binary on PATH and RELY_Z3 unset (apt-get install z3)');
  return v;
}

/** `--solver`: the SMT back end of the engines that use one. */
export const solverOption: EngineOption<SolverChoice> = {
  flags: '--solver <auto|wasm|native>',
  description: 'SMT back end; auto takes native z3 when one is on PATH or $RELY_Z3 is set, else wasm',
  default: 'auto',
  parse: parseSolver,
};

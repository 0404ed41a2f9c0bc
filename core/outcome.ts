/**
 * What every engine answers: SAFE only with a proof that was re-checked, UNSAFE only
 * with a trace the interpreter replayed, else UNKNOWN with the reason. A discriminated
 * union, so every caller handles every verdict.
 */
import type { TraceStep } from './trace.js';

/** A verdict without statistics; `P` is the engine's kind of proof. */
export type Outcome<P> =
  | { verdict: 'safe'; proof: P; proofChecked: true }
  | { verdict: 'unsafe'; trace: readonly TraceStep[]; traceReplayed: true }
  | { verdict: 'unknown'; reason: string };

/**
 * Error traces for the monolithic engine. Spacer's `unsat` says an error state is
 * reachable but the Horn interface returns no derivation, and a verdict needs a run
 * the interpreter accepts. So the product program is unrolled: k = 0, 1, 2, …
 * steps, one copy of V per state, until init(V^0) ∧ step(V^0,V^1) ∧ … ∧ err(V^k)
 * is satisfiable; the shortest k exists because the error is reachable, and the
 * caller's deadline bounds the search. The model is replayed (core/path.ts, as
 * aret's counterexamples are) before it is returned.
 */
import { and, eq, mkVar, num, or, rename } from '../solver/formula.js';
import type { SmtSolver } from '../solver/smt.js';
import type { Program, Transition } from '../frontend/program.js';
import { ReplayFailed, SolverUnknown } from '../core/errors.js';
import { at, replayModel, stepFormula } from '../core/path.js';
import type { TraceStep } from '../core/trace.js';

export interface UnrollOptions {
  /** Throws to stop (the run's deadline); called before every query. */
  checkTime: () => void;
  /** Limit for the next query (the time left, capped). */
  queryTimeoutMs: () => number | undefined;
  /** Told each depth that has been shown error-free, for statistics. */
  onDepth?: (k: number) => void;
}

/**
 * Which transition step m takes: its id. The name starts with '#', which no program
 * or aux variable does, so it cannot meet one.
 */
const selector = (m: number): string => at('#step', m);

/**
 * The shortest error trace of `p`, replayed in the interpreter. Runs inside one
 * push/pop of `solver`: the initial states and each step are asserted once, and
 * each depth asks only for err(V^k) on top. Throws SolverUnknown, ReplayFailed, or
 * whatever checkTime throws.
 */
export async function shortestErrorTrace(p: Program, solver: SmtSolver, opts: UnrollOptions): Promise<TraceStep[]> {
  const names = [...p.vars.keys()];
  const transitions = p.threads.flatMap((th) => th.transitions);
  const byId = new Map<number, Transition>(transitions.map((t) => [t.id, t]));
  const auxNames = [...new Set(transitions.flatMap((t) => t.aux))];
  await solver.push();
  try {
    await solver.assert(rename(p.init, (v) => at(v, 0)));
    const wanted = names.map((v) => at(v, 0));
    for (let k = 0; ; k++) {
      opts.checkTime();
      const r = await solver.model([rename(p.err, (v) => at(v, k))], wanted, { timeoutMs: opts.queryTimeoutMs() });
      if (r.status === 'unknown') throw new SolverUnknown(r.reason);
      if (r.status === 'sat') {
        const value = (v: string): bigint => r.model?.get(v) ?? 0n;
        const path = [...Array(k).keys()].map((m) => byId.get(Number(value(selector(m + 1)))));
        if (path.some((t) => t === undefined)) throw new ReplayFailed('internal: the unrolling has a step that takes no transition');
        return replayModel(p, path as Transition[], value);
      }
      opts.onDepth?.(k);
      // Step k+1: some transition, named by the selector, from V^k to V^{k+1}. Aux
      // variables are shared by the disjuncts: only the one taken constrains them.
      const sel = mkVar(selector(k + 1));
      await solver.assert(or(...transitions.map((t) => and(eq(sel, num(t.id)), stepFormula(p, t, k)))));
      wanted.push(selector(k + 1), ...names.map((v) => at(v, k + 1)), ...auxNames.map((a) => at(a, k + 1)));
    }
  } finally {
    await solver.pop();
  }
}

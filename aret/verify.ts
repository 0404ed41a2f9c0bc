/**
 * MAIN (Fig. 6): alternate ABSTREACHENV and REFINE until no error tuple remains
 * (SAFE, with the proof re-checked against CS1–CS5 of Fig. 5 by a fresh solver) or
 * the clauses have no solution (a counterexample, made concrete and replayed by the
 * explorer), else UNKNOWN with the reason.
 */
import { and, not, or, prime, varsOf as collectVars, type Term } from '../solver/formula.js';
import type { SmtSolver } from '../solver/smt.js';
import { fullFormula, type Program } from '../frontend/program.js';
import { explore, type TraceStep } from '../explicit/explore.js';
import { PredicateSet, SolverUnknown } from './abstraction.js';
import { abstReachEnv, findErrorTuple, ownFrame, type Abstraction, type Aret } from './reach-env.js';
import { refine, type Bias } from '../horn/refine.js';

export interface VerifyOptions {
  bias: Bias;
  maxIterations: number;
  /** A fresh solver for the proof check (independent of the one that built the proof). */
  checker: () => SmtSolver;
  hornTimeoutMs?: number;
}

export interface Proof {
  /** R_i and E_i: disjunctions of the final ARET labels. */
  readonly reach: readonly Term[];
  readonly env: readonly Term[];
  /** State predicates only over globals and own locals; environment ones only over globals. */
  readonly modular: boolean;
}

export type Outcome =
  | { verdict: 'safe'; proof: Proof }
  | { verdict: 'unsafe'; trace: readonly TraceStep[] }
  | { verdict: 'unknown'; reason: string };

export type Verdict = Outcome & { iterations: number; predicates: number };

export async function verify(p: Program, solver: SmtSolver, opts: VerifyOptions): Promise<Verdict> {
  const n = p.threads.length;
  const pairs = new Map<string, PredicateSet>();
  const abs: Abstraction = {
    state: p.threads.map(() => new PredicateSet()),
    transition: (i, j) => {
      const k = `${i}>${j}`;
      let s = pairs.get(k);
      if (!s) pairs.set(k, (s = new PredicateSet()));
      return s;
    },
  };
  const count = () => abs.state.reduce((a, s) => a + s.all.length, 0) + [...pairs.values()].reduce((a, s) => a + s.all.length, 0);
  for (let iteration = 1; iteration <= opts.maxIterations; iteration++) {
    const done = (v: Outcome): Verdict => ({ ...v, iterations: iteration, predicates: count() });
    try {
      const aret = await abstReachEnv(p, abs, solver);
      const tuple = await findErrorTuple(p, aret, solver);
      if (!tuple) {
        const proof = proofOf(p, aret, n);
        const failed = await checkProof(p, proof, opts.checker());
        return failed ? done({ verdict: 'unknown', reason: `proof check failed: ${failed}` }) : done({ verdict: 'safe', proof });
      }
      const r = await refine(p, tuple, abs, solver, opts.bias, opts.hornTimeoutMs);
      if (r.kind === 'stuck') return done({ verdict: 'unknown', reason: r.reason });
      if (r.kind === 'counterexample') {
        const found = explore(p, { maxStates: 200_000 });
        if (found.errorReachable) return done({ verdict: 'unsafe', trace: found.trace! });
        return done({ verdict: 'unknown', reason: 'refinement found a counterexample the explorer could not reproduce within its bounds' });
      }
    } catch (e) {
      if (e instanceof SolverUnknown) return done({ verdict: 'unknown', reason: e.message });
      throw e;
    }
  }
  return { verdict: 'unknown', reason: `no verdict after ${opts.maxIterations} refinement iterations`, iterations: opts.maxIterations, predicates: count() };
}

function proofOf(p: Program, aret: Aret, n: number): Proof {
  const reach = aret.states.map((ss) => or(...ss.map((s) => s.formula)));
  const env = aret.env.map((es) => or(...es.map((e) => e.formula)));
  const globals = new Set(p.globals);
  const modular = Array.from({ length: n }, (_, i) => i).every((i) => {
    const own = new Set([...globals, ...p.threads[i].locals]);
    const varsIn = (t: Term, ok: (v: string) => boolean) => [...collectVars(t)].every(ok);
    return varsIn(reach[i], (v) => own.has(v)) && varsIn(env[i], (v) => globals.has(v.replace(/'$/, '')));
  });
  return { reach, env, modular };
}



/** CS1–CS5 of Fig. 5, each as a fresh entailment query; returns the first that fails. */
export async function checkProof(p: Program, proof: Proof, checker: SmtSolver): Promise<string | undefined> {
  const { reach: R, env: E } = proof;
  const valid = async (name: string, premise: Term, conclusion: Term): Promise<string | undefined> => {
    const r = await checker.entails(premise, conclusion);
    return r === true ? undefined : `${name} ${r === 'unknown' ? 'undecided' : 'does not hold'}`;
  };
  try {
    for (const [i, th] of p.threads.entries()) {
      const fail =
        (await valid(`CS1 (thread ${th.name})`, p.init, R[i])) ??
        (await valid(`CS3 (thread ${th.name})`, and(R[i], E[i], ownFrame(p, i)), prime(R[i])));
      if (fail) return fail;
      for (const t of th.transitions) {
        const rho = fullFormula(p, t);
        const f = await valid(`CS2 (transition t${t.id})`, and(R[i], rho), prime(R[i]));
        if (f) return f;
        for (let j = 0; j < p.threads.length; j++)
          if (j !== i) {
            const g = await valid(`CS4 (t${t.id} into E of ${p.threads[j].name})`, and(R[i], rho), E[j]);
            if (g) return g;
          }
      }
    }
    return await valid('CS5', and(...R, p.err), not(and())); // ⋀R_i ∧ φ_err ⇒ false
  } finally {
    await checker.close();
  }
}

/**
 * Local state made shared (Cohen–Namjoshi §3.6 and §4): a new shared variable b whose
 * value is always a function e(L_k) of one thread's locals. b = e(L_k) initially, the
 * thread's transitions set b' = e(L_k'), every other thread's keep b' = b; so
 * b ≡ e(L_k) is an invariant and the program's runs are the old ones with b along.
 * The property's atoms over a thread's locals read such copies (§3.6: the property
 * must be over shared state), and each refinement adds such booleans (§4).
 */
import { and, eq, ite, mkVar, num, prime, primed, substitute, type Term } from '../../solver/formula.js';
import type { Program, VarInfo } from '../../program/program.js';

export interface Shadow {
  /** The new shared variable. */
  readonly name: string;
  readonly thread: number;
  /** e(L_k): a term over the thread's locals (a predicate for a boolean copy). */
  readonly value: Term;
  /** A predicate, kept as 0/1. */
  readonly bool: boolean;
}

/** `p` with each shadow's variable added (shared, initial value and updates as above). */
export function withShadows(p: Program, shadows: readonly Shadow[]): Program {
  if (!shadows.length) return p;
  const valueOf = (s: Shadow): Term => (s.bool ? ite(s.value, num(1), num(0)) : s.value);
  const vars = new Map<string, VarInfo>(p.vars);
  for (const s of shadows) vars.set(s.name, { name: s.name, owner: null, role: 'ghost', unsigned: s.bool, bool: s.bool, cname: s.name });
  const threads = p.threads.map((th) => ({
    ...th,
    transitions: th.transitions.map((t) => {
      const extra = shadows.map((s) => eq(mkVar(primed(s.name)), s.thread === th.index ? prime(valueOf(s)) : mkVar(s.name)));
      const formula = and(t.formula, ...extra);
      const own = shadows.filter((s) => s.thread === th.index).map((s) => s.name);
      return { ...t, formula, atoms: [...t.atoms, ...extra], writes: [...t.writes, ...own] };
    }),
  }));
  return {
    ...p,
    vars,
    globals: [...p.globals, ...shadows.map((s) => s.name)],
    threads,
    init: and(p.init, ...shadows.map((s) => eq(mkVar(s.name), valueOf(s)))),
  };
}

/**
 * The atoms' locals made shared: each local a term mentions gets a copy (`__seen.<v>`),
 * and the terms read the copies. Returns the shadows and the rewritten terms.
 */
export function exposeLocals(p: Program, terms: readonly Term[], vars: (t: Term) => Iterable<string>): { shadows: Shadow[]; terms: Term[] } {
  const shadows = new Map<string, Shadow>();
  for (const t of terms)
    for (const v of vars(t)) {
      const owner = p.vars.get(v)?.owner;
      if (owner === null || owner === undefined || shadows.has(v)) continue;
      shadows.set(v, { name: `__seen.${v}`, thread: owner, value: mkVar(v), bool: false });
    }
  const map = new Map([...shadows].map(([v, s]) => [v, mkVar(s.name)] as const));
  return { shadows: [...shadows.values()], terms: terms.map((t) => substitute(t, map)) };
}

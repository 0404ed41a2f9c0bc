/**
 * L* (Angluin) with Rivest and Schapire's counterexample analysis, as Cobleigh's
 * thesis §3.3 (Fig. 3.17) states it: an observation table ⟨S, E, T⟩ filled by
 * membership queries, closed by moving rows of S·Σ into S, a candidate DFA conjectured
 * to the teacher, and from a counterexample c one suffix added to E — the r of c = p·a·r
 * where the answers α_i (run the candidate on the first i events to a row s, query s·r)
 * change, found by binary search in log |c| queries. The rows of S stay pairwise
 * distinct, so no consistency check is needed and at most (states − 1) conjectures are
 * made. A table from an earlier run over the same letters may seed S and E: its words
 * stay, their answers are asked again (rows that became equal are merged).
 */
import type { Budget } from '../../core/budget.js';

/** A word: events, as indices into the alphabet. */
export type Word = readonly number[];

/** A complete DFA over events 0..alphabet−1: state 0 is initial. */
export interface Dfa {
  readonly alphabet: number;
  readonly accepting: readonly boolean[];
  /** next[q][a]. */
  readonly next: readonly (readonly number[])[];
}

/** The minimally adequate teacher: membership queries and conjectures (null: correct, else a counterexample in the symmetric difference). */
export interface Teacher {
  member(w: Word): boolean;
  conjecture(candidate: Dfa): Word | null;
}

export interface LearnStats {
  readonly queries: number;
  readonly conjectures: number;
}

/** The words of an observation table: access strings S (ε first) and suffixes E (ε first). */
export interface Table {
  readonly S: readonly Word[];
  readonly E: readonly Word[];
}

/** One conjecture and what its counterexample added (for diagnostics). */
export interface ConjectureNote extends LearnStats {
  readonly states: number;
  readonly suffixes: number;
  /** The counterexample's length and the suffix added to E; absent for the last conjecture. */
  readonly counterexample?: number;
  readonly suffix?: number;
}

export interface LearnResult {
  readonly dfa: Dfa;
  readonly stats: LearnStats;
  /** The final table, to seed a later run. */
  readonly table: Table;
}

export interface LearnOptions {
  readonly budget?: Budget;
  readonly seed?: Table;
  readonly onConjecture?: (note: ConjectureNote) => void;
}

/** The state a DFA reaches on `w`. */
export function run(d: Dfa, w: Word, from = 0): number {
  let q = from;
  for (const a of w) q = d.next[q][a];
  return q;
}

export function accepts(d: Dfa, w: Word): boolean {
  return d.accepting[run(d, w)];
}

/** Fig. 3.17 with the Rivest–Schapire analysis; `budget` is checked per row of the table closed (it throws). */
export function lstar(alphabet: number, teacher: Teacher, { budget, seed, onConjecture }: LearnOptions = {}): LearnResult {
  const answers = new Map<string, boolean>();
  let queries = 0;
  const member = (w: Word): boolean => {
    const key = w.join(',');
    let r = answers.get(key);
    if (r === undefined) {
      queries++;
      answers.set(key, (r = teacher.member(w)));
    }
    return r;
  };
  const fits = (w: Word): boolean => w.every((a) => a < alphabet);
  const E: Word[] = [[], ...(seed?.E.slice(1).filter(fits) ?? [])];
  const row = (s: Word): string => E.map((e) => (member([...s, ...e]) ? '1' : '0')).join('');
  const S: Word[] = [[]];
  const rows = new Set([row([])]);
  for (const s of seed?.S.slice(1).filter(fits) ?? []) {
    budget?.check();
    const r = row(s);
    if (!rows.has(r)) (rows.add(r), S.push(s));
  }
  let conjectures = 0;
  const stats = (): LearnStats => ({ queries, conjectures });
  for (;;) {
    // Close the table: every row of S·Σ is some row of S.
    const index = new Map<string, number>();
    S.forEach((s, k) => index.set(row(s), k));
    const next: number[][] = [];
    for (let k = 0; k < S.length; k++) {
      budget?.check();
      const out: number[] = [];
      for (let a = 0; a < alphabet; a++) {
        const sa = [...S[k], a];
        const r = row(sa);
        let target = index.get(r);
        if (target === undefined) {
          target = S.length;
          S.push(sa);
          index.set(r, target);
        }
        out.push(target);
      }
      next.push(out);
    }
    const candidate: Dfa = { alphabet, accepting: S.map((s) => member(s)), next };
    conjectures++;
    const c = teacher.conjecture(candidate);
    const note = { ...stats(), states: S.length, suffixes: E.length };
    if (c === null) {
      onConjecture?.(note);
      return { dfa: candidate, stats: stats(), table: { S, E } };
    }
    if (member(c) === accepts(candidate, c)) throw new Error(`internal: the teacher's counterexample ${c.join(' ')} is not one`);
    // α_i: the answer for S[state after c[0..i)] · c[i..]; α_0 = member(c) differs from α_|c| = candidate's verdict.
    const alpha = (i: number): boolean => member([...S[run(candidate, c.slice(0, i))], ...c.slice(i)]);
    let lo = 0;
    let hi = c.length;
    const first = alpha(0);
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (alpha(mid) === first) lo = mid;
      else hi = mid;
    }
    E.push(c.slice(hi));
    onConjecture?.({ ...note, counterexample: c.length, suffix: c.length - hi });
  }
}

/**
 * Control-flow graph of one thread instance: locations joined by edges that each do
 * one primitive action. Built by the lowering (lower/builder.ts), folded into
 * large-block transitions by blocks.ts.
 */
import { varsOf, type Term } from '../solver/formula.js';
import type { SourcePos } from './diagnostics.js';

export type Action =
  /**
   * Blocks unless the single atom holds. `blocking` marks user assumes / waits, not
   * branches. `stable`: once the atom holds it holds for ever (a join: the joined
   * thread's done flag, which only its exit sets, to 1), so blocks.ts may fold
   * consecutive ones into one step.
   */
  | { kind: 'assume'; cond: Term; blocking: boolean; stable?: boolean }
  | { kind: 'assign'; target: string; value: Term }
  /** Nondeterministic value within optional bounds (C type of the nondet call). */
  | { kind: 'havoc'; target: string; lo?: bigint; hi?: bigint }
  /**
   * A kept procedure call (`calls: 'keep'`): pushes the caller's locals (returning to
   * the edge's target) and enters `entry` with the parameters bound and every other
   * local of the thread zero.
   */
  | { kind: 'call'; fn: string; entry: number; args: readonly { param: string; value: Term }[] }
  /** Return of a kept call: pops the caller's locals back, but for the callee's result `keep`. */
  | { kind: 'return'; fn: string; keep: readonly string[] }
  | { kind: 'atomicBegin' }
  | { kind: 'atomicEnd' }
  | { kind: 'skip' };

/** Variables an action reads or writes. */
export function actionVars(a: Action): Set<string> {
  const vs = new Set<string>();
  if (a.kind === 'assign') {
    vs.add(a.target);
    varsOf(a.value, vs);
  } else if (a.kind === 'havoc') vs.add(a.target);
  else if (a.kind === 'assume') varsOf(a.cond, vs);
  else if (a.kind === 'call') for (const x of a.args) varsOf(x.value, vs);
  return vs;
}

export interface Edge {
  readonly from: number;
  readonly to: number;
  readonly action: Action;
  readonly pos: SourcePos;
  readonly text: string;
}

export class Cfg {
  readonly out: Edge[][] = [];
  readonly posOf: (SourcePos | undefined)[] = [];
  /** Locations that end the thread (exit, error, halt) with their kind. */
  readonly terminal = new Map<number, 'exit' | 'error' | 'halt'>();

  newLoc(pos?: SourcePos): number {
    this.out.push([]);
    this.posOf.push(pos);
    return this.out.length - 1;
  }

  edge(from: number, to: number, action: Action, pos: SourcePos, text: string): void {
    this.out[from].push({ from, to, action, pos, text });
  }

  /** Whether some path of edges leads from `from` to `to`. */
  reaches(from: number, to: number): boolean {
    const seen = new Set([from]);
    const work = [from];
    while (work.length)
      for (const e of this.out[work.pop()!]) {
        if (e.to === to) return true;
        if (seen.has(e.to)) continue;
        seen.add(e.to);
        work.push(e.to);
      }
    return false;
  }

  /**
   * Locations that are targets of DFS back edges from the `roots` (the thread's entry
   * and the entries of its kept procedures): every cycle contains one.
   */
  loopHeads(roots: readonly number[]): Set<number> {
    const heads = new Set<number>();
    const state = new Uint8Array(this.out.length); // 0 new, 1 on stack, 2 done
    const stack: [number, number][] = [];
    const push = (loc: number): void => {
      state[loc] = 1;
      stack.push([loc, 0]);
    };
    for (const root of roots) {
      if (state[root] === 0) push(root);
      this.dfs(stack, state, heads, push);
    }
    return heads;
  }

  private dfs(stack: [number, number][], state: Uint8Array, heads: Set<number>, push: (loc: number) => void): void {
    while (stack.length) {
      const top = stack[stack.length - 1];
      const [loc, i] = top;
      if (i < this.out[loc].length) {
        top[1]++;
        const to = this.out[loc][i].to;
        if (state[to] === 1) heads.add(to);
        else if (state[to] === 0) push(to);
      } else {
        state[loc] = 2;
        stack.pop();
      }
    }
  }
}

/**
 * LTL to Büchi automata: the tableau construction of Gerth, Peled, Vardi
 * and Wolper ("Simple on-the-fly automatic verification of linear temporal logic",
 * PSTV 1995) from a formula in negation normal form to a generalized Büchi automaton
 * (one acceptance set per U subformula), then the usual counter degeneralization to a
 * Büchi automaton. Liveness checking builds it for the negated property: a fair run
 * of the program that the automaton accepts is a counterexample.
 *
 * Transitions are labelled by the literals their target requires (GPVW's state
 * labels moved onto the edges into the state), so a run reads one letter per step;
 * an initial pseudo-state starts every run.
 */
import type { Lasso, Nnf } from './ltl.js';

/** A literal: an atom that must hold (positive) or must not. */
export interface Literal {
  readonly atom: string;
  readonly positive: boolean;
}

export interface Buchi {
  /** States 0..size-1; state 0 is the initial one. */
  readonly size: number;
  /** Edges: from, to, and the literals the letter read must satisfy. */
  readonly edges: readonly { readonly from: number; readonly to: number; readonly label: readonly Literal[] }[];
  readonly accepting: ReadonlySet<number>;
}

const key = (f: Nnf): string => {
  switch (f.op) {
    case 'true':
    case 'false':
      return f.op;
    case 'lit':
      return `${f.positive ? '' : '!'}{${f.atom}}`;
    case 'X':
      return `X(${key(f.arg)})`;
    default:
      return `(${key(f.left)} ${f.op} ${key(f.right)})`;
  }
};

/** A tableau node of GPVW: obligations still to expand (New), expanded (Old), for the next state (Next), its predecessors. */
interface Node {
  incoming: Set<number>;
  fresh: Nnf[];
  old: Map<string, Nnf>;
  next: Map<string, Nnf>;
}

/** GPVW's expansion; returns the tableau's nodes (Old sets, Next sets, incoming edges; -1 is the initial pseudo-node). */
function tableau(f: Nnf): { old: Map<string, Nnf>; incoming: Set<number> }[] {
  const done: { old: Map<string, Nnf>; next: Map<string, Nnf>; incoming: Set<number> }[] = [];
  const stack: Node[] = [{ incoming: new Set([-1]), fresh: [f], old: new Map(), next: new Map() }];
  while (stack.length) {
    const q = stack.pop()!;
    const g = q.fresh.pop();
    if (g === undefined) {
      // Fully expanded: merge with an equal node, or keep it and start its successor.
      const sameAs = done.findIndex((r) => sameKeys(r.old, q.old) && sameKeys(r.next, q.next));
      if (sameAs >= 0) for (const i of q.incoming) done[sameAs].incoming.add(i);
      else {
        done.push({ old: q.old, next: q.next, incoming: q.incoming });
        stack.push({ incoming: new Set([done.length - 1]), fresh: [...q.next.values()], old: new Map(), next: new Map() });
      }
      continue;
    }
    const k = key(g);
    if (q.old.has(k)) {
      stack.push(q);
      continue;
    }
    const neg = g.op === 'lit' ? key({ ...g, positive: !g.positive }) : undefined;
    if (g.op === 'false' || (neg !== undefined && q.old.has(neg))) continue; // contradiction: the node dies
    const old = new Map(q.old).set(k, g);
    const split = (now1: Nnf[], next1: Nnf[], now2: Nnf[]): void => {
      stack.push({ incoming: new Set(q.incoming), fresh: [...q.fresh, ...now2], old: new Map(old), next: new Map(q.next) });
      stack.push({ incoming: new Set(q.incoming), fresh: [...q.fresh, ...now1], old: new Map(old), next: withAll(q.next, next1) });
    };
    switch (g.op) {
      case 'true':
      case 'lit':
        stack.push({ ...q, old });
        break;
      case '&&':
        stack.push({ ...q, old, fresh: [...q.fresh, g.left, g.right] });
        break;
      case 'X':
        stack.push({ ...q, old, next: withAll(q.next, [g.arg]) });
        break;
      case '||':
        split([g.left], [], [g.right]);
        break;
      case 'U': // a U b = b ∨ (a ∧ X(a U b))
        split([g.left], [g], [g.right]);
        break;
      case 'R': // a R b = (a ∧ b) ∨ (b ∧ X(a R b))
        split([g.right], [g], [g.left, g.right]);
        break;
    }
  }
  return done;
}

const sameKeys = (a: Map<string, Nnf>, b: Map<string, Nnf>): boolean => a.size === b.size && [...a.keys()].every((k) => b.has(k));
const withAll = (m: Map<string, Nnf>, fs: Nnf[]): Map<string, Nnf> => {
  const out = new Map(m);
  for (const f of fs) out.set(key(f), f);
  return out;
};

/** Every U subformula a U b of `f`, once each: its key and the key of b. */
function untils(f: Nnf, out = new Map<string, string>()): Map<string, string> {
  if (f.op === 'U') out.set(key(f), key(f.right));
  if (f.op === 'X') untils(f.arg, out);
  if (f.op === '&&' || f.op === '||' || f.op === 'U' || f.op === 'R') (untils(f.left, out), untils(f.right, out));
  return out;
}

/**
 * The Büchi automaton of `f` (in NNF): GPVW's tableau, one acceptance set per U
 * subformula a U b (the nodes that do not owe it, or have b), degeneralized by a
 * counter over the sets.
 */
export function buchiOf(f: Nnf): Buchi {
  const nodes = tableau(f);
  const sets = [...untils(f)].map(([u, b]) => new Set(nodes.flatMap((n, i) => (!n.old.has(u) || n.old.has(b) ? [i] : []))));
  const labelOf = (i: number): Literal[] => [...nodes[i].old.values()].flatMap((g) => (g.op === 'lit' ? [{ atom: g.atom, positive: g.positive }] : []));
  const k = Math.max(1, sets.length);
  const inSet = (c: number, i: number): boolean => sets.length === 0 || sets[c].has(i);
  // States: 0 initial; (node i, counter c) ↦ 1 + i·k + c. The counter waits for set c, then moves on; accepting: counter 0 in set 0.
  const id = (i: number, c: number): number => 1 + i * k + c;
  const edges: Buchi['edges'][number][] = [];
  for (const [j, n] of nodes.entries())
    for (const i of n.incoming) {
      if (i === -1) edges.push({ from: 0, to: id(j, 0), label: labelOf(j) });
      else for (let c = 0; c < k; c++) edges.push({ from: id(i, c), to: id(j, inSet(c, i) ? (c + 1) % k : c), label: labelOf(j) });
    }
  // Keep the states reachable from the initial one, renumbered in order of discovery.
  const order = new Map<number, number>([[0, 0]]);
  for (let q = [0]; q.length; ) {
    const s = q.shift()!;
    for (const e of edges) if (e.from === s && !order.has(e.to)) (order.set(e.to, order.size), q.push(e.to));
  }
  const accepting = new Set<number>();
  for (const [j] of nodes.entries()) if (order.has(id(j, 0)) && inSet(0, j)) accepting.add(order.get(id(j, 0))!);
  return {
    size: order.size,
    edges: edges.filter((e) => order.has(e.from)).map((e) => ({ from: order.get(e.from)!, to: order.get(e.to)!, label: e.label })),
    accepting,
  };
}

/** Whether the letter satisfies every literal of the label. */
export const satisfies = (letter: ReadonlySet<string>, label: readonly Literal[]): boolean => label.every((l) => letter.has(l.atom) === l.positive);

/**
 * Whether the automaton accepts the lasso u·v^ω: some run visits an accepting state
 * infinitely often. Product states are (automaton state, lasso position); the run
 * is accepted iff some accepting product state on the cycle part is reachable and
 * lies on a cycle of the product.
 */
export function acceptsLasso(a: Buchi, w: Lasso): boolean {
  const n = w.stem.length + w.cycle.length;
  const letter = (i: number): ReadonlySet<string> => (i < w.stem.length ? w.stem[i] : w.cycle[i - w.stem.length]);
  const nextPos = (i: number): number => (i + 1 < n ? i + 1 : w.stem.length);
  // Product state (s, i): the automaton in s is about to read letter i.
  const succ = (s: number, i: number): [number, number][] => a.edges.filter((e) => e.from === s && satisfies(letter(i), e.label)).map((e) => [e.to, nextPos(i)]);
  const enc = (s: number, i: number): number => s * n + i;
  const reach = (from: [number, number][]): Set<number> => {
    const seen = new Set<number>();
    const q = [...from];
    while (q.length) {
      const [s, i] = q.pop()!;
      for (const [t, j] of succ(s, i)) if (!seen.has(enc(t, j))) (seen.add(enc(t, j)), q.push([t, j]));
    }
    return seen;
  };
  const fromStart = reach([[0, 0]]);
  for (const x of fromStart) {
    const [s, i] = [Math.floor(x / n), x % n];
    if (a.accepting.has(s) && reach([[s, i]]).has(x)) return true;
  }
  return false;
}

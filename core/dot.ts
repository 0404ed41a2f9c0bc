/** Graphs as Graphviz DOT text: a thread's control-flow graph, a DFA over named events, a Büchi automaton, a Horn clause system's tree. */
import type { Program } from '../program/program.js';
import type { Buchi, Literal } from './buchi.js';
import type { HornSystem } from '../solver/horn.js';

/** A named graph: `name` becomes its file name (`name.dot`) and its title in the report. */
export interface Graph {
  readonly name: string;
  readonly dot: string;
  /** Nodes and edges, as the report names them. */
  readonly nodes: number;
  readonly edges: number;
}

/** A DOT string literal. */
export const quote = (s: string): string => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;

/** A graph's name for a thread, usable as a file name (`cfg-customer_2`). */
export const threadGraphName = (kind: string, thread: string): string => `${kind}-${thread.replace(/[^\w.-]/g, '_')}`;

/** Thread `k`'s control-flow graph: a node per location (its source line), an edge per transition labelled with its statements. */
export function cfgGraph(p: Program, k: number): Graph {
  const th = p.threads[k];
  const shape = (kind: string): string => (kind === 'error' ? 'doubleoctagon' : kind === 'entry' ? 'invhouse' : kind === 'exit' ? 'house' : 'ellipse');
  const nodes = th.locations.map((l) => `  n${l.pc} [label=${quote(`${l.pc}${l.pos ? `\nline ${l.pos.line}` : ''}`)}, shape=${shape(l.kind)}${l.kind === 'error' ? ', color=red' : ''}];`);
  const edges = th.transitions.map((t) => `  n${t.from} -> n${t.to} [label=${quote(t.steps.map((s) => s.text).filter(Boolean).join(';\n') || '·')}${t.atomic ? ', style=bold' : ''}];`);
  return { name: threadGraphName('cfg', th.name), dot: [`digraph ${quote(`cfg ${th.name}`)} {`, '  node [fontname="sans-serif", fontsize=10]; edge [fontname="monospace", fontsize=9];', ...nodes, ...edges, '}', ''].join('\n'), nodes: nodes.length, edges: edges.length };
}

/** A DFA's accepting part: states 0… (0 initial), an edge per event that stays accepting, parallel edges merged into one label. */
export function dfaGraph(name: string, accepting: readonly boolean[], next: readonly (readonly number[])[], events: readonly string[]): Graph {
  const kept = accepting.flatMap((a, q) => (a ? [q] : []));
  const labels = new Map<string, string[]>();
  for (const q of kept)
    next[q].forEach((t, e) => {
      if (!accepting[t]) return;
      const key = `${q}>${t}`;
      labels.set(key, [...(labels.get(key) ?? []), events[e]]);
    });
  return {
    name,
    dot: [
      `digraph ${quote(name)} {`,
      '  rankdir=LR; node [fontname="sans-serif", fontsize=10, shape=circle]; edge [fontname="monospace", fontsize=9];',
      '  start [shape=point];',
      '  start -> q0;',
      ...kept.map((q) => `  q${q} [label="q${q}"];`),
      ...[...labels].map(([key, ls]) => {
        const [q, t] = key.split('>');
        return `  q${q} -> q${t} [label=${quote(ls.join('\n'))}];`;
      }),
      '}',
      '',
    ].join('\n'),
    nodes: kept.length,
    edges: labels.size,
  };
}

/** A Büchi automaton: state 0 initial, accepting states double circles, each edge labelled with the literals the letter must satisfy. */
export function buchiGraph(name: string, a: Buchi): Graph {
  const label = (ls: readonly Literal[]): string => ls.map((l) => `${l.positive ? '' : '!'}${l.atom}`).join(' && ') || 'true';
  const nodes = Array.from({ length: a.size }, (_, q) => `  q${q} [shape=${a.accepting.has(q) ? 'doublecircle' : 'circle'}];`);
  const edges = a.edges.map((e) => `  q${e.from} -> q${e.to} [label=${quote(label(e.label))}];`);
  return { name, dot: [`digraph ${quote(name)} {`, '  rankdir=LR; node [fontname="sans-serif", fontsize=10]; edge [fontname="monospace", fontsize=9];', '  start [shape=point];', '  start -> q0;', ...nodes, ...edges, '}', ''].join('\n'), nodes: nodes.length, edges: edges.length };
}

/** A system of Horn clauses as its tree: a node per relation (and `false`), a point per clause with edges from its body's relations and to its head. */
export function hornGraph(name: string, sys: HornSystem): Graph {
  const nodes = [...sys.relations.map((r) => `  ${quote(r.name)} [shape=box];`), '  "false" [shape=box, color=red];'];
  const edges = sys.clauses.flatMap((c, k) => [
    `  c${k} [shape=point];`,
    ...c.body.map((a) => `  ${quote(a.rel)} -> c${k} [arrowhead=none];`),
    `  c${k} -> ${quote(c.head?.rel ?? 'false')};`,
  ]);
  return { name, dot: [`digraph ${quote(name)} {`, '  rankdir=BT; node [fontname="sans-serif", fontsize=9];', ...nodes, ...edges, '}', ''].join('\n'), nodes: nodes.length + sys.clauses.length, edges: sys.clauses.reduce((n, c) => n + c.body.length + 1, 0) };
}

/** The final ARET of each thread as a graph (DOT): its abstract states, and the local (solid) and environment (dashed) steps that reached them. */
import { show } from '../../solver/formula.js';
import type { Program } from '../../program/program.js';
import { quote, threadGraphName, type Graph } from '../../core/dot.js';
import { cubeFormula } from './abstraction.js';
import { isEnv, type Aret } from './aret.js';

export function aretGraphs(p: Program, aret: Aret): Graph[] {
  return aret.states.map((states, i) => {
    const th = p.threads[i];
    const nodes = states.map((s) => `  s${s.id} [label=${quote(`pc ${s.pc}\n${show(cubeFormula(s.cube))}`)}];`);
    const edges = states.flatMap((s) => {
      if (!s.parent) return [];
      const { from, via } = s.parent;
      return [
        isEnv(via)
          ? `  s${from.id} -> s${s.id} [style=dashed, label=${quote(`env ${p.threads[via.source].name}`)}];`
          : `  s${from.id} -> s${s.id} [label=${quote(via.steps.map((x) => x.text).filter(Boolean).join(';\n') || '·')}];`,
      ];
    });
    return {
      name: threadGraphName('aret', th.name),
      dot: [`digraph ${quote(`ARET ${th.name}`)} {`, '  node [fontname="sans-serif", fontsize=9, shape=box]; edge [fontname="monospace", fontsize=8];', ...nodes, ...edges, '}', ''].join('\n'),
      nodes: nodes.length,
      edges: edges.length,
    };
  });
}

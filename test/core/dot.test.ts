/** Graphs as DOT (core/dot.ts) and `rely verify --dot DIR`: every file Graphviz (compiled to WebAssembly) can draw. */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { instance } from '@viz-js/viz';
import { cfgGraph, dfaGraph } from '../../core/dot.js';
import { lower, rely } from '../helpers.js';

describe('DOT graphs', () => {
  it("a thread's control-flow graph: a node per location, an edge per transition with its statements", async () => {
    const p = lower('int x; void *t(void *a) { x = 1; if (x == 2) reach_error(); return 0; }\nint main() { pthread_t h; pthread_create(&h, 0, t, 0); return 0; }');
    const k = p.threads.findIndex((th) => th.name === 't');
    const g = cfgGraph(p, k);
    expect(g.name).toBe('cfg-t');
    expect(g.nodes).toBe(p.threads[k].locations.length);
    expect(g.dot.match(/ -> /g)).toHaveLength(p.threads[k].transitions.length);
    expect(g.dot).toContain('x = 1');
    expect(g.dot).toMatch(/shape=doubleoctagon, color=red/);
    const svg = (await instance()).renderString(g.dot, { format: 'svg' });
    expect(svg.match(/<g id="node\d+" class="node">/g)).toHaveLength(g.nodes);
  });

  it('a DFA: its accepting states, parallel edges as one label', () => {
    const g = dfaGraph('a', [true, true, false], [[1, 2], [1, 0], [2, 2]], ['x==1 / x=0', 'y=1']);
    expect(g.nodes).toBe(2);
    expect(g.dot).toContain('q0 -> q1 [label="x==1 / x=0"]');
    expect(g.dot).toContain('q1 -> q1 [label="x==1 / x=0"]');
    expect(g.dot).toContain('q1 -> q0 [label="y=1"]');
    expect(g.dot).not.toContain('q2');
  });

  it('rely verify --dot DIR: the threads\' graphs and, if SAFE, the proof\'s (learn: the assumption)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rely-dot-'));
    const r = await rely(['verify', 'benchmarks/programs/ag/gas-station-2.c', '--engine', 'learn', '--dot', join(dir, 'graphs')]);
    expect(r.code, r.err).toBe(0);
    const files = readdirSync(join(dir, 'graphs')).sort();
    expect(files).toEqual(['assumption.dot', 'cfg-customer.dot', 'cfg-customer_2.dot', 'cfg-main.dot', 'cfg-operator.dot', 'cfg-pump.dot', 'cfg-pump_2.dot']);
    const viz = await instance();
    for (const f of files) expect(viz.renderString(readFileSync(join(dir, 'graphs', f), 'utf8'), { format: 'svg' })).toMatch(/^<\?xml/);
    const bad = await rely(['verify', 'benchmarks/programs/ag/gas-station-2.c', '--dot', join(dir, 'graphs', 'cfg-main.dot')]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('is a file');
    // With --ltl: the Büchi automaton of the negated property too.
    const l = await rely(['verify', 'benchmarks/programs/liveness/mux-sem-2.c', '--ltl', 'G (at(P#1, J1) -> F at(P#1, J2))', '--dot', join(dir, 'ltl')]);
    expect(l.code).toBe(1);
    const buchi = readFileSync(join(dir, 'ltl', 'buchi-negated-property.dot'), 'utf8');
    expect(buchi).toMatch(/shape=doublecircle/);
    expect(viz.renderString(buchi, { format: 'svg' })).toMatch(/^<\?xml/);
  });
});

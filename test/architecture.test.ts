/**
 * The import graph of the sources: no cycle between files, and imports between folders
 * only downward (cli → bench → witness → engines → core/frontend → solver, README's
 * Architecture). One engine uses another only through that engine's declared API
 * (its api.ts). A new import that breaks either fails here, naming the files.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

/** Folders by layer, lowest first; a folder may import its own and lower layers. */
const LAYERS: readonly (readonly string[])[] = [['solver'], ['frontend'], ['core'], ['horn'], ['explicit', 'monolithic', 'aret', 'bmc', 'thread-modular', 'split', 'learn'], ['portfolio'], ['engines'], ['witness'], ['benchmarks'], ['cli', 'docs']];
const ENGINE_FOLDERS = new Set(LAYERS[4]);
const layerOf = (folder: string): number => LAYERS.findIndex((l) => l.includes(folder));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return n === 'node_modules' || n === 'programs' || n === 'results' ? [] : sources(p);
    return n.endsWith('.ts') && !n.endsWith('.d.ts') ? [p] : [];
  });
}

/** The relative imports of a file (static, re-exports, side-effect and dynamic), as repository paths. */
function importsOf(file: string): string[] {
  // Comments may quote an import; strings are left alone (a `//` inside one is rare and harmless here).
  const src = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');
  const specs = [...src.matchAll(/\b(?:import|export)\b[^'";]*?\bfrom\s*['"](\.\.?\/[^'"]+)['"]|\bimport\s*\(?\s*['"](\.\.?\/[^'"]+)['"]/g)].map((m) => m[1] ?? m[2]);
  return specs.map((s) => relative(ROOT, resolve(dirname(file), s.replace(/\.js$/, '.ts'))));
}

const files = LAYERS.flat().flatMap((f) => sources(join(ROOT, f)));
const graph = new Map(files.map((f) => [relative(ROOT, f), importsOf(f)]));
const folderOf = (path: string): string => path.split('/')[0];

/** Strongly connected components of more than one file (or a file importing itself): Tarjan's algorithm. */
function cycles(g: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of g.get(v) ?? []) {
      if (!g.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || g.get(v)!.includes(v)) out.push(scc.sort());
    }
  };
  for (const v of g.keys()) if (!index.has(v)) visit(v);
  return out;
}

describe('import graph', () => {
  it('reads the sources', () => {
    expect(graph.size).toBeGreaterThan(50);
    expect(graph.get('cli/main.ts')).toContain('cli/verify.ts');
  });

  it('has no cycle between files', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    expect(cycles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).toEqual([['a', 'b', 'c']]);
  });

  it('imports between folders go downward only, and between engines through api.ts', () => {
    const bad: string[] = [];
    for (const [from, tos] of graph)
      for (const to of tos) {
        const [a, b] = [folderOf(from), folderOf(to)];
        if (a === b) continue;
        const sideways = layerOf(a) === layerOf(b) && ENGINE_FOLDERS.has(b) && to === `${b}/api.ts`;
        if (layerOf(b) < 0 || (layerOf(b) >= layerOf(a) && !sideways)) bad.push(`${from} imports ${to}`);
      }
    expect(bad).toEqual([]);
  });

  it('every source folder has a layer', () => {
    const folders = readdirSync(ROOT).filter((n) => !n.startsWith('.') && n !== 'node_modules' && n !== 'dist' && n !== 'test' && statSync(join(ROOT, n)).isDirectory());
    const withTs = folders.filter((f) => sources(join(ROOT, f)).length > 0);
    expect(withTs.filter((f) => layerOf(f) < 0)).toEqual([]);
  });
});

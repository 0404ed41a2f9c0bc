/**
 * The import graph of the sources: no cycle between files, and imports between folders
 * only downward (cli → bench → witness → engines → core/frontend → solver, docs/architecture.md's
 * Architecture). One engine uses another only through that engine's declared API
 * (its api.ts). A new import that breaks either fails here, naming the files.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseSync } from 'oxc-parser';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

/** The engines: every folder of engines/ with an engine.ts. Composite ones run the others, so they sit a layer above them. */
const ENGINES_DIR = join(ROOT, 'engines');
const subfolders = (dir: string): string[] => readdirSync(dir).filter((n) => statSync(join(dir, n)).isDirectory());
const ENGINE_FOLDERS = subfolders(ENGINES_DIR).filter((n) => existsSync(join(ENGINES_DIR, n, 'engine.ts')));
const COMPOSITE = ['portfolio'];
/** Libraries the engines share (engines/ folders without an engine.ts). */
const ENGINE_LIBRARIES = subfolders(ENGINES_DIR).filter((n) => !ENGINE_FOLDERS.includes(n));

/** Units by layer, lowest first; a unit (a top-level folder, or one folder of engines/) may import its own and lower layers. */
const LAYERS: readonly (readonly string[])[] = [
  ['solver'],
  ['program'],
  ['frontend'],
  ['core'],
  ENGINE_LIBRARIES.map((n) => `engines/${n}`),
  ENGINE_FOLDERS.filter((n) => !COMPOSITE.includes(n)).map((n) => `engines/${n}`),
  COMPOSITE.map((n) => `engines/${n}`),
  ['engines'],
  ['witness'],
  ['benchmarks'],
  ['cli', 'docs'],
];
const ENGINE_LAYER = LAYERS.findIndex((l) => l.includes(`engines/${ENGINE_FOLDERS.find((n) => !COMPOSITE.includes(n))}`));
const layerOf = (unit: string): number => LAYERS.findIndex((l) => l.includes(unit));

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

const TOP = [...new Set(LAYERS.flat().map((u) => u.split('/')[0]))];
const files = TOP.flatMap((f) => sources(join(ROOT, f)));
const graph = new Map(files.map((f) => [relative(ROOT, f), importsOf(f)]));
/** The unit a file belongs to: its top-level folder, or engines/<name> for a file inside an engine's or library's folder. */
const unitOf = (path: string): string => {
  const parts = path.split('/');
  return parts[0] === 'engines' && parts.length > 2 ? `engines/${parts[1]}` : parts[0];
};

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
        const [a, b] = [unitOf(from), unitOf(to)];
        if (a === b) continue;
        const sideways = layerOf(a) === layerOf(b) && layerOf(b) === ENGINE_LAYER && to === `${b}/api.ts`;
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

/** Files and folders of the tree that are not sources: tools' output, installed packages, recorded runs. */
const NOT_SOURCES = new Set(['node_modules', 'dist', '.git', 'results']);
/** Code: what the checks below measure; C programs, `.i` files, JSON, HTML and text are inputs, data or documents. */
const CODE = /\.(ts|js|mjs|cjs)$/;
const MAX_TOP_FOLDERS = 9;
const MAX_FILE_LINES = 600;
const MAX_FUNCTION_LINES = 120;


/** Every code file under `dir` (a repository path), recorded runs and installed packages left out. */
function codeFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((n) => {
    const p = dir ? `${dir}/${n}` : n;
    if (NOT_SOURCES.has(n)) return [];
    if (statSync(join(ROOT, p)).isDirectory()) return codeFiles(p);
    return CODE.test(n) && !n.endsWith('.d.ts') ? [p] : [];
  });
}

const lineCount = (text: string): number => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

type Node = { type?: string; start?: number; end?: number; [key: string]: unknown };

/** The name a function goes by: its own, its variable's, its property's or method's key; `anonymous` otherwise. */
function functionName(fn: Node, parent: Node | undefined): string {
  const named = (n: unknown): string | undefined => {
    const k = n as Node | undefined;
    return typeof k?.name === 'string' ? k.name : typeof k?.value === 'string' ? k.value : undefined;
  };
  return named(fn.id) ?? (parent?.type === 'VariableDeclarator' ? named(parent.id) : named(parent?.key)) ?? 'anonymous';
}

/** The functions of a TypeScript source over `max` lines: their lines, keyed by `path name`. */
function longFunctions(path: string, max: number): Map<string, number> {
  const src = readFileSync(join(ROOT, path), 'utf8');
  const { program, errors } = parseSync(path, src, { lang: 'ts' });
  if (errors.length > 0) throw new Error(`${path}: oxc-parser: ${errors[0].message}`);
  const lineAt = (offset: number): number => src.slice(0, offset).split('\n').length;
  const out = new Map<string, number>();
  const walk = (node: unknown, parent: Node | undefined): void => {
    if (Array.isArray(node)) return node.forEach((n) => walk(n, parent));
    if (node === null || typeof node !== 'object') return;
    const n = node as Node;
    if (n.type && /^(FunctionDeclaration|FunctionExpression|ArrowFunctionExpression)$/.test(n.type)) {
      const lines = lineAt(n.end!) - lineAt(n.start!) + 1;
      const key = `${path} ${functionName(n, parent)}`;
      if (lines > max) out.set(key, Math.max(lines, out.get(key) ?? 0));
    }
    for (const [k, v] of Object.entries(n)) if (k !== 'parent' && v && typeof v === 'object') walk(v, n);
  };
  walk(program, undefined);
  return out;
}


describe('the tree', () => {
  const all = codeFiles('');

  it(`has at most ${MAX_TOP_FOLDERS} top-level folders that hold code`, () => {
    const folders = [...new Set(all.filter((p) => p.includes('/')).map((p) => p.split('/')[0]))].sort();
    expect(folders).toContain('test');
    expect(folders.length, folders.join(', ')).toBeLessThanOrEqual(MAX_TOP_FOLDERS);
  });

  it(`has no code file over ${MAX_FILE_LINES} lines`, () => {
    const long = all.map((p) => [p, lineCount(readFileSync(join(ROOT, p), 'utf8'))] as const).filter(([, n]) => n > MAX_FILE_LINES).map(([p, n]) => `${p} (${n} lines)`);
    expect(long).toEqual([]);
  });

  it(`has no function over ${MAX_FUNCTION_LINES} lines (test/ aside)`, () => {
    const found = new Map(all.filter((p) => p.endsWith('.ts') && !p.startsWith('test/')).flatMap((p) => [...longFunctions(p, MAX_FUNCTION_LINES)]));
    expect([...found].map(([k, n]) => `${k} (${n} lines)`)).toEqual([]);
  });

  it('measures a function by its lines, named by its variable or method', () => {
    const file = 'test/architecture.test.ts';
    const found = longFunctions(file, 20);
    expect(found.get(`${file} cycles`)).toBeGreaterThan(20);
    expect(found.has(`${file} lineCount`)).toBe(false);
  });
});

/**
 * docs/architecture.md against the tree: the layer diagram and the folder table name
 * every folder of the code and every folder of engines/, and nothing that does not
 * exist; the files a row names are in its folder; each function of the paper's figure
 * table is declared in the file named beside it.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, codeBlocks, read } from './markdown.js';

const DOC = read('docs/architecture.md');
const isDir = (p: string): boolean => existsSync(join(ROOT, p)) && statSync(join(ROOT, p)).isDirectory();
const hasCode = (dir: string): boolean =>
  readdirSync(join(ROOT, dir)).some((n) => (isDir(join(dir, n)) ? n !== 'node_modules' && hasCode(join(dir, n)) : /\.(ts|js)$/.test(n)));

/** Top-level folders (not hidden, not installed or built), and the folders of engines/. */
const TOP = readdirSync(ROOT).filter((n) => !n.startsWith('.') && n !== 'node_modules' && n !== 'dist' && isDir(n));
const ENGINE_FOLDERS = readdirSync(join(ROOT, 'engines')).filter((n) => isDir(`engines/${n}`));

/** The lines of a document section's table, each split into cells. */
function tableAfter(marker: RegExp, text: string): string[][] {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => marker.test(l));
  expect(start, `${marker}`).toBeGreaterThanOrEqual(0);
  const rows: string[][] = [];
  for (let i = start + 1; i < lines.length && lines[i].startsWith('|'); i++) {
    if (/^\|\s*---/.test(lines[i])) continue;
    rows.push(lines[i].replace(/\\\|/g, '\u0000').split('|').slice(1, -1).map((c) => c.replace(/\u0000/g, '|').trim()));
  }
  return rows.slice(1);
}

const ticks = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

describe('docs/architecture.md', () => {
  it('the layer diagram names every folder of the code and of engines/, and only folders that exist', () => {
    const block = codeBlocks(DOC).find((b) => b.marker?.startsWith('<!-- layers'));
    expect(block).toBeDefined();
    const names = block!.lines.flatMap((l, i) => {
      const m = /^[\s│]*(└▶\s*)?(.*)$/.exec(l)!;
      if (i > 0 && !m[1]) return [];
      return m[2].split(/\s{2,}/)[0].split(' · ').map((n) => n.trim());
    });
    const expected = [...TOP.filter((f) => f !== 'test' && hasCode(f)), ...ENGINE_FOLDERS];
    expect(names.filter((n) => !isDir(n) && !isDir(`engines/${n}`))).toEqual([]);
    expect(expected.filter((f) => !names.includes(f))).toEqual([]);
  });

  const rows = tableAfter(/^<!-- folders/, DOC);
  const paths = (cell: string): string[] => {
    const ts = ticks(cell);
    const base = ts[0]?.endsWith('/') ? ts[0] : (ts[0] ?? '').replace(/[^/]*$/, '');
    return ts.map((t) => (TOP.includes(t.split('/')[0]) ? t : join(base, t)));
  };

  it('the folder table has a row for every top-level folder and every folder of engines/', () => {
    const folders = rows.flatMap(([first]) => paths(first)).filter((p) => p.endsWith('/'));
    const expected = [...TOP.map((f) => `${f}/`), ...ENGINE_FOLDERS.map((n) => `engines/${n}/`)];
    expect(expected.filter((f) => !folders.includes(f))).toEqual([]);
  });

  it("each row names files that exist: its folders or files, and the sources it describes in them", () => {
    const missing: string[] = [];
    for (const [first, what] of rows) {
      const own = paths(first);
      for (const p of own) if (!existsSync(join(ROOT, p))) missing.push(p);
      const dirs = own.map((p) => (p.endsWith('/') ? p : p.replace(/[^/]*$/, '')));
      for (const t of ticks(what).filter((x) => /^[\w./-]+\.(ts|js)$/.test(x))) {
        const candidates = TOP.includes(t.split('/')[0]) ? [t] : dirs.map((d) => join(d, t));
        if (!candidates.some((c) => existsSync(join(ROOT, c)))) missing.push(`${first.slice(0, 40)}: ${t}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("the figure table's functions are declared in the files beside them", () => {
    const declared = (name: string, file: string): boolean =>
      new RegExp(`(?:function\\*?|class|const|let|interface|type)\\s+${name}\\b|^\\s*(?:(?:export|private|public|protected|static|readonly|async|get|set)\\s+)*${name}\\s*[(<]`, 'm').test(read(file));
    const pairs: [string, string][] = tableAfter(/^## The paper's figures in the code/, DOC.replace(/^## The paper's figures in the code\n\n/m, "## The paper's figures in the code\n")).flatMap(
      ([, fn, file]) => ticks(fn).map((n): [string, string] => [n, ticks(file)[0]]),
    );
    const prose = DOC.slice(DOC.indexOf("Flanagan and Qadeer's rules"), DOC.indexOf('## Folders'));
    for (const m of prose.matchAll(/`(\w+)` \(`([\w/.-]+\.ts)`\)|\(`(\w+)`,\s*`([\w/.-]+\.ts)`\)/g)) pairs.push([m[1] ?? m[3], m[2] ?? m[4]]);
    expect(pairs.length).toBeGreaterThan(15);
    expect(pairs.filter(([n, f]) => !existsSync(join(ROOT, f)) || !declared(n, f)).map(([n, f]) => `${n} in ${f}`)).toEqual([]);
  });
});

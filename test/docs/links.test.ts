/** The README and docs/: short README, links and anchors that resolve, paths in backquotes that exist. */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOCS, ROOT, anchors, links, prose, read } from './markdown.js';

/** Top-level folders of the repository: a backquoted `folder/…` names a file or folder that must exist. */
const TOP = ['frontend', 'program', 'solver', 'core', 'engines', 'witness', 'benchmarks', 'cli', 'test', 'docs', 'contrib'];
const PATH = new RegExp(`^(?:${TOP.join('|')})/[\\w./-]*$`);
/** A file named without its folder (`lockid.c`, `value-sets.ts`): some file of the repository has that name. */
const FILE_NAME = /^[\w-][\w.-]*\.(?:ts|js|c|i|json|yml|md)$/;
const NAMES = new Set(
  readdirSync(ROOT, { recursive: true, encoding: 'utf8' })
    .filter((p) => !/^(node_modules|dist|\.git)(\/|$)/.test(p))
    .map((p) => p.split('/').pop()!),
);

describe('docs', () => {
  it('the README is read in two minutes: at most 200 lines', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(200);
  });

  it.each(DOCS)('%s: every relative link names a file that exists, and an anchor that heading makes', (doc) => {
    const bad: string[] = [];
    for (const link of links(read(doc))) {
      if (/^[a-z]+:/.test(link)) continue;
      const [file, anchor] = link.split('#');
      const target = file === '' ? doc : normalize(join(dirname(doc), file));
      if (!existsSync(join(ROOT, target))) bad.push(`${link}: no file ${target}`);
      else if (anchor !== undefined && target.endsWith('.md') && !anchors(read(target)).has(anchor)) bad.push(`${link}: no heading #${anchor} in ${target}`);
    }
    expect(bad).toEqual([]);
  });

  it.each(DOCS)('%s: every path in backquotes exists', (doc) => {
    const paths = [...prose(read(doc)).matchAll(/`([^`\s]+)`/g)].map((m) => m[1]).filter((p) => PATH.test(p));
    expect(paths.filter((p) => !existsSync(join(ROOT, p)))).toEqual([]);
  });

  it.each(DOCS)('%s: every file named in backquotes without its folder is a file of the repository', (doc) => {
    const names = [...prose(read(doc)).matchAll(/`([^`\s]+)`/g)].map((m) => m[1]).filter((n) => FILE_NAME.test(n));
    expect(names.filter((n) => !NAMES.has(n))).toEqual([]);
  });
});

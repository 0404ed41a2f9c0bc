/** The README and docs/*.md as the docs tests read them: files, headings' anchors, links, code blocks. */
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..', '..');

/** The user-facing documents, as repository paths: the README and every docs/*.md. */
export const DOCS: readonly string[] = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((n) => n.endsWith('.md')).sort().map((n) => `docs/${n}`)];

export const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

/** A fenced code block: its language, its lines, the HTML comment right before it (if any), and the block that follows it directly. */
export interface CodeBlock {
  readonly lang: string;
  readonly lines: readonly string[];
  readonly marker: string | undefined;
  readonly line: number;
  next?: CodeBlock;
}

/** The text outside code blocks, each code block blanked line by line (so line numbers stay). */
export function prose(text: string): string {
  let inside = false;
  return text
    .split('\n')
    .map((l) => {
      if (l.startsWith('```')) {
        inside = !inside;
        return '';
      }
      return inside ? '' : l;
    })
    .join('\n');
}

export function codeBlocks(text: string): CodeBlock[] {
  const lines = text.split('\n');
  const out: CodeBlock[] = [];
  let lastEnd = -2;
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]);
    if (!open) continue;
    let j = i + 1;
    while (j < lines.length && !lines[j].startsWith('```')) j++;
    let k = i - 1;
    while (k >= 0 && lines[k].trim() === '') k--;
    const marker = k >= 0 && /^<!--.*-->$/.test(lines[k].trim()) ? lines[k].trim() : undefined;
    const block: CodeBlock = { lang: open[1], lines: lines.slice(i + 1, j), marker, line: i + 1 };
    const between = lines.slice(lastEnd + 1, i).every((l) => l.trim() === '');
    if (out.length > 0 && between) out[out.length - 1].next = block;
    out.push(block);
    lastEnd = j;
    i = j;
  }
  return out;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens; repeats get -1, -2, …. */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of prose(text).matchAll(/^#{1,6}\s+(.+?)\s*$/gm)) {
    const base = m[1].toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** The Markdown links of a document's prose: [text](target). */
export function links(text: string): string[] {
  return [...prose(text).replace(/`[^`\n]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
}

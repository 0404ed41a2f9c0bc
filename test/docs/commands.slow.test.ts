/**
 * Every command shown in the README's and docs/'s `sh` blocks runs as written, `npx rely`
 * being `node cli/rely.js` (the launcher npx starts). A block marked
 * `<!-- slow: … -->` (bench suites, `npm test`: minutes) is not run: its `rely` commands'
 * flags must appear in that command's `--help`, its `npm run` scripts in package.json,
 * a tarball it installs must be the one `npm pack` writes for this version, and the
 * repository paths BenchExec's commands name must exist.
 * The others run in order, per document, in a scratch folder that sees `benchmarks/` and
 * `test/` (files they write stay there). A command's comment states what it shows:
 * `exit N`, a verdict it starts with (SAFE, UNSAFE, UNKNOWN), `Result: …`; without one
 * it must exit 0. A block with one command directly followed by a block without a
 * language shows its output: the first line must match.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOCS, ROOT, codeBlocks, read, type CodeBlock } from './markdown.js';

const RELY = `node ${join(ROOT, 'cli', 'rely.js')}`;
const SLOW = /^<!--\s*slow\b/;
/** Programs of other projects a slow block may show (BenchExec's); `VAR=value` may come first. */
const EXTERNAL = ['benchexec', 'table-generator', 'python3'];
const ASSIGNMENT = /^[A-Z_]+=/;
const REPO_ENTRIES = readdirSync(ROOT);
const COMMAND_TIMEOUT_MS = 120_000;

/** The commands of a block: its lines that are not blank or comments. */
const commands = (b: CodeBlock): string[] => b.lines.filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));

/** Where a shell comment starts in a line (a `#` after a space, outside quotes), or the line's length. */
function commentAt(line: string): number {
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && /\s/.test(line[i - 1] ?? ' ')) return i;
  }
  return line.length;
}

const comment = (line: string): string => line.slice(commentAt(line) + 1).trim();

/** Words of a shell command, quotes removed (enough for the flags of the commands we show). */
const words = (cmd: string): string[] => [...cmd.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]);

/** The parts of a command line between `&&`, without its comment. */
const parts = (line: string): string[] =>
  line
    .slice(0, commentAt(line))
    .split('&&')
    .map((p) => p.trim())
    .filter((p) => p !== '');

const blocks = DOCS.flatMap((doc) => codeBlocks(read(doc)).filter((b) => b.lang === 'sh').map((b) => ({ doc, b })));

const helpCache = new Map<string, string>();
function help(sub: string): string {
  if (!helpCache.has(sub)) {
    const r = spawnSync('node', [join(ROOT, 'cli', 'rely.js'), ...(sub ? [sub] : []), '--help'], { encoding: 'utf8' });
    expect(r.status, `rely ${sub} --help`).toBe(0);
    helpCache.set(sub, r.stdout);
  }
  return helpCache.get(sub)!;
}

describe('commands in the docs', () => {
  it('finds the commands, slow and fast', () => {
    expect(blocks.some(({ b }) => b.marker && SLOW.test(b.marker))).toBe(true);
    expect(blocks.some(({ b }) => !(b.marker && SLOW.test(b.marker)))).toBe(true);
  });

  const { scripts, version } = JSON.parse(read('package.json')) as { scripts: Record<string, string>; version: string };
  for (const { doc, b } of blocks.filter(({ b }) => b.marker && SLOW.test(b.marker)))
    it(`${doc}:${b.line} (slow, not run): its flags are the command's, its scripts package.json's`, () => {
      for (const line of commands(b))
        for (const part of parts(line)) {
          const w = words(part);
          // `rely` is the installed command (README: npm pack, npm install -g), `npx rely` the clone's.
          const rely = w[0] === 'rely' ? w.slice(1) : w[0] === 'npx' && w[1] === 'rely' ? w.slice(2) : undefined;
          if (rely) {
            const sub = rely[0]?.startsWith('-') ? '' : (rely[0] ?? '');
            const text = help(sub);
            for (const flag of w.filter((x) => x.startsWith('--')).map((x) => x.split('=')[0])) expect(text, `${part}: ${flag}`).toMatch(new RegExp(`${flag}(?![\\w-])`));
          } else if (w[0] === 'npm') {
            if (w[1] === 'run') expect(Object.keys(scripts), part).toContain(w[2]);
            else if (w[1] === 'test') expect(Object.keys(scripts), part).toContain('test');
            else expect(['install', 'ci', 'pack'], part).toContain(w[1]);
            // A tarball installed is the one `npm pack` writes for this version.
            for (const tgz of w.filter((x) => x.endsWith('.tgz'))) expect(tgz, part).toBe(`./rely-${version}.tgz`);
          } else if (EXTERNAL.includes(w.find((x) => !ASSIGNMENT.test(x)) ?? '')) {
            // BenchExec's commands (not installed here): the repository paths they name exist.
            const paths = w.map((x) => x.replace(ASSIGNMENT, '')).filter((x) => REPO_ENTRIES.includes(x.split('/')[0]) && x.includes('/') && !/[*$]/.test(x));
            for (const p of paths) expect(existsSync(join(ROOT, p)), `${part}: ${p}`).toBe(true);
          } else throw new Error(`${doc}:${b.line}: a slow command the test does not know: ${part}`);
        }
    });

  for (const doc of DOCS) {
    const fast = blocks.filter((x) => x.doc === doc && !(x.b.marker && SLOW.test(x.b.marker)));
    if (fast.length === 0) continue;
    describe(doc, () => {
      let dir = '';
      const scratch = (): string => {
        if (!dir) {
          dir = mkdtempSync(join(tmpdir(), 'rely-docs-'));
          for (const f of ['benchmarks', 'test']) symlinkSync(join(ROOT, f), join(dir, f));
        }
        return dir;
      };
      for (const { b } of fast)
        for (const line of commands(b))
          it(`${line.slice(0, 110)}`, () => {
            const r = spawnSync('bash', ['-c', line.replaceAll('npx rely', RELY)], { cwd: scratch(), encoding: 'utf8', timeout: COMMAND_TIMEOUT_MS });
            const c = comment(line);
            const verdict = /^(SAFE|UNSAFE|UNKNOWN)\b/.exec(c)?.[1];
            const code = Number(/\bexit (\d)\b/.exec(c)?.[1] ?? { SAFE: 0, UNSAFE: 1, UNKNOWN: 3 }[verdict ?? 'SAFE']);
            const what = `${line}\nstdout: ${r.stdout.slice(0, 2000)}\nstderr: ${r.stderr.slice(0, 2000)}`;
            expect(r.status, what).toBe(code);
            if (verdict) expect(r.stdout.split('\n')[0], what).toMatch(new RegExp(`^${verdict}\\b`));
            const result = /Result: \S+/.exec(c)?.[0];
            if (result) expect(r.stdout, what).toContain(result);
            const shown = commands(b).length === 1 && b.next && b.next.lang === '' ? b.next.lines[0] : undefined;
            if (shown !== undefined) expect(r.stdout.split('\n')[0], what).toBe(shown);
          }, COMMAND_TIMEOUT_MS + 10_000);
    });
  }
});

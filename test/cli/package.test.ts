/**
 * What `npm pack` puts in the tarball (its file list, `npm pack --dry-run --json` on the
 * built dist/, scripts not run): the CLI and the compiled modules it loads, the bundled
 * programs with the manifests that name them, and nothing of the tests, the benchmark
 * results, the TypeScript sources or the source maps. package.slow.test.ts installs it.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const MAX_TARBALL_BYTES = 5 * 1024 * 1024;

interface Packed {
  size: number;
  files: { path: string }[];
}

function dryRun(): Packed {
  const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  expect(r.status, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as Packed[])[0];
}

/**
 * The relative modules a packed script loads: its imports (static and dynamic) and the
 * workers it starts from `new URL('./x.js', import.meta.url)`, as package paths.
 */
function loads(path: string): string[] {
  const text = readFileSync(join(ROOT, path), 'utf8');
  const specs = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)['"](\.\.?\/[^'"]+)['"]|new URL\(\s*['"](\.\.?\/[^'"]+\.js)['"],\s*import\.meta\.url/g)];
  return specs.map((m) => normalize(join(dirname(path), m[1] ?? m[2])));
}

describe('the packed tarball', () => {
  const packed = dryRun();
  const paths = new Set(packed.files.map((f) => f.path));

  it('holds the CLI, its compiled modules, the grammar recipe and the bundled programs', () => {
    for (const p of ['package.json', 'README.md', 'cli/rely.js', 'dist/cli/main.js', 'dist/frontend/c-grammar.recipe.json', 'benchmarks/expected.json', 'benchmarks/programs/lockid.c'])
      expect(paths, p).toContain(p);
    const bin = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin;
    expect(paths).toContain(bin.rely);
  });

  it('holds every module a packed script loads', () => {
    const missing = [...paths].filter((p) => p.endsWith('.js')).flatMap((p) => loads(p).filter((q) => !paths.has(q)).map((q) => `${p} loads ${q}`));
    expect(missing).toEqual([]);
    // The scan sees the entry's imports, so an empty result is not for want of looking.
    expect(loads('cli/rely.js')).toContain('dist/cli/main.js');
  });

  it('holds every program the bench manifests name', () => {
    for (const manifest of ['benchmarks/expected.json', 'benchmarks/ag.json', 'benchmarks/liveness.json']) {
      expect(paths, manifest).toContain(manifest);
      const files = (JSON.parse(readFileSync(join(ROOT, manifest), 'utf8')) as { file: string }[]).map((e) => e.file);
      expect(files.filter((f) => !paths.has(f)), manifest).toEqual([]);
    }
  });

  it('leaves out the tests, the benchmark results, the TypeScript sources and the source maps', () => {
    const out = [...paths].filter((p) => /^(test|dist\/test|benchmarks\/results|docs)\//.test(p) || /\.(ts|map)$/.test(p) || p === 'tsconfig.json');
    expect(out).toEqual([]);
  });

  it('has no install-time script (an install has no TypeScript to build with; npm 11 flags a tarball that has one, and refuses it under --strict-allow-scripts)', () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(Object.keys(scripts).filter((s) => ['preinstall', 'install', 'postinstall', 'prepare'].includes(s))).toEqual([]);
    expect(scripts.prepack, 'npm pack builds dist/').toMatch(/npm run build/);
  });

  it(`is at most ${MAX_TARBALL_BYTES / 1024 / 1024} MB`, () => {
    expect(packed.size).toBeLessThanOrEqual(MAX_TARBALL_BYTES);
  });
});

/**
 * The package as a user gets it: `npm pack` in a copy of the working tree (its prepack
 * script builds dist/ there, from nothing), `npm install -g` of the tarball into a
 * temporary prefix, and the installed `rely` run on programs copied outside the
 * repository. The install fetches the dependencies (from npm's cache or the registry):
 * when the registry cannot be reached the test is skipped with the reason.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
/** npm's codes for a registry it cannot reach. */
const NETWORK_ERROR = /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|ERR_SOCKET_TIMEOUT)\b/;

const run = (cmd: string, args: string[], cwd: string, timeoutMs = 300_000): SpawnSyncReturns<string> =>
  spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: timeoutMs });
const shown = (r: SpawnSyncReturns<string>): string => `exit ${r.status}\nstdout: ${r.stdout.slice(-3000)}\nstderr: ${r.stderr.slice(-3000)}`;

/** A copy of the working tree's files (tracked and new, not ignored) that sees this checkout's node_modules. */
function copyOfTree(dest: string): void {
  const r = run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], ROOT);
  expect(r.status, shown(r)).toBe(0);
  for (const f of r.stdout.split('\0').filter((f) => f !== '' && existsSync(join(ROOT, f)))) cpSync(join(ROOT, f), join(dest, f));
  symlinkSync(join(ROOT, 'node_modules'), join(dest, 'node_modules'));
}

describe('the installed package', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'rely-package-'));
  const prefix = join(tmp, 'prefix');
  const work = join(tmp, 'work');
  const rely = join(prefix, 'bin', 'rely');
  let offline = '';

  beforeAll(() => {
    const src = join(tmp, 'src');
    copyOfTree(src);
    const pack = run('npm', ['pack', '--pack-destination', tmp], src);
    expect(pack.status, shown(pack)).toBe(0);
    const tarball = readdirSync(tmp).filter((f) => f.endsWith('.tgz'));
    expect(tarball).toEqual([`rely-${VERSION}.tgz`]);
    mkdirSync(prefix);
    mkdirSync(work);
    // Few retries: an unreachable registry is reported in seconds, not after npm's minutes of them.
    const retries = ['--fetch-retries', '1', '--fetch-retry-mintimeout', '1000', '--fetch-retry-maxtimeout', '2000'];
    const install = run('npm', ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', ...retries, join(tmp, tarball[0])], work);
    if (install.status !== 0 && NETWORK_ERROR.test(install.stderr)) {
      offline = `npm install cannot reach the registry: ${NETWORK_ERROR.exec(install.stderr)![0]}`;
      console.warn(`package tests skipped: ${offline}`);
      return;
    }
    expect(install.status, shown(install)).toBe(0);
    for (const f of ['lockid.c', 'peterson-broken.c']) copyFileSync(join(ROOT, 'benchmarks', 'programs', f), join(work, f));
  }, 600_000);

  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('verifies a safe program outside the repository: SAFE, exit 0', (ctx) => {
    if (offline) ctx.skip(offline);
    const r = run(rely, ['verify', join(work, 'lockid.c')], work, 120_000);
    expect(r.status, shown(r)).toBe(0);
    expect(r.stdout.split('\n')[0], shown(r)).toBe('SAFE');
  });

  it('finds the error of an unsafe one: UNSAFE with its replayed trace, exit 1', (ctx) => {
    if (offline) ctx.skip(offline);
    const file = join(work, 'peterson-broken.c');
    const r = run(rely, ['verify', file], work, 120_000);
    expect(r.status, shown(r)).toBe(1);
    expect(r.stdout.split('\n')[0], shown(r)).toBe('UNSAFE');
    expect(r.stdout, shown(r)).toContain(`reaches its error location at ${file}:`);
    expect(r.stdout, shown(r)).toMatch(/trace \(\d+ steps, replayed in the interpreter\)/);
  });

  it('answers --version and --help', (ctx) => {
    if (offline) ctx.skip(offline);
    const version = run(rely, ['--version'], work, 60_000);
    expect(version.status, shown(version)).toBe(0);
    expect(version.stdout.trim()).toBe(VERSION);
    const help = run(rely, ['--help'], work, 60_000);
    expect(help.status, shown(help)).toBe(0);
    expect(help.stdout).toMatch(/^Usage: rely /);
    expect(help.stdout).toMatch(/^\s+verify\b/m);
  });
});

/** The installed command as a user runs it (spawns cli/rely.js on the built dist/). */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

function rely(...args: string[]) {
  // The time limit turns a process that does not exit on its own into a failure (status null).
  const r = spawnSync(process.execPath, ['cli/rely.js', ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('rely command', () => {
  it('--version and --help', () => {
    const v = rely('--version');
    expect(v.code).toBe(0);
    expect(v.out.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const h = rely('--help');
    expect(h.code).toBe(0);
    expect(h.out).toMatch(/parse/);
    expect(h.out).toMatch(/explore/);
    expect(h.out).toMatch(/verify/);
  });

  it('verify: SAFE, exit 0, and the process exits once the solvers are closed', () => {
    const r = rely('verify', 'benchmarks/programs/lockid.c');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^SAFE\n/);
    expect(r.err).toBe('');
  });

  it('explore: exit 1 with an interleaved trace for a broken program', () => {
    const r = rely('explore', 'benchmarks/programs/dekker-broken.c');
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^error reachable: thread thr1/);
    expect(r.out).toMatch(/thr2 benchmarks\/programs\/dekker-broken\.c:\d+/);
    expect(r.err).toBe('');
  });

  it('explore: exit 0 for a correct program; --json is one object', () => {
    const r = rely('explore', '--json', 'benchmarks/programs/dekker.c');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j.result).toBe('no-error');
    expect(j.complete).toBe(true);
  });

  it('parse: text, json and smt2', () => {
    const t = rely('parse', 'benchmarks/programs/lockbit.c');
    expect(t.code).toBe(0);
    expect(t.out).toMatch(/thread 1 thr1/);
    expect(t.out).toMatch(/lock' = 1/);
    const j = JSON.parse(rely('parse', '--emit', 'json', 'benchmarks/programs/lockbit.c').out);
    expect(j.threads.map((x: { name: string }) => x.name)).toEqual(['main', 'thr1', 'thr2']);
    const s = rely('parse', '--emit', 'smt2', 'benchmarks/programs/lockbit.c');
    expect(s.out).toMatch(/\(define-fun init \(\) Bool/);
    expect(s.out).toMatch(/\(declare-const \|lock'\| Int\)/);
  });

  it('warnings go to stderr with a location', () => {
    const r = rely('parse', 'test/fixtures/signed-conversion.c');
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/^test\/fixtures\/signed-conversion\.c:11:7: warning: 'i' \(int\) may get a value outside its range here: C leaves the conversion to the implementation; rely converts as gcc does \(modulo 2\^32\)$/m);
  });
});

describe('output into a pipe that closes early', () => {
  it('no stack trace when the reader stops (rely parse --emit json … | head -1)', () => {
    // Far more than a pipe buffer, so the writer is still writing when head exits.
    const r = spawnSync('bash', ['-c', `"${process.execPath}" cli/rely.js parse --emit json benchmarks/programs/simple64.c | head -1`], { encoding: 'utf8', timeout: 60_000 });
    expect(r.stdout).toBe('{\n');
    expect(r.stderr).toBe('');
  });
});

/**
 * `rely decompose` reports as it goes: a row per split as soon as it is checked, each
 * check within --split-timeout, the whole within --timeout (the splits left skipped and
 * counted, the best so far named), a SIGINT stopping it the same way; --json stays one
 * object at the end. Peterson(3)'s first splits take L* far beyond a second (Cobleigh's
 * Peterson(3+) time out in its queries), so the limits below are what stops them.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { rely } from '../helpers.js';

const PETERSON_3 = 'benchmarks/programs/ag/peterson-3.c';
/** A table row of a split (not the header or its rule). */
const ROW = /^\| (?!split |---).*\|$/;
/** The complete lines of `out` that are rows. */
const rows = (out: string): string[] => out.split('\n').slice(0, -1).filter((l) => ROW.test(l));

describe('rely decompose', () => {
  it('--help tells both time limits', async () => {
    const help = (await rely(['decompose', '--help'])).out.replace(/\s+/g, ' ');
    expect(help).toMatch(/--split-timeout <S> time limit of each check \(explicit-global, explicit-modular, each split\), in seconds \(default 3\)/);
    expect(help).toMatch(/--timeout <S> time limit of the whole command, in seconds \(default 120\): when it runs out, the splits not yet checked are skipped/);
  });

  it('prints the first row while it checks the next split, and stops on SIGINT with the splits left skipped and the best so far named', async () => {
    const child = spawn(process.execPath, ['cli/rely.js', 'decompose', PETERSON_3, '--split-timeout', '0.5', '--timeout', '60'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let exited = false;
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => ((exited = true), resolve(code))));
    const firstRow = new Promise<void>((resolve) =>
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (rows(out).length) resolve();
      }),
    );
    await Promise.race([firstRow, exit]);
    expect(exited, out).toBe(false);
    expect(out).not.toMatch(/best split|no split decided/);
    expect(out).toMatch(/^explicit-global: .*\nexplicit-modular: .*\n\n\| split .*\n\| --- .*\n\| main \\\| thr0,thr1,thr2 \| unknown \(timeout\) \|/);
    child.kill('SIGINT');
    const code = await exit;
    const m = /\nstopped: interrupted \(SIGINT\): (\d+) of (\d+) splits skipped\n(best split so far: .+ \(largest check \d+ states|no split decided the program so far)/.exec(out);
    expect(m, out).not.toBeNull();
    expect(Number(m![1])).toBeGreaterThan(0);
    expect(rows(out).length + Number(m![1])).toBe(Number(m![2]));
    expect([0, 3]).toContain(code);
  });

  it('--timeout: the splits not checked when it runs out are skipped, counted, and the best split so far named', async () => {
    const r = await rely(['decompose', PETERSON_3, '--split-timeout', '0.3', '--timeout', '1']);
    const m = /\nstopped: the time limit of the whole command \(--timeout 1 s\) ran out: (\d+) of (\d+) splits skipped\n(best split so far: .+|no split decided the program so far)\n$/.exec(r.out);
    expect(m, r.out).not.toBeNull();
    expect(Number(m![1])).toBeGreaterThan(0);
    expect(rows(r.out).length + Number(m![1])).toBe(Number(m![2]));
    const j = JSON.parse((await rely(['decompose', PETERSON_3, '--split-timeout', '0.3', '--timeout', '1', '--json'])).out);
    expect(j.stopped).toBe('timeout');
    expect(j.skipped).toBeGreaterThan(0);
    expect(j.splits.length + j.skipped).toBe(Number(m![2]));
  });

  it('--split-timeout bounds each check: a tiny one ends a hard split UNKNOWN (timeout) near it; --json is one object', async () => {
    const r = await rely(['decompose', PETERSON_3, '--split-timeout', '0.2', '--max', '2', '--json']);
    const j = JSON.parse(r.out);
    expect(j.splits).toHaveLength(2);
    expect(j.splits[0]).toMatchObject({ split: 'main | thr0,thr1,thr2', verdict: 'unknown', reason: 'timeout' });
    expect(j.splits[0].timeMs).toBeLessThan(1500);
    expect(j.global.timeMs).toBeLessThan(1500);
    expect(j).toMatchObject({ stopped: null, skipped: 0, best: null });
    expect(r.code).toBe(j.global.verdict === 'safe' ? 0 : 3);
  });
});

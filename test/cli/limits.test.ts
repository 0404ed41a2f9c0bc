/**
 * Limits a user sets and can trust: `--max-memory` (rely's process and its
 * z3 processes together), and the native solver bounded — its memory, a z3 that
 * crashes, one that hangs: each ends UNKNOWN with its reason (exit 3), promptly. Run
 * through cli/rely.js as a user runs rely (its worker's heap cap is part of the limit);
 * the fake z3s (RELY_Z3) are shell scripts, so only the tests of the real one skip
 * without it. A z3 that never answers, waited for until the deadline, is in
 * limits.slow.test.ts.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rely } from '../helpers.js';
import { ackingZ3, cli, CRASHING, dir, HANGING, script, startup } from './fake-z3.js';
import { ReadingTimeout } from '../../program/diagnostics.js';
import { compileProgram } from '../../frontend/index.js';
import { NativeBackend, findZ3 } from '../../solver/z3-native.js';
import { SmtSolver, SolverFailed } from '../../solver/smt.js';
import { mkVar, num, gt, lt } from '../../solver/formula.js';

const z3 = findZ3();
const Z3_SKIP = 'no z3 binary on PATH and RELY_Z3 unset (apt-get install z3)';
if (!z3) console.warn(`limits tests: the real z3's half skipped: ${Z3_SKIP}`);

describe('--max-memory: parsing and help', () => {
  it('--help says what it bounds, the default, and what happens at the limit', async () => {
    const { out } = await rely(['verify', '--help']);
    const help = out.replace(/\s+/g, ' ');
    expect(help).toMatch(/--max-memory <MB> memory limit of the whole run in MB: rely's process \(all its threads\) and its native z3 processes together/);
    expect(help).toMatch(/Past it: UNKNOWN: out of memory/);
    expect(help).toMatch(/exit 3/);
    expect(help).toMatch(/Default: no limit but the JS heap's, UNKNOWN past 80% of it \(\d+ MB here\); z3 unbounded/);
    expect((await rely(['svcomp', '--help'])).out).toMatch(/--max-memory <MB>/);
  });

  it('a value that is not a whole number of megabytes, at least 16, is a usage error (exit 2)', async () => {
    for (const v of ['abc', '0', '15', '1.5', '-100', '100MB', '']) {
      const r = await rely(['verify', '--max-memory', v, 'benchmarks/programs/peterson.c']);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/option '--max-memory <MB>' argument '.*' is invalid\. expected a whole number of megabytes, at least 16/);
    }
    expect((await rely(['svcomp', '--max-memory', 'x', 'benchmarks/programs/peterson.c'])).code).toBe(2);
  });
});

describe('--max-memory: the run stops at the limit with UNKNOWN (exit 3)', () => {
  it('a state space that outgrows the limit: UNKNOWN: out of memory, with the run\'s memory and the limit', () => {
    const r = cli(['verify', '--engine', 'explicit-global', '--timeout', '100', '--max-memory', '150', 'benchmarks/programs/simple12.c']);
    expect(r.code).toBe(3);
    expect(r.out).toMatch(/^UNKNOWN: out of memory: \d+ MB in use \(rely \d+ MB, z3 0 MB\), past the run's limit of 150 MB \(--max-memory\) \(after \d+ states\)\n/);
    expect(r.err).toBe('');
  });

  // Below what rely needs at rest (about 90 MB here): the first check stops it, or its
  // worker's heap cap does (V8 ends the thread; cli/rely.js prints the verdict).
  const TINY = /^UNKNOWN: (.*out of memory: \d+ MB in use \(rely \d+ MB, z3 \d+ MB\), past the run's limit of 40 MB \(--max-memory\)|out of memory: the JS heap reached its limit of 40 MB \(--max-memory\)$)/m;
  it('a limit below what rely needs to start: UNKNOWN: out of memory (exit 3; --json too; svcomp: Result: UNKNOWN, exit 0)', () => {
    const r = cli(['verify', '--max-memory', '40', 'benchmarks/programs/peterson.c']);
    expect(r.code).toBe(3);
    expect(r.out).toMatch(TINY);
    const j = cli(['verify', '--json', '--max-memory', '40', 'benchmarks/programs/peterson.c']);
    expect(j.code).toBe(3);
    const v = JSON.parse(j.out) as { verdict: string; reason: string };
    expect(v.verdict).toBe('unknown');
    expect(`UNKNOWN: ${v.reason}`).toMatch(TINY);
    const s = cli(['svcomp', '--max-memory', '40', 'benchmarks/programs/peterson.c']);
    expect(s.code).toBe(0);
    expect(s.out).toMatch(/Result: UNKNOWN\n$/);
  });

  it('without --max-memory nothing changes: the same run decides', () => {
    const r = cli(['verify', '--engine', 'explicit-global', '--timeout', '100', 'benchmarks/programs/peterson.c']);
    expect(r.code).toBe(0);
  });
});

describe('a native z3 that fails: UNKNOWN with the reason, promptly (fake z3s through RELY_Z3)', () => {
  it.each(['aret', 'bmc', 'monolithic'])('one that dies (SIGKILL) during a query, --engine %s: UNKNOWN: solver: z3 exited (signal SIGKILL) during a query', (engine) => {
    const r = cli(['verify', '--engine', engine, '--solver', 'native', '--timeout', '60', 'benchmarks/programs/peterson.c'], { RELY_Z3: CRASHING });
    expect(r.code).toBe(3);
    expect(r.out).toMatch(/^UNKNOWN: solver: z3 exited \(signal SIGKILL\) during a query/);
    expect(r.err).toBe('');
    expect(r.s).toBeLessThan(startup + 10); // no waiting for the timeout
  });

  it('the default portfolio with it: every solver lane says so; no internal error', () => {
    const r = cli(['verify', '--timeout', '60', '--max-states', '10', 'benchmarks/programs/peterson.c'], { RELY_Z3: CRASHING });
    expect(r.code).toBe(3);
    expect(r.out).toMatch(/aret: solver: z3 exited \(signal SIGKILL\) during a query/);
    expect(r.out).toMatch(/monolithic: solver: z3 exited \(signal SIGKILL\) during a query/);
    expect(r.s).toBeLessThan(startup + 10);
  });

  it('a request without a time limit of its own (push) to a z3 that never answers: SolverFailed at the deadline + 2 s', async () => {
    const b = new NativeBackend(HANGING, 0, { deadline: performance.now() + 300 });
    const t0 = performance.now();
    await expect(b.push()).rejects.toThrow(/^solver: z3 did not answer within \d+ ms \(the run's time left and a 2 s grace\): killed$/);
    expect(performance.now() - t0).toBeLessThan(4000);
    await b.close();
  });

  // The portfolio may stop the monolithic lane between Spacer's `sat` and its model: the
  // closed solver's error is no answer (unknown), not an unreadable one (an internal error).
  it('a Horn query whose model never comes, closed meanwhile (a stopped run): unknown, nothing thrown', async () => {
    const satThenSilent = ackingZ3('sat-then-silent-z3.sh', '    *get-model*) exec sleep 600 ;;\n    *check-sat*) echo sat ;;');
    const b = new NativeBackend(satThenSilent);
    const sys = { relations: [], clauses: [] };
    const answer = b.horn(sys);
    setTimeout(() => void b.close(), 300);
    expect(await answer).toEqual({ status: 'unknown', reason: 'z3 closed' });
  });

  it('a z3 that cannot be run: UNKNOWN naming it', () => {
    const r = cli(['verify', '--engine', 'monolithic', '--solver', 'native', '--timeout', '20', 'benchmarks/programs/peterson.c'], { RELY_Z3: join(dir, 'no-such-z3') });
    expect(r.code).toBe(3);
    expect(r.out).toMatch(/^UNKNOWN: solver: cannot run z3 \(.*no-such-z3\): spawn .* ENOENT/);
  });
});

// Skipped without native z3 (Z3_SKIP): these need the real one.
describe.skipIf(!z3)('the real z3 at its limits', () => {
  it('z3 past its memory limit (-memory): SolverFailed: solver: z3 out of memory (limit N MB)', async () => {
    const s = new SmtSolver(new NativeBackend(z3, 0, { memoryMb: 1 }));
    const x = mkVar('x');
    const e = await s.check([gt(x, num(0))]).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(SolverFailed);
    // z3 at its -memory:1, or (on a slow start) the watch of the run's memory first.
    expect((e as Error).message).toMatch(/^solver: z3 (out of memory \(limit 1 MB\)|stopped: out of memory: \d+ MB in use .* past the run's limit of 1 MB \(--max-memory\))$/);
    await s.close();
    // z3 alone at its limit (a wrapper gives it -memory:1; rely sets none, so nothing else watches).
    const wrapped = script('z3-memory-1.sh', `#!/bin/sh\nexec ${z3} -memory:1 "$@"\n`);
    const w = new SmtSolver(new NativeBackend(wrapped));
    const f = await w.check([gt(x, num(0))]).catch((err: unknown) => err);
    expect(f).toBeInstanceOf(SolverFailed);
    expect((f as Error).message).toBe('solver: z3 out of memory');
    await w.close();
  });

  it('z3 killed (kill -9) during a run: UNKNOWN: solver: z3 exited (signal SIGKILL) during a query, at once', async () => {
    // Spacer takes tens of seconds on QRCU: z3 is surely in a query when it is killed.
    const child = spawn(process.execPath, ['cli/rely.js', 'verify', '--engine', 'monolithic', '--solver', 'native', '--timeout', '100', 'benchmarks/programs/qrcu.c'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const z3Child = async (): Promise<number> => {
      for (;;) {
        await new Promise((r) => setTimeout(r, 200));
        const tasks = spawnSync('ps', ['-o', 'pid=,comm=', '--ppid', String(child.pid)], { encoding: 'utf8' }).stdout;
        const m = /(\d+)\s+z3/.exec(tasks);
        if (m) return Number(m[1]);
      }
    };
    const pid = await z3Child();
    await new Promise((r) => setTimeout(r, 1000));
    const t0 = performance.now();
    process.kill(pid, 'SIGKILL');
    const code = await new Promise<number | null>((r) => child.on('exit', r));
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(code).toBe(3);
    expect(out).toMatch(/^UNKNOWN: solver: z3 exited \(signal SIGKILL\) during a query/);
  });

  /**
   * The real z3 behind a proxy that answers the first `(push 1)` it sees, in any of its
   * restarts, with the error z3 gives when a query's timer fires just after its
   * check-sat and cancels the next command (seen in the differential suite: thread-modular
   * threw `z3: line 14 column 7: push canceled`).
   */
  const cancellingZ3 = (name: string): string => {
    const once = join(dir, `${name}.cancelled`);
    return script(
      `${name}.mjs`,
      `#!${process.execPath}
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
const z = spawn(${JSON.stringify(z3)}, process.argv.slice(2), { stdio: ['pipe', 'inherit', 'inherit'] });
createInterface({ input: process.stdin }).on('line', (l) => {
  if (l.trim() === '(push 1)' && !existsSync(${JSON.stringify(once)})) {
    writeFileSync(${JSON.stringify(once)}, '');
    process.stdout.write('(error "line 1 column 7: push canceled")\\n');
    return;
  }
  z.stdin.write(l + '\\n');
}).on('close', () => z.stdin.end());
z.on('exit', (c) => process.exit(c ?? 0));
`,
    );
  };

  it('a push z3 cancels: the process restarts with the stack replayed, and later answers are right', async () => {
    const s = new SmtSolver(new NativeBackend(cancellingZ3('cancel-push')));
    const x = mkVar('x');
    await s.push(); // cancelled by the proxy: answered all the same, nothing thrown
    await s.assert(gt(x, num(0)));
    expect((await s.check([lt(x, num(0))])).status).toBe('unsat');
    await s.pop();
    expect((await s.check([lt(x, num(-1))])).status).toBe('sat');
    await s.close();
  });

  it("a check whose push z3 cancels: UNKNOWN (timeout), and the stack is intact for the next check", async () => {
    const s = new SmtSolver(new NativeBackend(cancellingZ3('cancel-check')));
    const x = mkVar('x');
    expect(await s.check([gt(x, num(5))])).toEqual({ status: 'unknown', reason: 'timeout' });
    // Before, the check's assertions stayed on the base level: x > 5 would make this unsat.
    expect((await s.check([lt(x, num(3))])).status).toBe('sat');
    await s.close();
  });

  it('--max-memory reaches the z3s: each runs with -memory:MB', async () => {
    const b = new NativeBackend(z3, 0, { memoryMb: 300 });
    const s = new SmtSolver(b);
    expect((await s.check([gt(mkVar('x'), num(0))])).status).toBe('sat');
    // z3 reads `-memory:300` in place, its ':' turned into a NUL.
    expect(readFileSync(`/proc/${b.pid}/cmdline`, 'utf8').replace(/\0/g, ' ')).toMatch(/ -memory.300 /);
    await s.close();
  });
});

describe('--timeout holds whatever the phase', () => {
  // 600 nested `?:` take the frontend over a minute of CPU. It looks
  // at the deadline between the pieces it matches and the paths of its blocks; inside one
  // match nothing can, and cli/rely.js stops the worker 10 s past the deadline.
  const nested = `#include <pthread.h>\nint x;\nint main() { x = ${'(x ? '.repeat(600)}x${' : 1)'.repeat(600)}; return 0; }\n`;
  const file = join(dir, 'nested-conditional.c');
  writeFileSync(file, nested);

  it('a slow parse: UNKNOWN: timeout, exit 3, within the deadline and its grace (--json: the --max-memory tests cover its shape)', () => {
    const r = cli(['verify', '--timeout', '1', file]);
    expect(r.code).toBe(3);
    expect(r.out).toMatch(/^UNKNOWN: timeout/);
    expect(r.s).toBeLessThan(1 + 10 + startup + 5);
  }, 120_000);

  // Chiron with 255 artists: its arrays' cells make 4 s of the frontend's large blocks.
  const chiron = join(dir, 'chiron-255.c');
  writeFileSync(chiron, readFileSync('benchmarks/programs/ag/chiron-single-2.c', 'utf8').replace('#define N 2 ', "#define N '\\xff' "));

  it('the deadline passed while reading: UNKNOWN: timeout (while reading the input), as verify, --json and svcomp print UNKNOWN', async () => {
    const v = await rely(['verify', '--timeout', '1', chiron]);
    expect([v.code, v.out, v.err]).toEqual([3, 'UNKNOWN: timeout (while reading the input)\n', '']);
    const j = await rely(['verify', '--timeout', '1', '--json', chiron]);
    expect([j.code, JSON.parse(j.out)]).toEqual([3, { verdict: 'unknown', reason: 'timeout (while reading the input)' }]);
    const s = await rely(['svcomp', '--timeout', '1', chiron]);
    expect([s.code, s.out]).toEqual([0, 'UNKNOWN: timeout (while reading the input)\nResult: UNKNOWN\n']);
  }, 120_000);

  it('the frontend alone: a deadline already passed is a ReadingTimeout; none, the program', () => {
    const src = readFileSync('benchmarks/programs/peterson.c', 'utf8');
    expect(() => compileProgram(src, 'peterson.c', { deadline: performance.now() - 1 })).toThrow(ReadingTimeout);
    expect(compileProgram(src, 'peterson.c', { deadline: performance.now() + 60_000 }).threads.length).toBe(3);
  });
});

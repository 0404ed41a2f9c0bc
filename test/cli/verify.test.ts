/**
 * `rely verify` in-process: verdicts and exit codes, the human and JSON output, the
 * progress line, bad input, and the proof certificate, which native z3 must answer
 * unsat for every obligation (and sat for at least one when the proof is tampered
 * with). Only programs the engine settles in about a second are used; the slower
 * refinements (the readers-writer lock's groups, even-mod's widening) are in
 * verify.slow.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProgram } from '../../frontend/index.js';
import { explore } from '../../engines/state-space/explore.js';
import { verify } from '../../engines/aret/verify.js';
import { proofObligations } from '../../engines/aret/proof.js';
import { proofSmt2 } from '../../engines/aret/certificate.js';
import { createSolver } from '../../solver/select.js';
import { findZ3 } from '../../solver/z3-native.js';
import { TRUE } from '../../solver/formula.js';
import { rely } from '../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'rely-verify-'));
const LOCKID = 'benchmarks/programs/lockid.c';
const LOCKBIT = 'benchmarks/programs/lockbit.c';
const LOCKBITCNT = 'benchmarks/programs/lockbitcnt.c';
const NOLOCK = 'test/fixtures/lockid-nolock.c';

const z3 = findZ3();
// Skip reason for the certificate checks: they run the z3 binary on the script.
const Z3_SKIP = 'no z3 binary on PATH and RELY_Z3 unset (apt-get install z3)';
if (!z3) console.warn(`verify tests: certificate checks skipped: ${Z3_SKIP}`);

/** z3's answers to a certificate file, each with the obligation its echo names. */
function z3Answers(file: string): { obligation: string; answer: string }[] {
  const r = spawnSync(z3!, [file], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  const lines = r.stdout.trimEnd().split('\n');
  const out: { obligation: string; answer: string }[] = [];
  for (let k = 0; k < lines.length; k += 2) out.push({ obligation: lines[k].replace(/: expect unsat$/, ''), answer: lines[k + 1] });
  return out;
}

describe('rely verify', () => {
  it('lockid: SAFE with a modular proof, a summary and statistics; quiet stderr when not a terminal', async () => {
    const r = await rely(['verify', '--engine', 'aret', '--bias', 'modular', LOCKID]);
    expect(r.code).toBe(0);
    const lines = r.out.split('\n');
    expect(lines[0]).toBe('SAFE');
    expect(r.out).toMatch(/checked against CS1–CS5/);
    expect(r.out).toMatch(/modular: yes/);
    expect(r.out).toMatch(/state predicates per thread: main \d+, thr1 \d+, thr2 \d+/);
    expect(r.out).toMatch(/transition predicates per pair i▷j: .*thr1▷thr2 \d+/);
    expect(r.out).toMatch(/iterations \d+, predicates \d+, last ARET: \d+ states, \d+ env transitions/);
    expect(r.out).toMatch(/refinements: \d+ modular, \d+ unbiased/);
    expect(r.out).toMatch(/solver: (native|wasm), queries \d+ \(cache hits \d+\), Horn queries \d+/);
    expect(r.err).toBe('');
  });

  it('lockid --json: one object with the verdict, the run and the statistics', async () => {
    const r = await rely(['verify', '--engine', 'aret', '--json', LOCKID]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j).toMatchObject({
      verdict: 'safe',
      reason: null,
      modular: true,
      engine: 'aret',
      bias: 'modular',
      proofChecked: true,
      traceReplayed: false,
      counterexample: null,
      warnings: [],
    });
    expect(['wasm', 'native']).toContain(j.solver);
    expect(j.iterations).toBeGreaterThan(0);
    expect(j.predicates).toBe(j.stats.predicates);
    expect(typeof j.timeMs).toBe('number');
    expect(j.stats.statePredicates).toHaveLength(3);
    expect(j.stats.solver.queries).toBeGreaterThan(0);
  });

  it('--horn-solver linear: the Farkas solver answers the refinements, and the statistics say so', async () => {
    const j = JSON.parse((await rely(['verify', '--engine', 'aret', '--json', '--horn-solver', 'linear', LOCKID])).out);
    expect(j).toMatchObject({ verdict: 'safe', hornSolver: 'linear', proofChecked: true });
    expect(j.stats.horn.answeredBy.linear).toBeGreaterThan(0);
    const text = await rely(['verify', '--engine', 'aret', '--horn-solver', 'linear', LOCKID]);
    expect(text.out).toMatch(/Horn solver linear: \d+ answered by SOLVELINEARHC, 0 by Spacer/);
    const bad = await rely(['verify', '--horn-solver', 'farkas', LOCKID]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("'farkas' is invalid");
  });

  it('--no-share-instances: Simple(4)\'s four copies of p learn one by one again, in more rounds', async () => {
    const run = async (...flags: string[]) => JSON.parse((await rely(['verify', '--engine', 'aret', '--json', '--horn-solver', 'linear', ...flags, 'benchmarks/programs/simple4.c'])).out);
    const [shared, own] = [await run(), await run('--no-share-instances')];
    expect(shared).toMatchObject({ verdict: 'safe', modular: true, proofChecked: true });
    expect(own).toMatchObject({ verdict: 'safe', modular: true, proofChecked: true });
    expect(shared.iterations).toBeLessThan(own.iterations);
  });

  it('--no-modular-precheck: LockBit (no modular proof) is refined with the modular clauses first again; by default the output says why they were skipped', async () => {
    const LOCKBIT = 'benchmarks/programs/lockbit.c';
    const text = await rely(['verify', '--engine', 'aret', LOCKBIT]);
    expect(text.out).toMatch(/refinements: 0 modular, \d+ unbiased \(bias: modular; no modular proof exists: thread-modular model checking reached an error\)/);
    const paper = JSON.parse((await rely(['verify', '--engine', 'aret', '--json', '--no-modular-precheck', LOCKBIT])).out);
    expect(paper).toMatchObject({ verdict: 'safe', modular: false, stats: { modularExcluded: false } });
    expect(paper.stats.refinements.modular).toBeGreaterThan(0);
  });

  it('--log-level debug: one "refined" record per refinement, naming each new predicate and its set', async () => {
    const r = await rely(['verify', '--engine', 'aret', '--json', '--log-level', 'debug', LOCKID]);
    expect(r.code).toBe(0);
    const v = JSON.parse(r.out);
    const records = r.err
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l))
      .filter((o) => o.msg === 'refined');
    expect(records.length).toBe(v.stats.refinements.modular + v.stats.refinements.grouped + v.stats.refinements.unbiased);
    expect(records.map((o) => o.iteration)).toEqual(records.map((_, k) => k + 1));
    const learned: string[] = records.flatMap((o) => o.learned);
    // Every predicate of the proof was learned once, in a thread's set or a pair's.
    expect(learned.length).toBe(v.predicates);
    for (const l of learned) expect(l).toMatch(/^(main|thr1|thr2)(▷(main|thr1|thr2))?: \S/);
  });

  it('lockbit: SAFE with a non-modular proof', async () => {
    const r = await rely(['verify', '--engine', 'aret', '--json', LOCKBIT]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ verdict: 'safe', modular: false, proofChecked: true });
  });

  it('lockid without its lock: UNSAFE, with a trace replayed in the interpreter (exit 1)', async () => {
    const r = await rely(['verify', NOLOCK]);
    expect(r.code).toBe(1);
    const lines = r.out.split('\n');
    expect(lines[0]).toBe('UNSAFE');
    expect(lines[1]).toMatch(/^thread thr\d reaches its error location at test\/fixtures\/lockid-nolock\.c:(17|23)$/);
    expect(lines[2]).toMatch(/^trace \(\d+ steps, replayed in the interpreter\):$/);
    expect(r.out).toMatch(/thr1 test\/fixtures\/lockid-nolock\.c:16 {2}x = 1/);

    const j = JSON.parse((await rely(['verify', '--json', NOLOCK])).out);
    expect(j).toMatchObject({ verdict: 'unsafe', reason: null, modular: null, traceReplayed: true, proofChecked: false });
    expect(j.counterexample.length).toBeGreaterThan(0);
    expect(j.counterexample[0]).toMatchObject({ file: NOLOCK, steps: expect.any(Array), values: expect.any(Object) });
    expect(j.counterexample[0]).toHaveProperty('thread');
    expect(j.counterexample[0]).toHaveProperty('transition');
  });

  it('a progress line on stderr when it is a terminal (the ARET\'s), cleared at the end', async () => {
    const r = await rely(['verify', '--engine', 'aret', NOLOCK], { errIsTty: true });
    expect(r.err).toMatch(/^\r\x1b\[Kiteration 1: \d+ predicates, \d+ ARET states, \d+ env transitions/);
    expect(r.err.endsWith('\r\x1b[K')).toBe(true);
    expect(r.out.startsWith('UNSAFE\n')).toBe(true);
  });

  it('a tiny --timeout gives UNKNOWN: timeout (exit 3) and no proof', async () => {
    const proof = join(dir, 'none.smt2');
    // 1 ms: the deadline passes while the frontend reads the file.
    const r = await rely(['verify', '--timeout', '0.001', '--proof', proof, LOCKBITCNT]);
    expect(r.code).toBe(3);
    expect(r.out).toBe('UNKNOWN: timeout (while reading the input)\n');
    expect(existsSync(proof)).toBe(false);
    const j = JSON.parse((await rely(['verify', '--json', '--solver', 'wasm', '--timeout', '0.001', LOCKBITCNT])).out);
    expect(j).toEqual({ verdict: 'unknown', reason: 'timeout (while reading the input)' });
  });

  it('bad input: one located line, exit 2', async () => {
    const file = join(dir, 'bad.c');
    writeFileSync(file, 'int main() {\n  int x = ;\n}\n');
    const r = await rely(['verify', file]);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toBe(`${file}:2:11: error: syntax error: unexpected ';'\n`);
  });

  for (const [args, message] of [
    [['--bias', 'foo'], /Allowed choices are modular, none/],
    [['--timeout', '-1'], /positive number of seconds/],
    [['--timeout', '0'], /positive number of seconds/],
    [['--max-iterations', '0'], /positive integer/],
    [['--solver', 'z4'], /expected auto, wasm or native/],
    [['--proof', join(dir, 'no-such-dir', 'p.smt2')], /cannot write/],
    [['--int-range', '3..1'], /empty range 3\.\.1/],
    [['--max-states', 'x'], /positive integer/],
    [['--engine', 'explicit'], /Allowed choices are auto, aret, bmc, monolithic, thread-modular, explicit-global, explicit-modular/],
    [['--max-depth', '0'], /positive integer/],
  ] as const)
    it(`bad option ${args.join(' ')}: exit 2`, async () => {
      const r = await rely(['verify', ...args, LOCKID]);
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toMatch(message);
    });
});

describe('rely verify --engine explicit-global|explicit-modular', () => {
  const RECURSIVE = 'benchmarks/programs/recursive-sum.c';

  it('explicit-modular: SAFE with the guarantees and reachable states per thread, and the same JSON fields', async () => {
    const r = await rely(['verify', '--engine', 'explicit-modular', 'benchmarks/programs/simple4.c']);
    expect(r.code).toBe(0);
    expect(r.out.split('\n')[0]).toBe('SAFE');
    expect(r.out).toMatch(/^ {2}p#3: 18 states; guarantee 4 updates of m, x$/m);
    expect(r.out).toMatch(/engine: explicit-modular, 90 states, 16 guarantee entries/);
    const j = JSON.parse((await rely(['verify', '--json', '--engine', 'explicit-modular', 'benchmarks/programs/simple4.c'])).out);
    expect(j).toMatchObject({ verdict: 'safe', engine: 'explicit-modular', proofChecked: true, modular: null, solver: null, stats: { states: 90, guarantee: 16, bound: null } });
    expect(typeof j.timeMs).toBe('number');
  });

  it('recursion: explicit engines verify it, the ARET engine says unsupported (exit 2)', async () => {
    for (const engine of ['explicit-modular', 'explicit-global']) expect((await rely(['verify', '--engine', engine, RECURSIVE])).code).toBe(0);
    const r = await rely(['verify', RECURSIVE]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^benchmarks\/programs\/recursive-sum\.c:\d+:\d+: unsupported: recursion \(worker → sum → sum\)/);
  });

  it('an error of the abstraction is confirmed by explicit-global and said so; the trace is replayed (exit 1)', async () => {
    const r = await rely(['verify', '--engine', 'explicit-modular', 'benchmarks/programs/recursive-sum-broken.c']);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^UNSAFE\n/);
    expect(r.out).toMatch(/replayed in the interpreter/);
    expect(r.out).toMatch(/the thread-modular abstraction reached an error; explicit-global confirmed it/);
  });

  it('a bounded search is UNKNOWN naming the bound (exit 3); --proof writes nothing', async () => {
    const file = join(dir, 'explicit.smt2');
    const r = await rely(['verify', '--engine', 'explicit-global', '--int-range', '0..1', '--proof', file, 'benchmarks/programs/simple4.c']);
    expect(r.code).toBe(3);
    expect(r.out).toMatch(/^UNKNOWN: bounded: no error with int values limited to 0\.\.1/);
    expect(r.err).toMatch(/no proof written .*: the explicit-global engine writes no SMT-LIB certificate/);
    expect(existsSync(file)).toBe(false);
  });
});

// Skipped without native z3 (Z3_SKIP): the point is a solver other than rely's own.
describe.skipIf(!z3)('proof certificate, checked by native z3', () => {
  for (const file of [LOCKID, LOCKBIT])
    it(`rely verify --engine aret --proof ${file}: every obligation answers unsat`, async () => {
      const proof = join(dir, 'proof.smt2');
      const r = await rely(['verify', '--engine', 'aret', '--proof', proof, file]);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(`certificate: ${proof} (check it with: z3 ${proof}; every answer must be unsat)`);
      const answers = z3Answers(proof);
      expect(answers.length).toBeGreaterThan(10);
      expect(answers.map((a) => a.obligation)).toContain('CS5');
      for (const a of answers) expect(a, a.obligation).toMatchObject({ answer: 'unsat' });
    });

  it('the default engine writes the certificate of the lane that decided, and every obligation answers unsat', async () => {
    const proof = join(dir, 'auto.smt2');
    const r = await rely(['verify', '--json', '--proof', proof, LOCKBIT]);
    const j = JSON.parse(r.out);
    expect(j).toMatchObject({ verdict: 'safe', engine: 'auto', proofFile: proof });
    expect(['aret', 'monolithic']).toContain(j.decidedBy);
    const answers = z3Answers(proof);
    expect(answers.length).toBeGreaterThan(2);
    for (const a of answers) expect(a, a.obligation).toMatchObject({ answer: 'unsat' });
  });

  it('one check per obligation, and a tampered proof (every R_i := true) fails one', async () => {
    const p = loadProgram(LOCKID);
    const solver = createSolver('native');
    try {
      const v = await verify(p, solver, { bias: 'modular', maxIterations: 100, checker: () => createSolver('native') });
      if (v.verdict !== 'safe') throw new Error(`lockid: ${v.verdict}`);
      const good = join(dir, 'good.smt2');
      writeFileSync(good, proofSmt2(p, v.proof));
      expect(z3Answers(good).map((a) => a.obligation)).toEqual(proofObligations(p, v.proof).map((o) => o.name));

      const bad = join(dir, 'tampered.smt2');
      writeFileSync(bad, proofSmt2(p, { ...v.proof, reach: v.proof.reach.map(() => TRUE) }));
      expect(z3Answers(bad).filter((a) => a.answer === 'sat').map((a) => a.obligation)).toContain('CS5');
    } finally {
      await solver.close();
    }
  });
});

describe('thread creation without a static bound: a bounded search for bugs, never SAFE', () => {
  const SPAWN = 'test/fixtures/spawn-loop.c';
  const SPAWN_BUG = 'test/fixtures/spawn-loop-bug.c';

  it('the lowering cuts the loop at --max-instances iterations and says so; without it the loop is unsupported', () => {
    for (const k of [1, 2, 3]) {
      const p = loadProgram(SPAWN, { maxInstances: k });
      expect(p.instanceBound).toBe(k);
      expect(p.threads.map((t) => t.name)).toEqual(['main', 'worker', ...Array.from({ length: k - 1 }, (_, i) => `worker#${i + 2}`)]);
    }
    expect(loadProgram('benchmarks/programs/lockid.c', { maxInstances: 2 }).instanceBound).toBeUndefined();
    expect(() => loadProgram(SPAWN)).toThrow(/spawn-loop\.c:19:5: unsupported: thread creation inside a loop without constant bounds/);
  });

  it('a bug that needs two workers: UNSAFE with a replayed trace through worker and worker#2', async () => {
    const r = await rely(['verify', '--json', SPAWN_BUG]);
    expect(r.code).toBe(1);
    const j = JSON.parse(r.out);
    expect(j.verdict).toBe('unsafe');
    expect(j.traceReplayed).toBe(true);
    expect(j.instanceBound).toBe(2);
    const threads = new Set(j.counterexample.map((s: { thread: string }) => s.thread));
    expect(threads).toEqual(new Set(['main', 'worker', 'worker#2']));
  });

  it("the headline names the error's own line, not the line where its last step began", async () => {
    const r = await rely(['verify', 'test/fixtures/signed-conversion.c']);
    expect(r.out.split('\n')[1]).toBe('thread main reaches its error location at test/fixtures/signed-conversion.c:12');
  });

  it('one worker is not enough for that bug: UNKNOWN, and the reason says how far the search went', async () => {
    const r = await rely(['verify', '--max-instances', '1', SPAWN_BUG]);
    expect(r.code).toBe(3);
    expect(r.out).toMatch(/^UNKNOWN: thread creation inside a loop without constant bounds \(unbounded thread creation\): no proof for any number of threads with template threads \(.*\); searched for bugs with up to 1 iteration of each such loop \(no error\)$/m);
  });

  it('lock-free workers: SAFE for any number of them, by explicit-modular with the worker as a template', async () => {
    const r = await rely(['verify', '--engine', 'explicit-modular', 'test/fixtures/spawn-flag.c']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^SAFE\nproof: thread-modular fixpoint/);
    expect(r.out).toMatch(/^ {2}worker \(template: any number of instances\): \d+ states/m);
    const p = loadProgram('test/fixtures/spawn-flag.c', { templates: true, calls: 'keep' });
    expect(p.threads.map((t) => [t.name, t.replicated ?? false])).toEqual([['main', false], ['worker', true]]);
  });

  it('a template program is refused by the engines that take each thread once (an internal error, never a verdict)', async () => {
    const p = loadProgram('test/fixtures/spawn-flag.c', { templates: true });
    expect(() => explore(p)).toThrow(/internal: the explicit-global engine does not read template threads \(worker\)/);
  });

  it('workers that take turns on a lock: SAFE for any number of them (mutex owners seen as this instance or another), by both engines that read templates', async () => {
    const r = await rely(['verify', '--engine', 'explicit-modular', SPAWN]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^ {2}worker \(template: any number of instances\)/m);
    const tm = await rely(['verify', '--engine', 'thread-modular', SPAWN]);
    expect([tm.code, tm.out.split('\n')[0]]).toEqual([0, 'SAFE']);
  });

  it.skipIf(!z3)('a counter under the lock (infinite state): SAFE for any number of workers by the default engine, through thread-modular (Spacer), with a certificate native z3 checks', async () => {
    const proof = join(dir, 'template.smt2');
    const r = await rely(['verify', '--proof', proof, 'test/fixtures/spawn-lock-counter.c']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^SAFE\nproof: one invariant per thread over the globals and its own locals, checked by a fresh \w+ solver \(template threads: for any number of instances\)/);
    expect(r.out).toMatch(/^ {2}engine: thread-modular, \d+ Horn clauses, 1 template thread$/m);
    const answers = z3Answers(proof);
    expect(answers.map((a) => a.obligation)).toContain('interference (t7 of another instance of worker into worker)');
    for (const a of answers) expect(a, a.obligation).toMatchObject({ answer: 'unsat' });
  });

  it('a lock flag taken by hand between workers: SAFE for any number of them, through the ghost owner of the flag', async () => {
    const r = await rely(['verify', '--engine', 'thread-modular', 'test/fixtures/spawn-flag-lock.c']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^ {2}with ghost owners of the lock flags: __owner\[g\] is the thread that took g \(0: none\)$/m);
    expect(r.out).toMatch(/__owner\[f\]/);
  });

  it('a count of the workers (infinite state, no thread-modular invariant): no proof, no bug with up to 3 of them: UNKNOWN, not SAFE, and the reason says both', async () => {
    const COUNT = 'test/fixtures/spawn-count.c';
    const r = await rely(['verify', '--timeout', '20', COUNT]);
    expect(r.code).toBe(3);
    expect(r.out).toMatch(/^UNKNOWN: .*no proof for any number of threads with template threads \(thread-modular: no thread-modular invariant exists \(Spacer: the clauses are unsatisfiable\).*; explicit-modular: .*\); searched for bugs with up to 3 iterations of each such loop \(/);
    const j = JSON.parse((await rely(['verify', '--json', '--timeout', '20', COUNT])).out);
    expect([j.verdict, j.decidedBy, j.proofChecked]).toEqual(['unknown', null, false]);
  });
});

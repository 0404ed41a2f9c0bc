/** SV-COMP witnesses: `rely svcomp --witness` writes them, `rely validate-witness` reads them back. */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { rely, stopZ3 } from '../helpers.js';
import { tampered } from './tampered.js';

const SUITE = 'benchmarks/programs/svcomp-style';
const PRP = `${SUITE}/unreach-call.prp`;
const COMMITTED = 'benchmarks/witnesses';
const dir = mkdtempSync(join(tmpdir(), 'rely-witness-'));
const lastLine = (out: string): string => out.trimEnd().split('\n').at(-1)!;

afterAll(stopZ3);

/** Writes the witness of `task` (a .yml task, or a C file with the unreach-call property) to `out`. */
async function witnessOf(task: string, out: string): Promise<string> {
  const r = await rely(['svcomp', ...(task.endsWith('.c') ? ['--prop', PRP] : []), '--witness', out, task]);
  expect(r.code).toBe(0);
  return lastLine(r.out);
}

const validate = (w: string, file: string) => rely(['validate-witness', '--witness', w, file]);


/** A witness without its volatile metadata (uuid, creation_time). */
function stable(file: string): unknown {
  const doc = parse(readFileSync(file, 'utf8')) as { metadata: Record<string, unknown> }[];
  for (const e of doc) {
    delete e.metadata.uuid;
    delete e.metadata.creation_time;
  }
  return doc;
}

describe('violation witnesses', () => {
  const fib = join(dir, 'fib-bench-bug.yml');

  it('a FALSE answer writes one waypoint per step of the trace, each with its thread, the last the target', async () => {
    expect(await witnessOf(`${SUITE}/fib-bench-bug.yml`, fib)).toBe('Result: FALSE(unreach-call)');
    const [entry] = parse(readFileSync(fib, 'utf8')) as { entry_type: string; metadata: { format_version: string; task: Record<string, unknown> }; content: { segment: { waypoint: Record<string, any> }[] }[] }[];
    expect([entry.entry_type, entry.metadata.format_version, entry.metadata.task.data_model]).toEqual(['violation_sequence', '2.2', 'ILP32']);
    expect(entry.metadata.task.input_file_hashes).toEqual({ [`${SUITE}/fib-bench-bug.c`]: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const waypoints = entry.content.map((s) => s.segment[0].waypoint);
    expect(waypoints).toHaveLength(14);
    expect(waypoints.slice(0, -1).every((w) => w.type === 'assumption' && w.thread_id !== undefined)).toBe(true);
    // The failing assert of main (thread 0) on line 58.
    expect(waypoints.at(-1)).toMatchObject({ type: 'target', thread_id: 0, location: { line: 58, function: 'main' } });
  });

  it('is replayed: the waypoints lead to the error in the interpreter', async () => {
    const r = await validate(fib, `${SUITE}/fib-bench-bug.c`);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^confirmed: a run that passes the 14 waypoints in order reaches the error, replayed in the interpreter/);
    expect(lastLine(r.out)).toBe('Result: FALSE(unreach-call)');
  });

  it('with the threads of two steps swapped it does not confirm', async () => {
    // The first two segments: thr1 (thread 1), then thr2 (thread 2).
    const w = tampered(dir, fib, 'swapped.yml', /thread_id: 1\n([\s\S]*?)thread_id: 2\n/, 'thread_id: 2\n$1thread_id: 1\n');
    const r = await validate(w, `${SUITE}/fib-bench-bug.c`);
    expect(r.out).toMatch(/^not confirmed: .*segment 1: thread 2 \(thr2\) has no step from where it is to line 38/);
    expect(lastLine(r.out)).toBe('Result: UNKNOWN');
  });

  it('a nondeterministic choice is a constraint; another value does not confirm', async () => {
    const file = 'test/fixtures/witness-nondet-bug.c';
    const w = join(dir, 'nondet.yml');
    expect(await witnessOf(file, w)).toBe('Result: FALSE(unreach-call)');
    expect(readFileSync(w, 'utf8')).toContain('value: n == 7 && x == 7');
    expect(lastLine((await validate(w, file)).out)).toBe('Result: FALSE(unreach-call)');
    const other = tampered(dir, w, 'nondet-6.yml', 'n == 7 && x == 7', 'n == 6 && x == 6');
    const r = await validate(other, file);
    expect(r.out).toMatch(/^not confirmed: no run follows the waypoints to the error/);
    expect(lastLine(r.out)).toBe('Result: UNKNOWN');
  });

  it('a constraint names only variables in C scope at its waypoint; a local out of scope there is not read', async () => {
    // The worker's step chooses x in an inner block and ends at line 16, after the block.
    const file = 'test/fixtures/witness-scope-bug.c';
    const w = join(dir, 'scope.yml');
    expect(await witnessOf(file, w)).toBe('Result: FALSE(unreach-call)');
    expect(readFileSync(w, 'utf8')).toMatch(/line: 16\n[\s\S]*?value: g == 5\n/);
    expect(readFileSync(w, 'utf8')).not.toMatch(/\bx == /);
    expect(lastLine((await validate(w, file)).out)).toBe('Result: FALSE(unreach-call)');
    const outside = tampered(dir, w, 'scope-x.yml', 'value: g == 5', 'value: g == 5 && x == 5');
    const r = await validate(outside, file);
    expect(r.out).toMatch(/^not confirmed: .*unsupported: 'x' is not in scope at test\/fixtures\/witness-scope-bug\.c:16:\d+$/m);
    expect(lastLine(r.out)).toBe('Result: UNKNOWN');
  });
});

describe('violation witnesses of threads created in a loop without a bound', () => {
  const file = 'test/fixtures/witness-unbounded-bug.c';
  const w = join(dir, 'unbounded.yml');

  it('are followed in the program with the loop cut after as many iterations as the witness has threads', async () => {
    expect(await witnessOf(file, w)).toBe('Result: FALSE(unreach-call)');
    // main (0) creates two workers (1, 2); the second to run fails.
    expect([...new Set(readFileSync(w, 'utf8').match(/thread_id: \d+/g))].sort()).toEqual(['thread_id: 0', 'thread_id: 1', 'thread_id: 2']);
    const r = await validate(w, file);
    expect(r.out).toMatch(/^confirmed: a run that passes the \d+ waypoints in order reaches the error in the program with each thread-creating loop without a bound cut after 2 iterations/);
    expect(lastLine(r.out)).toBe('Result: FALSE(unreach-call)');
  });

  it('a step given to a thread the run never created does not confirm', async () => {
    // The failing step by a third worker, which main's two creations never start.
    const other = tampered(dir, w, 'unbounded-3.yml', /thread_id: 2\n(?![\s\S]*thread_id: 2\n)/, 'thread_id: 3\n');
    const r = await validate(other, file);
    expect(r.out).toMatch(/^not confirmed: followed in the program with each thread-creating loop without a bound cut after K = 1…3 iterations, none confirms; with K iterations, 3: no run follows the waypoints to the error \(every path .* is infeasible/);
    expect(lastLine(r.out)).toBe('Result: UNKNOWN');
  });

  it('the cut keeps the loop\'s own test: two workers do not confirm where the nondeterministic bound allows one', async () => {
    // The same program but for `n > 2` / `n > 1`; the witness without its constraints and its hash, so only the loop's test can refute it.
    const [two, one] = ['test/fixtures/witness-unbounded-n2.c', 'test/fixtures/witness-unbounded-n1.c'];
    const w2 = join(dir, 'n2.yml');
    expect(await witnessOf(two, w2)).toBe('Result: FALSE(unreach-call)');
    const loose = tampered(dir, w2, 'n2-loose.yml', /value: n == \d+[^\n]*/, 'value: "1"');
    expect(lastLine((await validate(loose, two)).out)).toBe('Result: FALSE(unreach-call)');
    const text = readFileSync(loose, 'utf8').replace(/ {6}input_file_hashes:\n[^\n]*\n/, '').replaceAll('witness-unbounded-n2.c', 'witness-unbounded-n1.c');
    const w1 = join(dir, 'n1.yml');
    writeFileSync(w1, text);
    const r = await validate(w1, one);
    expect(r.out).toMatch(/^not confirmed: followed in the program with each thread-creating loop without a bound cut after K = 1…2 iterations, none confirms/);
    expect(lastLine(r.out)).toBe('Result: UNKNOWN');
  });
});

describe('correctness witnesses', () => {
  const file = 'test/fixtures/witness-safe.c';
  const safe = join(dir, 'safe.yml');

  it('a TRUE answer writes location invariants; all are inductive and rule out the error', async () => {
    expect(await witnessOf(file, safe)).toBe('Result: TRUE');
    const [entry] = parse(readFileSync(safe, 'utf8')) as { entry_type: string; metadata: { format_version: string }; content: { invariant: { type: string; value: string; format: string } }[] }[];
    expect([entry.entry_type, entry.metadata.format_version]).toEqual(['invariant_set', '2.0']);
    expect(entry.content.map((c) => c.invariant.value)).toContain('(a == 0 && x == 0 && y == 0) || (a == 0 && x == 1 && y == 0) || (a == 0 && x == 1 && y == 2) || (a == 2 && x == 1 && y == 2)');
    const r = await validate(safe, file);
    expect(r.out.match(/: inductive$/gm)).toHaveLength(entry.content.length);
    expect(r.out).toContain(`confirmed: the ${entry.content.length} inductive invariants rule out every step into an error location`);
    expect(lastLine(r.out)).toBe('Result: TRUE');
  });

  it('a wrong invariant is not inductive, names the failing obligation, and the rest no longer prove it', async () => {
    // After `x = 1` (line 13) the writer is at line 14 with x == 1: say x == 0 instead.
    const w = tampered(dir, safe, 'wrong.yml', 'value: x == 1 && y == 0', 'value: x == 0 && y == 0');
    const r = await validate(w, file);
    expect(r.out).toMatch(/^invariant at line 14:\d+: not inductive: step t\d+ of writer fails$/m);
    expect(lastLine(r.out)).toBe('Result: UNKNOWN');
  });

  it('an invariant at a place rely has no location for is not checked', async () => {
    const w = tampered(dir, safe, 'elsewhere.yml', /line: 14\n(\s+)column: \d+/, 'line: 7\n$1column: 1');
    expect((await validate(w, file)).out).toMatch(/^invariant at line 7:1: not checked: no location of rely's transition system at line 7:1$/m);
  });
});

describe('the committed examples', () => {
  it('are what rely writes today (but for uuid and creation time)', async () => {
    const fresh = join(dir, 'fib-bench.yml');
    await witnessOf(`${SUITE}/fib-bench.yml`, fresh);
    expect(stable(fresh)).toEqual(stable(`${COMMITTED}/fib-bench.yml`));
    const bug = join(dir, 'fib-bench-bug-again.yml');
    await witnessOf(`${SUITE}/fib-bench-bug.yml`, bug);
    expect(stable(bug)).toEqual(stable(`${COMMITTED}/fib-bench-bug.yml`));
  });

  it('fib-bench-bug: the violation witness is replayed', async () => {
    expect(lastLine((await validate(`${COMMITTED}/fib-bench-bug.yml`, `${SUITE}/fib-bench-bug.c`)).out)).toBe('Result: FALSE(unreach-call)');
  });

  it('fib-bench: every invariant is inductive, main\'s after the joins through the ghosts of the threads\' end flags', async () => {
    const r = await validate(`${COMMITTED}/fib-bench.yml`, `${SUITE}/fib-bench.c`);
    for (const t of ['thr1', 'thr2']) expect(r.out).toMatch(new RegExp(`^ghost rely_done_${t}: always equals thread ${t}'s end flag \\(inductive\\)$`, 'm'));
    for (const line of ['40:10', '40:17', '48:10', '48:17', '58:3', '60:12']) expect(r.out).toMatch(new RegExp(`^invariant at line ${line}: inductive$`, 'm'));
    expect(lastLine(r.out)).toBe('Result: TRUE');
  });
});

describe('bad witnesses and no witness', () => {
  it('a malformed witness is exit 2 with WITNESS:line:col', async () => {
    const w = tampered(dir, `${COMMITTED}/fib-bench-bug.yml`, 'bad-line.yml', /line: 38/, 'line: here');
    const r = await validate(w, `${SUITE}/fib-bench-bug.c`);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(new RegExp(`^${w}:\\d+:\\d+: error: 'line' must be a non-negative integer\\n$`));
    const yaml = join(dir, 'not-yaml.yml');
    writeFileSync(yaml, '- entry_type: [unclosed\n');
    const r2 = await validate(yaml, `${SUITE}/fib-bench-bug.c`);
    expect([r2.code, r2.err]).toEqual([2, expect.stringMatching(new RegExp(`^${yaml}:\\d+:\\d+: error: not YAML`))]);
  });

  it('a witness of another file is exit 2 at its hash', async () => {
    const r = await validate(`${COMMITTED}/fib-bench-bug.yml`, `${SUITE}/fib-bench.c`);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/fib-bench-bug\.yml:\d+:\d+: error: the witness is for another file/);
  });

  it('an invariant that is not C is exit 2, located in the witness', async () => {
    const w = tampered(dir, join(dir, 'safe.yml'), 'not-c.yml', 'value: x == 1 && y == 0', 'value: x == = 1');
    const r = await validate(w, 'test/fixtures/witness-safe.c');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(new RegExp(`^${w}:\\d+:\\d+: error: syntax error in C expression: unexpected '='`));
  });

  it('UNKNOWN writes none and says so', async () => {
    const prp = join(dir, 'no-overflow.prp');
    writeFileSync(prp, 'CHECK( init(main()), LTL(G ! overflow) )\n');
    const out = join(dir, 'none.yml');
    const r = await rely(['svcomp', '--prop', prp, '--witness', out, `${SUITE}/fib-bench.c`]);
    expect(lastLine(r.out)).toBe('Result: UNKNOWN');
    expect(r.err).toContain(`no witness written to ${out}: the result is UNKNOWN`);
    expect(existsSync(out)).toBe(false);
  });
});

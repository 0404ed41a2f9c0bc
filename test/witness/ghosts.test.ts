/** Correctness witnesses with ghost variables (format 2.1): written for lock- and join-based proofs, read back Owicki–Gries style. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { rely, stopZ3 } from '../helpers.js';
import { witnessSchemaErrors } from './witness-schema.js';
import { tampered } from './tampered.js';

const PRP = 'benchmarks/programs/svcomp-style/unreach-call.prp';
const LOCK = 'test/fixtures/witness-lock.c';
const JOIN = 'test/fixtures/witness-join.c';
const CALL = 'test/fixtures/witness-call.c';
const dir = mkdtempSync(join(tmpdir(), 'rely-ghosts-'));
const lastLine = (out: string): string => out.trimEnd().split('\n').at(-1)!;
const validate = (w: string, file: string) => rely(['validate-witness', '--witness', w, file]);

afterAll(stopZ3);

interface Entry {
  entry_type: string;
  metadata: { format_version: string };
  content: any;
}

/** Writes the witness of C file `file` to DIR/name and returns its path. */
async function witnessOf(file: string, name: string): Promise<string> {
  const out = join(dir, name);
  const r = await rely(['svcomp', '--prop', PRP, '--witness', out, file]);
  expect(lastLine(r.out)).toBe('Result: TRUE');
  return out;
}


describe('a lock-based proof', () => {
  let w: string;
  beforeAll(async () => {
    w = await witnessOf(LOCK, 'lock.yml');
  });

  it('is written in format 2.1: a ghost for the mutex owner, set at each lock and unlock, named by the invariants', () => {
    const [ghosts, invariants] = parse(readFileSync(w, 'utf8')) as Entry[];
    expect([ghosts.entry_type, ghosts.metadata.format_version, invariants.entry_type, invariants.metadata.format_version]).toEqual(['ghost_instrumentation', '2.1', 'invariant_set', '2.1']);
    expect(ghosts.content.ghost_variables).toEqual([{ name: 'rely_owner_m', scope: 'global', type: 'int', initial: { value: '0', format: 'c_expression' } }]);
    // Thread `one` (index 1) locks at line 13 and unlocks at 17; `two` (index 2) at 22 and 26.
    const updates = ghosts.content.ghost_updates.map((u: any) => [u.location.line, u.updates[0].variable, u.updates[0].value]);
    expect(updates).toEqual([[13, 'rely_owner_m', '2'], [17, 'rely_owner_m', '0'], [22, 'rely_owner_m', '3'], [26, 'rely_owner_m', '0']]);
    expect(invariants.content.some((c: any) => /rely_owner_m == 2/.test(c.invariant.value))).toBe(true);
    expect(witnessSchemaErrors(w)).toEqual([]);
  });

  it('validates TRUE: the ghost is linked to the mutex, every invariant is inductive', async () => {
    const r = await validate(w, LOCK);
    expect(r.out).toMatch(/^ghost rely_owner_m: always equals the owner of mutex m .*\(inductive\)$/m);
    expect(r.out).not.toMatch(/not inductive|not checked/);
    expect(lastLine(r.out)).toBe('Result: TRUE');
  });

  it('with a wrong ghost update (thread one takes the lock as thread two) it is not TRUE', async () => {
    const bad = tampered(dir, w, 'lock-wrong-update.yml', /(line: 13\n[\s\S]*?value: )"2"/, '$1"3"');
    const r = await validate(bad, LOCK);
    expect(r.out).not.toMatch(/^ghost rely_owner_m: always equals/m);
    expect(r.out).toMatch(/not inductive/);
    expect(lastLine(r.out)).toBe('Result: UNKNOWN');
  });

  it('with a false invariant (the owner is 0 while thread one holds the lock) it is not TRUE', async () => {
    const bad = tampered(dir, w, 'lock-false-invariant.yml', /rely_owner_m == 2/g, 'rely_owner_m == 0');
    const r = await validate(bad, LOCK);
    expect(r.out).toMatch(/not inductive/);
    expect(lastLine(r.out)).toBe('Result: UNKNOWN');
  });

  it('without its ghosts (format 2.0) it names an undeclared variable: exit 2, located', async () => {
    const [, invariants] = parse(readFileSync(w, 'utf8')) as Entry[];
    invariants.metadata.format_version = '2.0';
    const bare = join(dir, 'lock-no-ghosts.yml');
    writeFileSync(bare, JSON.stringify([invariants]));
    const r = await validate(bare, LOCK);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/rely_owner_m/);
  });
});

describe('a join-based proof', () => {
  it('has a ghost for the thread\'s end flag, set where it ends, and validates TRUE', async () => {
    const w = await witnessOf(JOIN, 'join.yml');
    const [ghosts] = parse(readFileSync(w, 'utf8')) as Entry[];
    expect(ghosts.content.ghost_variables.map((v: any) => v.name)).toEqual(['rely_done_worker']);
    expect(ghosts.content.ghost_updates.map((u: any) => u.updates[0].value)).toEqual(['1']);
    const r = await validate(w, JOIN);
    expect(r.out).toMatch(/^ghost rely_done_worker: always equals thread worker's end flag \(inductive\)$/m);
    expect(lastLine(r.out)).toBe('Result: TRUE');
  });
});

describe('a proof through a function the thread calls', () => {
  let w: string;
  beforeAll(async () => {
    w = await witnessOf(CALL, 'call.yml');
  });

  it('copies the caller\'s loop counter into a ghost, updated where k is assigned, and validates TRUE', async () => {
    const [ghosts] = parse(readFileSync(w, 'utf8')) as Entry[];
    const copies = ghosts.content.ghost_updates.filter((u: any) => u.updates.some((x: any) => x.variable === 'rely_worker_k'));
    expect(copies.map((u: any) => [u.location.line, u.updates.find((x: any) => x.variable === 'rely_worker_k').value])).toEqual([[19, 'k'], [19, 'k']]);
    const r = await validate(w, CALL);
    expect(r.out).not.toMatch(/not inductive/);
    expect(lastLine(r.out)).toBe('Result: TRUE');
  });

  it('with the copy replaced by a constant it is not TRUE', async () => {
    const r = await validate(tampered(dir, w, 'call-no-copy.yml', /value: k$/gm, 'value: "0"'), CALL);
    expect(lastLine(r.out)).toBe('Result: UNKNOWN');
  });

  it('a copy of a name that is not a variable there is not read: UNKNOWN', async () => {
    const r = await validate(tampered(dir, w, 'call-nosuch.yml', /value: k$/m, 'value: nosuch'), CALL);
    expect(r.out).toMatch(/^not checked: .*reads 'nosuch', which is not a variable rely can place at line 19:\d+$/m);
    expect(lastLine(r.out)).toBe('Result: UNKNOWN');
  });
});

describe('soundness: ghosts never change the program', () => {
  let w: string;
  beforeAll(async () => {
    w = await witnessOf(LOCK, 'lock-again.yml');
  });

  it('a ghost update of a program variable (one the witness does not declare) is exit 2, located', async () => {
    const bad = tampered(dir, w, 'update-x.yml', /variable: rely_owner_m/, 'variable: x');
    const r = await validate(bad, LOCK);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(new RegExp(`^${bad}:\\d+:\\d+: error: update of 'x', which no ghost_variables entry declares`));
  });

  it('a ghost that has the name of a program variable is not read: UNKNOWN', async () => {
    const bad = tampered(dir, w, 'ghost-x.yml', /rely_owner_m/g, 'seen');
    const r = await validate(bad, LOCK);
    expect(r.out).toMatch(/^not checked: .*ghost variable 'seen' has the name of a variable of the program$/m);
    expect(lastLine(r.out)).toBe('Result: UNKNOWN');
  });

  it('an update that reads the program\'s state is not read: UNKNOWN', async () => {
    const bad = tampered(dir, w, 'update-reads.yml', /value: "2"/, 'value: x + 2');
    const r = await validate(bad, LOCK);
    expect(r.out).toMatch(/^not checked: .*the update of ghost 'rely_owner_m' is neither an integer constant nor a variable/m);
    expect(lastLine(r.out)).toBe('Result: UNKNOWN');
  });

  it('an invariant that is not inductive is dropped and the rest do not prove the program', async () => {
    // After `x = 1` (line 14) thread one is at line 15 with x == 1: say x == 2 instead.
    const text = readFileSync(w, 'utf8');
    const line15 = /line: 15\n(?:.*\n){2}\s+value: (.*)\n/.exec(text)!;
    const bad = tampered(dir, w, 'not-inductive.yml', line15[1], line15[1].replace(/x == 1/g, 'x == 2'));
    const r = await validate(bad, LOCK);
    expect(r.out).toMatch(/^invariant at line 15:\d+: not inductive: /m);
    expect(lastLine(r.out)).toBe('Result: UNKNOWN');
  });
});

describe('the witness schema', () => {
  it('the committed witnesses (2.1 with ghosts, 2.2 with thread ids) are valid; one without a uuid or with a bad ghost name is not', () => {
    for (const w of ['benchmarks/witnesses/fib-bench.yml', 'benchmarks/witnesses/fib-bench-bug.yml']) expect(witnessSchemaErrors(w)).toEqual([]);
    const noUuid = tampered(dir, 'benchmarks/witnesses/fib-bench.yml', 'no-uuid.yml', /\n\s+uuid: .*/, '');
    expect(witnessSchemaErrors(noUuid).join('; ')).toMatch(/must have required property 'uuid'/);
    const badName = tampered(dir, 'benchmarks/witnesses/fib-bench.yml', 'bad-ghost.yml', 'name: rely_done_thr1', 'name: rely-done');
    expect(witnessSchemaErrors(badName).join('; ')).toMatch(/must match pattern/);
  });
});

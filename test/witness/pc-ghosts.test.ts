/**
 * Correctness witnesses from the exact reachable states, with pc ghosts (witness/pc-ghosts.ts):
 * Peterson's algorithm, which thread-modular model checking cannot prove, read back
 * Owicki–Gries style; and what must not give TRUE.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { rely, stopZ3 } from '../helpers.js';
import { witnessSchemaErrors } from './witness-schema.js';

const PRP = 'benchmarks/programs/svcomp-style/unreach-call.prp';
const PETERSON = 'test/fixtures/witness-peterson.c';
const BUG = 'test/fixtures/witness-peterson-bug.c';
const dir = mkdtempSync(join(tmpdir(), 'rely-pc-ghosts-'));
const lastLine = (out: string): string => out.trimEnd().split('\n').at(-1)!;
const validate = (w: string, file: string) => rely(['validate-witness', '--witness', w, file]);
const sha256 = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

afterAll(stopZ3);

describe('a mutual-exclusion proof (Peterson)', () => {
  let w: string;
  let text: string;
  beforeAll(async () => {
    w = join(dir, 'peterson.yml');
    const r = await rely(['svcomp', '--prop', PRP, '--witness', w, PETERSON]);
    expect(lastLine(r.out)).toBe('Result: TRUE');
    expect(r.err).toMatch(/its invariants are the exact reachable states/);
    text = readFileSync(w, 'utf8');
  });

  it('has pc ghosts for both threads, set at their statements, named by the invariants; valid against the schema', () => {
    const [ghosts, invariants] = parse(text) as { content: any }[];
    const names = ghosts.content.ghost_variables.map((v: any) => v.name);
    expect(names).toEqual(expect.arrayContaining(['rely_pc_one', 'rely_pc_two']));
    // Thread one's statements are lines 10–17 (its head, line 9, stands for its start and end: no update there).
    const lines = ghosts.content.ghost_updates.filter((u: any) => u.updates.some((x: any) => x.variable === 'rely_pc_one')).map((u: any) => u.location.line);
    expect(new Set(lines)).toEqual(new Set([10, 11, 12, 13, 14, 15, 16, 17]));
    expect(invariants.content.some((c: any) => /rely_pc_two == \d+/.test(c.invariant.value) && c.invariant.location.line === 14)).toBe(true);
    expect(witnessSchemaErrors(w)).toEqual([]);
  });

  it('validates TRUE: every invariant inductive', async () => {
    const r = await validate(w, PETERSON);
    expect(r.out).not.toMatch(/not inductive/);
    expect(lastLine(r.out)).toBe('Result: TRUE');
  });

  it('a wrong pc ghost update (thread one "back at line 10" when it enters) is caught: not TRUE', async () => {
    const at13 = /(line: 13\n\s+column: \d+\n\s+function: one\n\s+updates:\n\s+- variable: rely_pc_one\n\s+value: )"(\d+)"/.exec(text)!;
    const bad = join(dir, 'wrong-update.yml');
    writeFileSync(bad, text.replace(at13[0], `${at13[1]}"1"`));
    const r = await validate(bad, PETERSON);
    expect(r.out).toMatch(/not inductive/);
    expect(lastLine(r.out)).toBe('Result: UNKNOWN');
  });

  it('the same witness for the program with a broken wait (both threads can be inside) is not TRUE', async () => {
    const r0 = await rely(['svcomp', '--prop', PRP, BUG]);
    expect(lastLine(r0.out)).toBe('Result: FALSE(unreach-call)');
    const bad = join(dir, 'bug.yml');
    writeFileSync(bad, text.replaceAll(sha256(PETERSON), sha256(BUG)));
    const r = await validate(bad, BUG);
    expect(r.out).toMatch(/not inductive/);
    expect(lastLine(r.out)).toBe('Result: UNKNOWN');
  });
});

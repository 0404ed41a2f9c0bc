/**
 * Every witness `rely svcomp --witness` writes for the svcomp-style suite (TRUE and
 * FALSE tasks) and for SV-COMP's pthread-atomic tasks is valid against the witness
 * schema (witness-schema.ts). A task rely answers UNKNOWN has no witness to check.
 * The correctness witnesses are read back too: those that `rely validate-witness`
 * confirmed when this was written (docs/svcomp.md) must still be confirmed.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rely, stopZ3 } from '../helpers.js';
import { witnessSchemaErrors } from './witness-schema.js';

const dir = mkdtempSync(join(tmpdir(), 'rely-witness-schema-'));

afterAll(stopZ3);

/** The task files of `folder` whose property is unreach-call. */
const tasks = (folder: string): string[] =>
  readdirSync(folder)
    .filter((f) => f.endsWith('.yml') && /unreach-call\.prp/.test(readFileSync(join(folder, f), 'utf8')))
    .map((f) => join(folder, f));

const CONFIRMED: Record<string, string[]> = {
  'benchmarks/programs/svcomp-style': ['fib-bench', 'ptr-swap-buffers', 'stack-lock'],
  'benchmarks/svcomp/pthread-atomic': ['dekker', 'lamport', 'peterson', 'time_var_mutex'],
};

describe.each(Object.keys(CONFIRMED))('witnesses of %s', (folder) => {
  it('each one written is schema-valid, TRUE and FALSE answers both write some, and the proofs validate as before', async () => {
    const written: Record<string, number> = { TRUE: 0, 'FALSE(unreach-call)': 0 };
    const confirmed: string[] = [];
    for (const task of tasks(folder)) {
      const w = join(dir, `${task.replace(/\W/g, '_')}.witness.yml`);
      const r = await rely(['svcomp', '--timeout', '20', '--witness', w, task]);
      const verdict = r.out.trimEnd().split('\n').at(-1)!.replace('Result: ', '');
      if (verdict === 'UNKNOWN') continue;
      expect(existsSync(w), task).toBe(true);
      expect([task, witnessSchemaErrors(w)]).toEqual([task, []]);
      written[verdict]++;
      if (verdict !== 'TRUE') continue;
      const input = /input_files: '?([^'\n]+)'?/.exec(readFileSync(task, 'utf8'))![1];
      const v = await rely(['validate-witness', '--witness', w, join(folder, input)]);
      if (v.out.trimEnd().endsWith('Result: TRUE')) confirmed.push(task.split('/').at(-1)!.replace(/\.yml$/, ''));
    }
    expect(confirmed).toEqual(expect.arrayContaining(CONFIRMED[folder]));
    expect(written.TRUE).toBeGreaterThan(0);
    if (folder.includes('svcomp-style')) expect(written['FALSE(unreach-call)']).toBeGreaterThan(0);
  }, 1_200_000);
});

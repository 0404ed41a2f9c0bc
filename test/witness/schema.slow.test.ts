/**
 * Every witness `rely svcomp --witness` writes for the svcomp-style suite (TRUE and
 * FALSE tasks) and for SV-COMP's pthread-atomic tasks is valid against the witness
 * schema (witness-schema.ts). A task rely answers UNKNOWN has no witness to check.
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

describe.each(['benchmarks/programs/svcomp-style', 'benchmarks/svcomp/pthread-atomic'])('witnesses of %s', (folder) => {
  it('each one written is schema-valid, and TRUE and FALSE answers both write some', async () => {
    const written: Record<string, number> = { TRUE: 0, 'FALSE(unreach-call)': 0 };
    for (const task of tasks(folder)) {
      const w = join(dir, `${task.replace(/\W/g, '_')}.witness.yml`);
      const r = await rely(['svcomp', '--timeout', '20', '--witness', w, task]);
      const verdict = r.out.trimEnd().split('\n').at(-1)!.replace('Result: ', '');
      if (verdict === 'UNKNOWN') continue;
      expect(existsSync(w), task).toBe(true);
      expect([task, witnessSchemaErrors(w)]).toEqual([task, []]);
      written[verdict]++;
    }
    expect(written.TRUE).toBeGreaterThan(0);
    if (folder.includes('svcomp-style')) expect(written['FALSE(unreach-call)']).toBeGreaterThan(0);
  }, 1_200_000);
});

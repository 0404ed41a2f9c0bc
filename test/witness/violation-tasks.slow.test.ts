/**
 * Violation witnesses of SV-COMP-shaped tasks: for every FALSE task of the svcomp-style
 * suite and of SV-COMP's pthread-atomic and pthread-ext (threads created in loops
 * without a bound) that `rely svcomp` answers FALSE, the witness it writes is
 * confirmed by `rely validate-witness` (a replayed run to the error). The reader reads
 * each constraint in C scope at its waypoint and does not confirm one that names a
 * variable out of scope, so a confirmation also says every constraint is in scope.
 */
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { rely, stopZ3 } from '../helpers.js';

const FOLDERS = ['benchmarks/programs/svcomp-style', 'benchmarks/svcomp/pthread-atomic', 'benchmarks/svcomp/pthread-ext'];
/** Per task: what a run may take (the tasks rely cannot decide time out here). */
const TIMEOUT_S = 30;
const dir = mkdtempSync(join(tmpdir(), 'rely-violation-tasks-'));
const lastLine = (out: string): string => out.trimEnd().split('\n').at(-1)!;

afterAll(stopZ3);

interface Task {
  readonly yml: string;
  readonly input: string;
}

/** The tasks of a folder whose unreach-call verdict is FALSE. */
function falseTasks(folder: string): Task[] {
  return readdirSync(folder)
    .filter((n) => n.endsWith('.yml'))
    .sort()
    .flatMap((n) => {
      const doc = parse(readFileSync(join(folder, n), 'utf8')) as { input_files: string; properties: { property_file: string; expected_verdict?: boolean }[] };
      const unreach = doc.properties.find((p) => p.property_file.endsWith('unreach-call.prp'));
      return unreach?.expected_verdict === false ? [{ yml: join(folder, n), input: join(folder, doc.input_files) }] : [];
    });
}

describe.each(FOLDERS)('%s: the violation witness of every FALSE answer is confirmed', (folder) => {
  const tasks = falseTasks(folder);
  let answeredFalse = 0;

  it.each(tasks.map((t) => [t.yml.split('/').at(-1)!, t] as const))('%s', async (_name, task) => {
    const w = join(dir, `${task.yml.split('/').at(-1)!}.witness.yml`);
    const answer = await rely(['svcomp', '--timeout', String(TIMEOUT_S), '--witness', w, task.yml]);
    expect(answer.code).toBe(0);
    const verdict = lastLine(answer.out);
    // A FALSE task is never TRUE; UNKNOWN writes no witness and there is nothing to check.
    expect(verdict).not.toBe('Result: TRUE');
    if (verdict !== 'Result: FALSE(unreach-call)') return;
    answeredFalse++;
    const r = await rely(['validate-witness', '--witness', w, task.input]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^confirmed: a run that passes the \d+ waypoints in order reaches the error/m);
    expect(lastLine(r.out)).toBe('Result: FALSE(unreach-call)');
  }, 4 * TIMEOUT_S * 1000);

  it('has FALSE tasks, and rely answers FALSE on some (else the cases above check nothing)', () => {
    expect(tasks.length).toBeGreaterThan(0);
    expect(answeredFalse).toBeGreaterThan(0);
  });
});

/** What the BenchExec tests share: python3 and BenchExec on this machine (or why not), and a task's expected verdict in BenchExec's words. */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';

export const ROOT = resolve(import.meta.dirname, '..', '..');

/** python3 run from the repository root (no bytecode written into contrib/), with extra environment. */
export function python(args: readonly string[], env: Record<string, string> = {}): SpawnSyncReturns<string> {
  return spawnSync('python3', args, { cwd: ROOT, encoding: 'utf8', env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', ...env } });
}

/** Why a test needing python3 cannot run here, or undefined. */
function whyNoPython(): string | undefined {
  const r = python(['--version']);
  return r.status === 0 ? undefined : `python3 is not available (${r.error?.message ?? r.stderr.trim()})`;
}

/** Why a test needing BenchExec cannot run here, or undefined (`python3 -c 'import benchexec'` works). */
function whyNoBenchExec(): string | undefined {
  const noPython = whyNoPython();
  if (noPython) return noPython;
  const r = python(['-c', 'import benchexec']);
  return r.status === 0 ? undefined : `BenchExec is not installed (python3 -m pip install benchexec): ${r.stderr.trim().split('\n').at(-1)}`;
}

export const pythonMissing = whyNoPython();
export const benchexecMissing = whyNoBenchExec();
if (pythonMissing) console.log(`skipped: ${pythonMissing}`);
else if (benchexecMissing) console.log(`skipped: the BenchExec tests: ${benchexecMissing}`);

/** A task file's expected verdict for unreach-call as BenchExec writes results: true or false(unreach-call). */
export function expectedVerdict(task: string): string {
  const doc = parse(readFileSync(join(ROOT, task), 'utf8')) as { properties: { property_file: string; expected_verdict: boolean }[] };
  const prop = doc.properties.find((p) => p.property_file.endsWith('unreach-call.prp'));
  if (!prop) throw new Error(`${task} has no unreach-call property`);
  return prop.expected_verdict ? 'true' : 'false(unreach-call)';
}

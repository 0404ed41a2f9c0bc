/**
 * UNKNOWN for a run that ended before the engines could give a verdict (the deadline
 * passed while the input was read; cli/rely.js: the worker stopped or out of memory),
 * printed as `rely verify` and `rely svcomp` print it: what goes to stdout, and the exit code.
 * The SARIF log of `--sarif` (cli/sarif.ts wrote it, UNKNOWN, when the run started)
 * gets the reason too.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export function unknownVerdict(args: readonly string[], reason: string): { out: string; code: number } {
  if (args[0] === 'verify' || args[0] === 'svcomp') sarifReason(args, `UNKNOWN: ${reason}`);
  if (args[0] === 'svcomp') return { out: `UNKNOWN: ${reason}\nResult: UNKNOWN\n`, code: 0 };
  return { out: args.includes('--json') ? `${JSON.stringify({ verdict: 'unknown', reason })}\n` : `UNKNOWN: ${reason}\n`, code: 3 };
}

/** The log `--sarif` names (the last one, as commander takes it), if the run wrote its UNKNOWN there: its notification says `text`. */
function sarifReason(args: readonly string[], text: string): void {
  let path: string | undefined;
  for (let i = 0; i < args.length && args[i] !== '--'; i++) {
    const m = /^--sarif(?:=(.*))?$/.exec(args[i]);
    if (m) path = m[1] ?? args[i + 1];
  }
  if (!path || !existsSync(path)) return;
  type Notified = { runs: { invocations: { endTimeUtc: string; toolExecutionNotifications?: { message: { text: string } }[] }[] }[] };
  const log = JSON.parse(readFileSync(path, 'utf8')) as Notified;
  const [invocation] = log.runs[0].invocations;
  const [note] = invocation.toolExecutionNotifications ?? [];
  if (!note?.message.text.startsWith('UNKNOWN: ')) return;
  note.message.text = text;
  invocation.endTimeUtc = new Date().toISOString();
  writeFileSync(path, `${JSON.stringify(log, null, 2)}\n`);
}

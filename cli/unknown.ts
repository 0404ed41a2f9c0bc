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

/** The value of option `--name` as the arguments give it (the last one, as commander takes it; `--name=V` or `--name V`), before any `--`. */
export function lastOptionValue(args: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < args.length && args[i] !== '--'; i++) {
    if (args[i] === `--${name}`) value = args[i + 1];
    else if (args[i].startsWith(`--${name}=`)) value = args[i].slice(name.length + 3);
  }
  return value;
}

/** The log `--sarif` names, if the run wrote its UNKNOWN there: its notification says `text`. */
function sarifReason(args: readonly string[], text: string): void {
  const path = lastOptionValue(args, 'sarif');
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

/**
 * UNKNOWN for a run that ended before the engines could give a verdict (the deadline
 * passed while the input was read; cli/rely.js: the worker stopped or out of memory),
 * printed as `rely verify` and `rely svcomp` print it: what goes to stdout, and the exit code.
 */
export function unknownVerdict(args: readonly string[], reason: string): { out: string; code: number } {
  if (args[0] === 'svcomp') return { out: `UNKNOWN: ${reason}\nResult: UNKNOWN\n`, code: 0 };
  return { out: args.includes('--json') ? `${JSON.stringify({ verdict: 'unknown', reason })}\n` : `UNKNOWN: ${reason}\n`, code: 3 };
}

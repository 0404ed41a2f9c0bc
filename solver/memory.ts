/**
 * The memory of a run beyond rely's own process: the resident size of the native
 * solver processes it started (z3-native.ts registers them). core/budget.ts adds it to
 * the process's own resident size against `--max-memory`.
 */
import { readFileSync } from 'node:fs';

/** Process ids of the running native solvers (of this thread). */
export const solverPids = new Set<number>();

/** Resident bytes of process `pid` (0 when it is gone or /proc is not there). */
export function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Resident bytes of the native solver processes running now. */
export function solversRss(): number {
  let sum = 0;
  for (const pid of solverPids) sum += rssOf(pid);
  return sum;
}

/** The run's memory now: rely's process (every thread: its heaps, code, buffers) and its solver processes, in bytes. */
export function runMemory(): { readonly rely: number; readonly solvers: number; readonly total: number } {
  const rely = process.memoryUsage.rss();
  const solvers = solversRss();
  return { rely, solvers, total: rely + solvers };
}

export const MB = 2 ** 20;

/**
 * The run's budget: a deadline and a heap limit. Engines call `check()` between
 * steps of their searches and size each solver query by `queryMs`, so a run ends with
 * UNKNOWN (timeout, out of memory) rather than overrunning `--timeout` or dying in
 * V8's heap abort with a stack trace.
 */
import { getHeapStatistics } from 'node:v8';
import { Cancelled, OutOfMemory, Timeout } from './errors.js';

export interface BudgetLimits {
  /** performance.now() past which the run stops with UNKNOWN (timeout). */
  readonly deadline?: number;
  /** Live heap bytes past which the run stops with UNKNOWN (out of memory); default 80% of node's heap limit: a big Map that grows needs a large block at once. */
  readonly heapLimitBytes?: number;
  /** Stops the run from outside: check() throws Cancelled, and the run's solvers close (solver/select.ts). */
  readonly signal?: AbortSignal;
}

/** How often the heap is looked at: reading it costs more than a clock read. */
const HEAP_CHECK_MS = 100;
/** How long a checkpoint lets a search run without a turn of the event loop. */
const TURN_MS = 25;

export class Budget {
  readonly deadline: number | undefined;
  readonly signal: AbortSignal | undefined;
  private readonly heapLimit: number;
  private heapSeen = -Infinity;
  private turned = performance.now();

  constructor(limits: BudgetLimits = {}) {
    this.deadline = limits.deadline;
    this.signal = limits.signal;
    this.heapLimit = limits.heapLimitBytes ?? 0.8 * getHeapStatistics().heap_size_limit;
  }

  /** The same heap limit and deadline (or an earlier one) for a part of the run that `stop` (or this budget's own signal) ends. */
  lane(stop: AbortSignal, deadline?: number): Budget {
    return new Budget({ deadline: this.earlier(deadline), heapLimitBytes: this.heapLimit, signal: this.signal ? AbortSignal.any([this.signal, stop]) : stop });
  }

  /** The same limits and signal, with the deadline no later than `deadline`: a share of the run. */
  within(deadline?: number): Budget {
    return new Budget({ deadline: this.earlier(deadline), heapLimitBytes: this.heapLimit, signal: this.signal });
  }

  private earlier(deadline: number | undefined): number | undefined {
    return deadline === undefined ? this.deadline : Math.min(deadline, this.deadline ?? Infinity);
  }

  /** Throws Cancelled once the signal fired, Timeout past the deadline, OutOfMemory past the heap limit. */
  check(): void {
    if (this.signal?.aborted) throw new Cancelled();
    const now = performance.now();
    if (this.deadline !== undefined && now > this.deadline) throw new Timeout();
    if (now - this.heapSeen < HEAP_CHECK_MS) return;
    this.heapSeen = now;
    const used = getHeapStatistics().used_heap_size;
    if (used > this.heapLimit) throw new OutOfMemory(used, this.heapLimit);
  }

  /**
   * check(), and every TURN_MS a turn of the event loop. A search whose solver answers
   * come from caches never waits for I/O, so without it a portfolio's other lanes could
   * not report, nor a stop arrive, for seconds.
   */
  async checkpoint(): Promise<void> {
    this.check();
    if (performance.now() - this.turned < TURN_MS) return;
    await new Promise((resolve) => setImmediate(resolve));
    this.turned = performance.now();
    this.check();
  }

  /** Whether the deadline has passed. */
  expired(): boolean {
    return this.deadline !== undefined && performance.now() > this.deadline;
  }

  /** The limit of one solver query: the time left (at least 1 ms), capped by `capMs`. */
  queryMs(capMs?: number): number | undefined {
    const left = this.deadline === undefined ? undefined : Math.max(1, this.deadline - performance.now());
    return left === undefined ? capMs : Math.min(left, capMs ?? left);
  }
}

/** A timer that adds the time of each awaited step to its entry of `ms` (an engine's time per phase). */
export function stopwatch<K extends string>(ms: Record<K, number>): <T>(key: K, f: () => Promise<T>) => Promise<T> {
  return async (key, f) => {
    const t = performance.now();
    try {
      return await f();
    } finally {
      ms[key] += performance.now() - t;
    }
  };
}

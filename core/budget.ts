/**
 * The run's budget: a deadline, a heap limit and (--max-memory) a memory limit.
 * Engines call `check()` between steps of their searches and size each solver query
 * by `queryMs`, so a run ends with UNKNOWN (timeout, out of memory) rather than
 * overrunning `--timeout` or dying in V8's heap abort with a stack trace. The memory
 * limit counts the whole run: rely's process (every thread) and its native z3
 * processes; the z3s get it too (solverLimits: z3's own -memory and a watch while a
 * query runs, solver/z3-native.ts).
 */
import { getHeapStatistics } from 'node:v8';
import { MB, runMemory } from '../solver/memory.js';
import { memoryNote, type NativeLimits } from '../solver/z3-native.js';
import { Cancelled, OutOfMemory, Timeout } from './errors.js';

export interface BudgetLimits {
  /** performance.now() past which the run stops with UNKNOWN (timeout). */
  readonly deadline?: number;
  /** Live heap bytes past which the run stops with UNKNOWN (out of memory); default 80% of node's heap limit: a big Map that grows needs a large block at once. */
  readonly heapLimitBytes?: number;
  /** --max-memory: MB the whole run may use (rely's resident memory and its z3 processes'); none by default. */
  readonly memoryLimitMb?: number;
  /** Stops the run from outside: check() throws Cancelled, and the run's solvers close (solver/select.ts). */
  readonly signal?: AbortSignal;
}

/** How often the heap is looked at: reading it costs more than a clock read. */
const HEAP_CHECK_MS = 100;
/** How long a checkpoint lets a search run without a turn of the event loop. */
const TURN_MS = 25;
/**
 * Steps of a loop between two looks at the budget (`tick`). A step of the cheapest
 * loops (a state of an explicit search, a row of an elimination) takes about a
 * microsecond, a look a clock read: every 1024 steps the looks cost nothing
 * measurable, and a deadline is seen within a few milliseconds.
 */
const STEPS_PER_LOOK = 1024;

export class Budget {
  readonly deadline: number | undefined;
  readonly signal: AbortSignal | undefined;
  readonly memoryLimitMb: number | undefined;
  private readonly heapLimit: number;
  /** Whether the heap limit is the default (80% of V8's), for the message. */
  private readonly heapDefault: boolean;
  private heapSeen = -Infinity;
  private turned = performance.now();
  private steps = 0;

  constructor(limits: BudgetLimits = {}) {
    this.deadline = limits.deadline;
    this.signal = limits.signal;
    this.memoryLimitMb = limits.memoryLimitMb;
    this.heapDefault = limits.heapLimitBytes === undefined;
    this.heapLimit = limits.heapLimitBytes ?? 0.8 * getHeapStatistics().heap_size_limit;
  }

  private limits(): BudgetLimits {
    return { heapLimitBytes: this.heapDefault ? undefined : this.heapLimit, memoryLimitMb: this.memoryLimitMb };
  }

  /** The same heap limit and deadline (or an earlier one) for a part of the run that `stop` (or this budget's own signal) ends. */
  lane(stop: AbortSignal, deadline?: number): Budget {
    return new Budget({ ...this.limits(), deadline: this.earlier(deadline), signal: this.signal ? AbortSignal.any([this.signal, stop]) : stop });
  }

  /** The same limits and signal, with the deadline no later than `deadline`: a share of the run. */
  within(deadline?: number): Budget {
    return new Budget({ ...this.limits(), deadline: this.earlier(deadline), signal: this.signal });
  }

  /** What the run's native solvers are bounded by: the memory limit and the deadline. */
  solverLimits(): NativeLimits {
    return { memoryMb: this.memoryLimitMb, deadline: this.deadline };
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
    const why = this.memoryProblem();
    if (why) throw new OutOfMemory(why);
  }

  /**
   * Why the run is out of memory (the reason of its UNKNOWN), or undefined: the heap
   * of this thread past the heap limit, or with --max-memory the run's memory past it.
   */
  memoryProblem(): string | undefined {
    const used = getHeapStatistics().used_heap_size;
    if (used > this.heapLimit) {
      const whose = this.heapDefault ? "80% of the JS heap's limit; --max-memory MB sets it" : '--max-memory';
      return `out of memory: ${Math.round(used / MB)} MB of heap in use, past the run's limit of ${Math.round(this.heapLimit / MB)} MB (${whose})`;
    }
    if (this.memoryLimitMb === undefined) return undefined;
    const m = runMemory();
    return m.total > this.memoryLimitMb * MB ? memoryNote(m, this.memoryLimitMb) : undefined;
  }

  /**
   * check() at the first call and every STEPS_PER_LOOK-th after: for the step of a loop
   * too cheap to look at the clock each time. A loop whose step costs far more than a
   * clock read (a whole search, a round of L*) calls check() itself.
   */
  tick(): void {
    if ((this.steps++ & (STEPS_PER_LOOK - 1)) === 0) this.check();
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

/** What a budget's check threw (Timeout, OutOfMemory: a search that stops with UNKNOWN, its message the reason); anything else, Cancelled included, is thrown on. */
export function ranOut(e: unknown): Timeout | OutOfMemory {
  if (e instanceof Timeout || e instanceof OutOfMemory) return e;
  throw e;
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

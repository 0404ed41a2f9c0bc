/** Back-end selection: `auto` takes native z3 when one is on PATH (or $RELY_Z3), else WASM. */
import { SmtSolver, type BackendName, type QueryOptions } from './smt.js';
import { NativeBackend, findZ3, type NativeLimits } from './z3-native.js';
import { WasmBackend } from './z3-wasm.js';

export type SolverChoice = 'auto' | 'wasm' | 'native';

/** The back end a choice takes here. */
export function backendOf(choice: SolverChoice): BackendName {
  return choice === 'native' || (choice === 'auto' && findZ3() !== undefined) ? 'native' : 'wasm';
}

/** `nice`: the niceness of a native z3 process; `limits`: its memory and the run's deadline (wasm runs in rely's own process, under its budget). */
export function createSolver(choice: SolverChoice = 'auto', defaults: QueryOptions = {}, nice = 0, limits: NativeLimits = {}): SmtSolver {
  return new SmtSolver(backendOf(choice) === 'native' ? new NativeBackend(undefined, nice, limits) : new WasmBackend(), defaults);
}

/**
 * The solvers of one run: all of one choice, every one closed at the run's end, or
 * as soon as `stop` fires — then a query under way ends at once (as `unknown`) instead
 * of running out its time limit, and later ones answer `unknown` too.
 */
export class SolverPool {
  private readonly opened: SmtSolver[] = [];

  private readonly stop?: AbortSignal;
  private readonly nice: number;
  private readonly limits: NativeLimits;

  constructor(
    readonly choice: SolverChoice,
    run: { readonly stop?: AbortSignal; readonly nice?: number; readonly limits?: NativeLimits } = {},
  ) {
    this.stop = run.stop;
    this.nice = run.nice ?? 0;
    this.limits = run.limits ?? {};
    this.stop?.addEventListener('abort', () => void this.closeAll(), { once: true });
  }

  open(defaults: QueryOptions = {}): SmtSolver {
    const s = createSolver(this.choice, defaults, this.nice, this.limits);
    this.opened.push(s);
    if (this.stop?.aborted) void s.close();
    return s;
  }

  async closeAll(): Promise<void> {
    for (const s of this.opened) await s.close();
  }
}

/** Back-end selection: `auto` takes native z3 when one is on PATH (or $RELY_Z3), else WASM. */
import { SmtSolver, type QueryOptions } from './smt.js';
import { NativeBackend, findZ3 } from './z3-native.js';
import { WasmBackend } from './z3-wasm.js';

export type SolverChoice = 'auto' | 'wasm' | 'native';

export function createSolver(choice: SolverChoice = 'auto', defaults: QueryOptions = {}): SmtSolver {
  const native = choice === 'native' || (choice === 'auto' && findZ3() !== undefined);
  return new SmtSolver(native ? new NativeBackend() : new WasmBackend(), defaults);
}

/** The solvers of one run: all of one choice, every one closed at the run's end. */
export class SolverPool {
  private readonly opened: SmtSolver[] = [];

  constructor(readonly choice: SolverChoice) {}

  open(defaults: QueryOptions = {}): SmtSolver {
    const s = createSolver(this.choice, defaults);
    this.opened.push(s);
    return s;
  }

  async closeAll(): Promise<void> {
    for (const s of this.opened) await s.close();
  }
}

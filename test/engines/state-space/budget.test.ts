/**
 * The explicit searches stop at their budget with the result they always had
 * (stoppedBy, UNKNOWN: timeout); a cancelled run's search throws Cancelled on.
 */
import { describe, expect, it } from 'vitest';
import { loadProgram } from '../../../frontend/index.js';
import { explore } from '../../../engines/state-space/explore.js';
import { checkModular } from '../../../engines/state-space/modular.js';
import { Budget } from '../../../core/budget.js';
import { Cancelled } from '../../../core/errors.js';

const PETERSON = 'benchmarks/programs/peterson.c';
const late = (): Budget => new Budget({ deadline: performance.now() - 1 });

describe('a search past its budget', () => {
  it('explore: incomplete, stopped by timeout; with time left, complete', () => {
    const p = loadProgram(PETERSON, { calls: 'inline' });
    expect(explore(p, { budget: late(), recheck: true })).toMatchObject({ complete: false, stoppedBy: 'timeout', errorReachable: false });
    expect(explore(p, { budget: new Budget({ deadline: performance.now() + 60_000 }), recheck: true })).toMatchObject({ complete: true, closed: true });
  });

  it('the thread-modular fixpoint: incomplete, stopped by timeout', () => {
    const p = loadProgram(PETERSON, { calls: 'inline' });
    expect(checkModular(p, { budget: late() })).toMatchObject({ complete: false, stoppedBy: 'timeout' });
  });

  it('a cancelled run: Cancelled, thrown on', () => {
    const stop = new AbortController();
    stop.abort();
    const p = loadProgram(PETERSON, { calls: 'inline' });
    expect(() => explore(p, { budget: new Budget({ signal: stop.signal }) })).toThrow(Cancelled);
  });
});

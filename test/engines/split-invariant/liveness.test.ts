/**
 * Liveness: `rely verify --ltl` end to end — formulas and their located errors,
 * fairness, deadlocks, the split engine's refinement. The differential test against
 * explicit-global is in liveness.slow.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { LivenessOutcome } from '../../../core/lasso.js';
import { lassoFailure, deadlockFailure } from '../../../engines/state-space/api.js';
import { livenessEngineNamed } from '../../../engines/registry.js';
import { readProperty } from '../../../cli/ltl.js';
import type { Fairness } from '../../../core/fair-cycles.js';
import { rely } from '../../helpers.js';
import { decide, file, HEAD, muxSem } from './liveness-programs.js';

const check = (f: string, ltl: string, engine: string, fairness: Fairness = 'unconditional'): Promise<LivenessOutcome> =>
  decide(livenessEngineNamed(engine)!, readProperty(f, { ltl, fairness }, {}), 60);

describe('rely verify --ltl', () => {
  const mux = file(muxSem(3));

  it('MUX-SEM: G F x == 0 holds with both engines, with no refinement by split', async () => {
    for (const engine of ['split', 'explicit-global']) {
      const r = await rely(['verify', mux, '--ltl', 'G F x == 0', '--engine', engine]);
      expect(r.code, r.out + r.err).toBe(0);
      expect(r.out).toMatch(/^SAFE: the property holds: G F x == 0 \(fairness: unconditional\)/);
    }
    const r = await check(mux, 'G F x == 0', 'split');
    expect(r.verdict === 'holds' && r.stats).toMatchObject({ refinements: 0 });
  });

  it('MUX-SEM: a waiting process may starve under unconditional fairness; split finds the lasso after refining, and it replays', async () => {
    const r = await rely(['verify', mux, '--ltl', 'G (at(P#1, J1) -> F at(P#1, J2))', '--json']);
    expect(r.code).toBe(1);
    const j = JSON.parse(r.out);
    expect(j).toMatchObject({ verdict: 'unsafe', violation: 'lasso', engine: 'split', traceReplayed: true });
    expect(j.lasso.cycle.length).toBeGreaterThan(0);
    // As the paper's Table 2: one refinement; here it exposes, per other process, whether it holds the semaphore (and whether it has not started), and main's end.
    expect(j.stats.refinements).toBe(1);
    expect(j.stats.exposed.length).toBeGreaterThan(0);
    expect(j.stats.symmetry).toEqual(['P#2..P#3 (2 instances)']);
    const s = await check(mux, 'G (at(P#1, J1) -> F at(P#1, J2))', 'split');
    expect(s.verdict).toBe('fails');
    if (s.verdict === 'fails') expect(lassoFailure(readProperty(mux, { ltl: 'true', fairness: 'unconditional' }, {}).program, readProperty(mux, { ltl: 'G (at(P#1, J1) -> F at(P#1, J2))', fairness: 'unconditional' }, {}).property, s.lasso, [-2n, 2n])).toBeUndefined();
  });

  it('at(P, label) over identical threads is checked for one by symmetry, and says so', async () => {
    const r = await rely(['verify', mux, '--ltl', 'G (at(P, J1) -> F at(P, J2))', '--engine', 'explicit-global']);
    expect(r.code).toBe(1);
    expect(r.out).toContain('note: at(P, …) is about every one of the 3 identical threads running P: checked for P#1');
  });

  it('formulas with errors are located in the formula or its file, exit 2', async () => {
    const cases: [string[], RegExp][] = [
      [['--ltl', 'G (x == 0'], /^--ltl:1:10: error: /],
      [['--ltl', 'G F y == 0'], /^--ltl:1:5: error: .*'y'/],
      [['--ltl', 'F at(P, J9)'], /^--ltl:1:3: error: no label 'J9'/],
      [['--ltl', 'F at(Q, J1)'], /^--ltl:1:3: error: no thread runs a function 'Q'/],
      [['--ltl', 'F at(P#4, J1)'], /^--ltl:1:3: error: P#4: 3 threads run P/],
    ];
    for (const [args, message] of cases) {
      const r = await rely(['verify', mux, ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).toMatch(message);
    }
    const f = file('G (x == 0 ->\n   F (x ==  ))\n', 'bad.ltl');
    const r = await rely(['verify', mux, '--ltl-file', f]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(new RegExp(`^${f}:2:`));
    expect((await rely(['verify', mux, '--ltl', 'F x == 0', '--engine', 'aret'])).code).toBe(2);
    expect((await rely(['verify', mux, '--engine', 'split'])).code).toBe(2);
  });

  it('a global the property reads counts with every value: not drawn around the program\'s own thresholds, nor fixed where the program no longer needs it', async () => {
    // The program compares x only with 0, and overwrites y before it starts the thread: the atoms x == 2 and y == 2 still see 2.
    const f = file(`${HEAD}extern int __VERIFIER_nondet_int(void);
int x = 0, y = 0;
void *w(void *arg) { while (1) { if (x == 0) { } } return 0; }
int main() { x = __VERIFIER_nondet_int(); y = __VERIFIER_nondet_int(); y = 0; pthread_t t; pthread_create(&t, 0, w, 0); return 0; }
`);
    for (const engine of ['split', 'explicit-global']) {
      expect([engine, (await check(f, 'G x != 2', engine)).verdict]).toEqual([engine, 'fails']);
      expect([engine, (await check(f, 'G y != 2', engine)).verdict]).toEqual([engine, 'fails']);
    }
  });

  it('fairness: a property that holds only if every thread keeps moving', async () => {
    const f = file(`${HEAD}int x = 0;
void *setter(void *arg) { x = 1; return 0; }
void *spinner(void *arg) { while (1) { } return 0; }
int main() { pthread_t a, b; pthread_create(&a, 0, setter, 0); pthread_create(&b, 0, spinner, 0); return 0; }
`);
    for (const engine of ['split', 'explicit-global']) {
      expect((await check(f, 'F x == 1', engine, 'unconditional')).verdict).toBe('holds');
      expect((await check(f, 'F x == 1', engine, 'weak')).verdict).toBe('holds');
      expect((await check(f, 'F x == 1', engine, 'none')).verdict).toBe('fails');
    }
    const r = await rely(['verify', f, '--ltl', 'F x == 1', '--fairness', 'none']);
    expect(r.code).toBe(1);
    expect(r.out).toContain('spinner');
  });

  it('a deadlock is reported as such, with a replayed run, by both engines', async () => {
    const f = file(`${HEAD}pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
int x = 0;
void *t1(void *arg) { while (1) { pthread_mutex_lock(&a); pthread_mutex_lock(&b); x = 1; pthread_mutex_unlock(&b); pthread_mutex_unlock(&a); } return 0; }
void *t2(void *arg) { while (1) { pthread_mutex_lock(&b); pthread_mutex_lock(&a); x = 0; pthread_mutex_unlock(&a); pthread_mutex_unlock(&b); } return 0; }
int main() { pthread_t p, q; pthread_create(&p, 0, t1, 0); pthread_create(&q, 0, t2, 0); return 0; }
`);
    const p = readProperty(f, { ltl: 'true', fairness: 'unconditional' }, {}).program;
    for (const engine of ['split', 'explicit-global']) {
      const r = await check(f, 'G F x == 1', engine);
      expect(r.verdict).toBe('deadlock');
      if (r.verdict === 'deadlock') expect(deadlockFailure(p, r.run, [-2n, 2n])).toBeUndefined();
      const out = await rely(['verify', f, '--ltl', 'G F x == 1', '--engine', engine]);
      expect(out.code).toBe(1);
      expect(out.out).toMatch(/^UNSAFE: deadlock/);
    }
  });

  it('a terminating program: its last state repeats forever', async () => {
    const f = file(`${HEAD}int x = 0;
void *t(void *arg) { x = 1; return 0; }
int main() { pthread_t a; pthread_create(&a, 0, t, 0); pthread_join(a, 0); x = 2; return 0; }
`);
    for (const engine of ['split', 'explicit-global']) {
      expect((await check(f, 'F G x == 2', engine)).verdict).toBe('holds');
      expect((await check(f, 'G F x == 1', engine)).verdict).toBe('fails');
    }
  });
});

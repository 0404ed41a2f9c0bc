/**
 * The explicit-state engines: Simple(n) state counts against Flanagan and Qadeer's
 * analysis, recursion (kept calls), bounds, the re-checks behind SAFE and UNSAFE.
 * Agreement with the concrete explorer on the differential corpus, and unbounded
 * recursion, are in explicit.slow.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { compileProgram, loadProgram } from '../../../frontend/index.js';
import { explore } from '../../../engines/state-space/explore.js';
import { checkModular, checkModularProof } from '../../../engines/state-space/modular.js';
import { replay } from '../../../core/replay.js';
import { verifyExplicit, type ExplicitEngine } from '../../../engines/explicit/verify.js';
import { lower } from '../../helpers.js';

const prog = (name: string) => `benchmarks/programs/${name}.c`;
const keep = (name: string) => loadProgram(prog(name), { calls: 'keep' });

describe('Simple(n): O(n²) thread-modular, O(2ⁿ) global states', () => {
  // Our lowering of Simple(n): each thread p_k has the locations entry (before acquire),
  // 1..4 inside the critical section (after acquire, x = 0, x = x + 1, the assertion)
  // and exit; main has entry and exit (it only starts the threads). The globals are
  // (m, x).
  //
  // Thread-modular (the paper's R for each thread, §1.1): outside the critical section
  // (entry, exit) thread k sees (m, x) = (0, 1) or m = j ≠ k with x ∈ {0, 1}:
  // 2(n-1) + 1 = 2n - 1 stores each; inside, exactly one store each (m = k, x fixed).
  // So |R(p_k)| = 2(2n - 1) + 4 = 4n + 2; main sees all 2n + 1 stores at both of its
  // locations, 4n + 2 as well. In all (n + 1)(4n + 2): O(n²). Each p_k guarantees the
  // 4 updates acquire, x = 0, x = x + 1, release: 4n entries.
  //
  // Global: either no thread is inside (m = 0, x = 1, each thread at entry or exit:
  // 2ⁿ) or one thread k is, at one of 4 locations, the others at entry or exit
  // (n · 4 · 2ⁿ⁻¹); times main's 2 locations: 2ⁿ⁺¹(2n + 1). O(2ⁿ) — n·2ⁿ, precisely.
  const modular = (n: number) => (n + 1) * (4 * n + 2);
  const global = (n: number) => 2 ** (n + 1) * (2 * n + 1);

  for (const n of [2, 4, 8]) {
    it(`n = ${n}: ${modular(n)} modular states, ${global(n)} global states`, () => {
      const p = keep(`simple${n}`);
      const m = verifyExplicit(p, 'explicit-modular');
      expect(m.verdict).toBe('safe');
      expect(m.stats.states).toBe(modular(n));
      expect(m.stats.guarantee).toBe(4 * n);
      expect(m.stats.threads!.filter((t) => t.thread !== 'main').every((t) => t.states === 4 * n + 2)).toBe(true);
      const g = verifyExplicit(p, 'explicit-global');
      expect(g.verdict).toBe('safe');
      expect(g.stats.states).toBe(global(n));
    });
  }

  it('n = 64: the modular engine verifies it', () => {
    const v = verifyExplicit(keep('simple64'), 'explicit-modular');
    expect(v.verdict).toBe('safe');
    expect(v.stats.states).toBe(modular(64));
  });

  it('the broken Simple(4): an error in the abstraction, confirmed by the global engine with a replayed trace', () => {
    const v = verifyExplicit(keep('simple4-broken'), 'explicit-modular');
    expect(v.verdict).toBe('unsafe');
    expect(v.verdict === 'unsafe' && v.traceReplayed).toBe(true);
    expect(v.stats.confirmation?.verdict).toBe('error');
  });
});

describe('recursion: calls kept as calls (AG PDA rules)', () => {
  it('a thread calling a recursive function under a lock: explicit-modular proves it, the ARET engine rejects it', () => {
    const v = verifyExplicit(keep('recursive-sum'), 'explicit-modular');
    expect(v.verdict).toBe('safe');
    expect(v.stats.threads!.find((t) => t.thread === 'worker')!.summaries).toBeGreaterThan(0);
    expect(verifyExplicit(keep('recursive-sum'), 'explicit-global').verdict).toBe('safe');
    // The ARET engine (and every other) reads the program with calls inlined.
    expect(() => loadProgram(prog('recursive-sum'))).toThrow(/unsupported: recursion \(worker → sum → sum\)/);
  });

  it('without the lock, both engines find the error and the trace replays through pushes and pops', () => {
    for (const engine of ['explicit-modular', 'explicit-global'] as ExplicitEngine[]) {
      const v = verifyExplicit(keep('recursive-sum-broken'), engine);
      expect(v.verdict).toBe('unsafe');
      if (v.verdict === 'unsafe') expect(v.trace.some((s) => s.steps.some((x) => x.text === 'return from sum'))).toBe(true);
    }
  });

  it('replay rejects a pop that does not restore the pushed frame', () => {
    const p = keep('recursive-sum-broken');
    const r = explore(p);
    const run = r.run!;
    const popAt = run.steps.findIndex((s) => s.transition.stack?.kind === 'pop');
    expect('trace' in replay(p, run)).toBe(true);
    const states = run.states.map((s, i) => (i === popAt + 1 ? new Map(s).set('worker.sum.n', 7n) : s));
    expect(replay(p, { ...run, states })).toEqual({ failure: `step ${popAt + 1} (t${run.steps[popAt].transition.id}) is not a transition of the program` });
  });
});

describe('groups of threads explored as one', () => {
  it('readers-writer lock: an error with each thread alone or one pair together, none with both the writers and the readers grouped; the grouped fixpoint re-checks', () => {
    const p = keep('rwlock');
    const th = (name: string) => p.threads.findIndex((t) => t.name === name);
    const [w1, w2, r1, r2] = ['writer1', 'writer2', 'reader', 'reader#2'].map(th);
    const others = p.threads.map((_, i) => i).filter((i) => ![w1, w2, r1, r2].includes(i));
    const check = (...groups: number[][]) => checkModular(p, {}, [...groups, ...others.map((i) => [i])]);
    expect(checkModular(p).errorReachable).toBe(true);
    expect(check([w1, w2], [r1], [r2]).errorReachable).toBe(true);
    expect(check([w1], [w2], [r1, r2])).toMatchObject({ errorReachable: true, errorThread: 'reader+reader#2' });
    const m = check([w1, w2], [r1, r2]);
    expect(m).toMatchObject({ errorReachable: false, complete: true });
    expect(m.threads.map((t) => t.thread)).toContain('writer1+writer2');
    expect(checkModularProof(m.proof!)).toBeUndefined();
  });
});

describe('re-checks and bounds', () => {
  it('the fixpoint re-check finds a missing reachable state', () => {
    const m = checkModular(keep('simple4'));
    expect(checkModularProof(m.proof!)).toBeUndefined();
    const T = m.proof!.threads[1];
    const [entry] = [...T.P.values()];
    const [someKey] = [...entry.at.keys()].slice(-1);
    entry.at.delete(someKey);
    expect(checkModularProof(m.proof!)).toMatch(/thread p: the P fact .* follows but is missing/);
  });

  it('every transition fires after a nondeterministic choice was cut to the range', () => {
    // Two choices are cut to the range; the error needs the second thread's (copied, so not only compared with constants: engines/state-space/value-classes.ts).
    const src = `#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int a = 0, b = 0, c = 0;
void *t(void *arg) { b = __VERIFIER_nondet_int(); c = b; if (c == 2) reach_error(); return 0; }
int main(void) { pthread_t h; a = __VERIFIER_nondet_int(); pthread_create(&h, 0, t, 0); return 0; }
`;
    const p = compileProgram(src, 'cut.c', { calls: 'keep' });
    for (const engine of ['explicit-global', 'explicit-modular'] as ExplicitEngine[])
      expect(verifyExplicit(p, engine, { nondetRange: [0n, 3n] }).verdict, engine).toBe('unsafe');
    expect(verifyExplicit(p, 'explicit-modular', { nondetRange: [0n, 1n] })).toMatchObject({ verdict: 'unknown', reason: 'bounded: no error with nondeterministic ints drawn from 0..1' });
  });

  it('an uninitialised local read before it is written takes any value: both engines find x == 7 (they once started it at 0)', () => {
    for (const calls of ['keep', 'inline'] as const) {
      const p = loadProgram('test/fixtures/uninit-local-bug.c', { calls });
      for (const engine of ['explicit-global', 'explicit-modular'] as ExplicitEngine[]) {
        const v = verifyExplicit(p, engine, { nondetRange: [0n, 7n] });
        expect([calls, engine, v.verdict]).toEqual([calls, engine, 'unsafe']);
      }
      // x is only compared with 7, so the values around 7 are tried whatever the range (engines/state-space/value-classes.ts).
      expect(verifyExplicit(p, 'explicit-global', { nondetRange: [0n, 1n] }).verdict).toBe('unsafe');
    }
  });

  it('a result that depends on --int-range is UNKNOWN and names the bound', () => {
    const v = verifyExplicit(keep('simple4'), 'explicit-global', { intRange: [0n, 1n], nondetRange: [0n, 1n] });
    expect(v.verdict === 'unknown' && v.reason).toMatch(/^bounded: no error with int values limited to 0\.\.1 \(\d+ successors cut\)$/);
    // A wide enough range cuts nothing: the answer is exact.
    expect(verifyExplicit(keep('simple4'), 'explicit-global', { intRange: [0n, 4n] }).verdict).toBe('safe');
  });
});

it('the bundled recursive programs say what they are for', () => {
  for (const f of ['recursive-sum', 'recursive-sum-broken', 'recursive-unbounded']) expect(readFileSync(prog(f), 'utf8')).toMatch(/Expected verdict: (SAFE|UNSAFE)/);
});

describe('the bug hunt in runs with few preemptions (explicit-global)', () => {
  // Eight racing increments: the error needs every update, so a run without a lost one.
  const racing = lower(`int x = 0; void *w(void *a) { int t = x; x = t + 1; return 0; }
    int main() { pthread_t t[8]; int i; for (i = 0; i < 8; i++) pthread_create(&t[i], 0, w, 0); for (i = 0; i < 8; i++) pthread_join(t[i], 0); if (x == 8) reach_error(); return 0; }`);

  it('depth-first without preemptions, reaches a deep error that breadth-first search does not within the same states; its trace replays', () => {
    expect(explore(racing, { maxStates: 3000 })).toMatchObject({ errorReachable: false, stoppedBy: 'state limit' });
    const hunt = explore(racing, { maxStates: 3000, preemptions: 0 });
    expect(hunt.errorReachable).toBe(true);
    expect(replay(racing, hunt.run!)).not.toHaveProperty('failure');
    expect(verifyExplicit(racing, 'explicit-global', { maxStates: 3000 })).toMatchObject({ verdict: 'unsafe', traceReplayed: true });
  });

  it('a bug that needs a preemption is outside bound 0 (the search says it left runs out) and inside bound 1', () => {
    // b sees x = 1 only between a's two writes: a must be preempted.
    const p = lower(`int x = 0; void *a(void *p) { x = 1; x = 0; return 0; } void *b(void *p) { if (x == 1) reach_error(); return 0; }
      int main() { pthread_t s, t; pthread_create(&s, 0, a, 0); pthread_create(&t, 0, b, 0); return 0; }`);
    expect(explore(p, { preemptions: 0 })).toMatchObject({ errorReachable: false, complete: false });
    expect(explore(p, { preemptions: 1 }).errorReachable).toBe(true);
    expect(explore(p).errorReachable).toBe(true);
  });
});

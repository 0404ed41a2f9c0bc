/**
 * Our Dekker, Peterson, readers-writer lock and Simple(4) (benchmarks/programs) and the SV-COMP
 * style fixtures: each lowers, and the explorer finds the error exactly in the broken
 * versions — with small steps and with large blocks alike. That large blocks never need
 * more states, and that this machine's `gcc -E` output lowers exactly like its source,
 * are in blocks.slow.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { loadProgram } from '../../frontend/index.js';
import { explore } from '../../engines/state-space/explore.js';
import { CASES } from './bundled-programs.js';

describe('benchmark programs and fixtures', () => {
  for (const [file, bad] of CASES)
    for (const largeBlocks of [true, false])
      it(`${file} (${largeBlocks ? 'large blocks' : 'small steps'}): ${bad ? 'error found' : 'no error'}`, () => {
        const p = loadProgram(file, { largeBlocks });
        const r = explore(p);
        expect(r.complete).toBe(true);
        expect(r.errorReachable).toBe(bad);
        if (bad) {
          const trace = r.trace!;
          expect(trace.length).toBeGreaterThan(0);
          // The trace interleaves threads and ends in the thread that fails.
          expect(new Set(trace.map((s) => s.thread)).size).toBeGreaterThan(1);
          const last = trace[trace.length - 1];
          expect(last.steps.some((s) => /ERROR|reach_error|assert/.test(s.text))).toBe(true);
        }
      });

  it('peterson-broken: the trace is the interleaving described in the file header', () => {
    const r = explore(loadProgram('benchmarks/programs/peterson-broken.c'));
    const writes = r.trace!.map((s) => `${s.thread}:${s.steps.map((x) => x.text).join(';')}`);
    // Both threads pass their entry protocol and write x before thread 1's check fails.
    expect(writes.some((w) => w.startsWith('thr1:') && w.includes('x = 1'))).toBe(true);
    expect(writes.some((w) => w.startsWith('thr2:') && w.includes('x = 2'))).toBe(true);
    expect(r.trace![r.trace!.length - 1].values).toContainEqual(['x', 2n]);
  });

  it('the preprocessed .i with full glibc headers lowers like its source', () => {
    const i = loadProgram('test/fixtures/pthread-glibc.i');
    const c = loadProgram('test/fixtures/pthread-glibc.src.c');
    expect(i.threads.map((t) => t.name)).toEqual(c.threads.map((t) => t.name));
    expect(explore(i).states).toBe(explore(c).states);
  });
});

/**
 * Sharing predicates between instances of one thread function (engines/aret/symmetry.ts):
 * the images rename exactly the moved thread's locals, and nothing else is shared.
 */
import { describe, expect, it } from 'vitest';
import { loadProgram } from '../../../frontend/index.js';
import { stateImages, targetImages } from '../../../engines/aret/symmetry.js';
import { eq, le, mkVar, num, show } from '../../../solver/formula.js';

const p = loadProgram('benchmarks/programs/simple4.c');
const index = (name: string) => p.threads.findIndex((t) => t.name === name);
const named = (ims: { thread?: number; target?: number; predicate: Parameters<typeof show>[0] }[]) =>
  ims.map((im) => [p.threads[im.thread ?? im.target!].name, show(im.predicate)]);

describe('stateImages', () => {
  it('gives a predicate over globals and own locals to every other instance, locals renamed', () => {
    const q = le(mkVar('m'), mkVar('p#2.id'));
    expect(named(stateImages(p, index('p#2'), q))).toEqual([
      ['p', show(le(mkVar('m'), mkVar('p.id')))],
      ['p#3', show(le(mkVar('m'), mkVar('p#3.id')))],
      ['p#4', show(le(mkVar('m'), mkVar('p#4.id')))],
    ]);
  });

  it('keeps a globals-only predicate as it is', () => {
    const q = eq(mkVar('m'), num(0));
    expect(stateImages(p, index('p'), q).map((im) => im.predicate)).toEqual([q, q, q]);
  });

  it('shares nothing that names another thread’s local, nor with threads of other functions', () => {
    expect(stateImages(p, index('p'), eq(mkVar('m'), mkVar('p#3.id')))).toEqual([]);
    expect(stateImages(p, index('main'), eq(mkVar('m'), num(0)))).toEqual([]);
  });
});

describe('targetImages', () => {
  it('gives P_i▷j’s predicate to i▷j’ for the other instances j’ of j (not i itself), the source’s constants and locals kept', () => {
    // p#2's step as p sees it: it takes the lock (its own id 2), whatever p's id is.
    const q = eq(mkVar("m'"), mkVar('p#2.id'));
    expect(named(targetImages(p, index('p#2'), index('p'), q))).toEqual([
      ['p#3', show(q)],
      ['p#4', show(q)],
    ]);
    const r = le(mkVar('p.id'), mkVar("m'"));
    expect(named(targetImages(p, index('p#2'), index('p'), r))).toEqual([
      ['p#3', show(le(mkVar('p#3.id'), mkVar("m'")))],
      ['p#4', show(le(mkVar('p#4.id'), mkVar("m'")))],
    ]);
  });

  it('shares nothing that names a third thread’s local', () => {
    expect(targetImages(p, index('p#2'), index('p'), eq(mkVar('m'), mkVar('p#3.id')))).toEqual([]);
  });
});

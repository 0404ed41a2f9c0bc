/**
 * Budget.tick: the one way a search loop looks at the run's budget — at its first
 * step and every 1024th after, throwing what check() throws.
 */
import { describe, expect, it } from 'vitest';
import { Budget, ranOut } from '../../core/budget.js';
import { Cancelled, OutOfMemory, Timeout } from '../../core/errors.js';

describe('Budget.tick', () => {
  it('looks at the budget at the first step and every 1024th after, not between', () => {
    const b = new Budget({ deadline: performance.now() - 1 });
    expect(() => b.tick()).toThrow(Timeout);
    for (let i = 1; i < 1024; i++) b.tick();
    expect(() => b.tick()).toThrow(Timeout);
  });

  it('throws Cancelled once its signal fired', () => {
    const stop = new AbortController();
    const b = new Budget({ signal: stop.signal });
    b.tick();
    stop.abort();
    for (let i = 1; i < 1024; i++) b.tick();
    expect(() => b.tick()).toThrow(Cancelled);
  });

  it('without a deadline, signal or memory pressure it never throws', () => {
    const b = new Budget();
    expect(() => {
      for (let i = 0; i < 5000; i++) b.tick();
    }).not.toThrow();
  });
});

describe('ranOut', () => {
  it("keeps a budget's Timeout and OutOfMemory and throws anything else on", () => {
    const t = new Timeout();
    const m = new OutOfMemory('out of memory: test');
    expect(ranOut(t)).toBe(t);
    expect(ranOut(m)).toBe(m);
    expect(() => ranOut(new Cancelled())).toThrow(Cancelled);
    expect(() => ranOut(new Error('a bug'))).toThrow('a bug');
  });
});

/**
 * An atomic section too wide to fold into one step, under its ghost flag: SAFE and UNSAFE,
 * the explorer and every engine agree (each engine explores the section's 2^13 paths).
 * The other atomic-section tests are in atomic-sections.test.ts.
 */
import { describe, it } from 'vitest';
import { agree, wide } from './atomic-programs.js';

describe('an atomic section too wide to fold runs under a ghost flag', () => {
  it('SAFE and UNSAFE: the explorer and every engine agree', async () => {
    await agree('wide-safe', wide('y == 100'), true);
    await agree('wide-unsafe', wide('y == 2'), false);
  }, 180_000);
});

import { defineConfig } from 'vitest/config';

/**
 * Two projects: `fast` (every area, the loop `npm test` runs) and `slow` (whole slow
 * suites and the slow cases of the others, in `*.slow.test.ts` files beside their fast
 * ones). `vitest run` runs both (`npm run test:all`, which CI runs).
 *
 * Workers (package.json's scripts): the fast tests mostly wait for the `rely` and z3
 * processes they start, so `npm test` runs three at a time on two cores; the slow ones
 * run long searches against time limits, so `test:all` keeps two.
 */
const SLOW = 'test/**/*.slow.test.ts';

export default defineConfig({
  test: {
    testTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'fast', include: ['test/**/*.test.ts'], exclude: [SLOW] } },
      { extends: true, test: { name: 'slow', include: [SLOW] } },
    ],
  },
});

/**
 * The longest thread bodies: 20,000 statements, and an else-if chain of 2,000 arms, are
 * answered. The other large and deeply nested inputs are in large-input.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { HEAD, rely } from './large-programs.js';

describe('large and deeply nested input', () => {
  it('a thread whose body is 20,000 statements (an internal error before): SAFE', () => {
    const body = Array.from({ length: 20_000 }, (_, i) => `  x = x + ${i % 7};`).join('\n');
    const r = rely(`${HEAD}void *t(void *a) {\n${body}\n  return 0;\n}\nint main() { pthread_t h; pthread_create(&h, 0, t, 0); if (x < 0) reach_error(); return 0; }\n`, 'long.c', '--engine', 'explicit-global');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
  }, 120_000);

  it('an else-if chain of 2,000 arms (n³ in the large blocks before): explicit-global, SAFE', () => {
    const arms = Array.from({ length: 2_000 }, (_, i) => `  ${i ? 'else ' : ''}if (x == ${i}) { x = ${i + 1}; }`).join('\n');
    const r = rely(`${HEAD}void *t(void *a) {\n${arms}\n  return 0;\n}\nint main() { pthread_t h; pthread_create(&h, 0, t, 0); if (x < 0) reach_error(); return 0; }\n`, 'else-if.c', '--engine', 'explicit-global', '--timeout', '60');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
  }, 90_000);
});

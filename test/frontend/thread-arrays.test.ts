/**
 * Threads created into a pthread_t array by a loop whose bound is known only at run
 * time (SV-COMP's pthread-nondet): `for (i = 0; i < n; i++) pthread_create(&t[i], …)`
 * is unrolled once per cell plus one copy (frontend/lower/statements.ts, cellPlan), and
 * `pthread_join(t[i], 0)` with i known at run time is a case split over the cells.
 * n = 1 + two nondet _Bool variables, so the explorer sees every n in [1, 3] without a
 * range cut (their names sort before n's: the explorer enumerates unknowns by name).
 * The cases whose agreement takes longest are in thread-arrays.slow.test.ts.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { lower, rely, run, stopZ3, verdictsAgree, PRELUDE } from '../helpers.js';
import { flags, JOIN_ALL } from './thread-array-programs.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

afterAll(stopZ3);

const agree = verdictsAgree('rely-thread-arrays-');

// The engines get 2 cells (with 3, aret takes seconds to tens of seconds); the explorer also 3.
describe('a loop creating threads into t[i], n known at run time', () => {
  it('one instance per cell: N + 1 threads; with 3 cells, exactly the first n flags are set', () => {
    expect(lower(flags(3, JOIN_ALL, '')).threads.map((t) => t.name)).toEqual(['main', 'w', 'w#2', 'w#3']);
    expect(run(flags(3, JOIN_ALL, 'if (d[0] + d[1] + d[2] + d[3] != n) reach_error();')).errorReachable).toBe(false);
    expect(run(flags(3, JOIN_ALL, 'if (d[2] != 1) reach_error();')).errorReachable).toBe(true);
  });

  it('i after the loops is n (safe)', async () => {
    await agree('final-i', flags(2, JOIN_ALL, 'if (i != n) reach_error();'), true);
  }, 120_000);

  it('n may be 3 with 2 cells: the third create is out of bounds (unsafe only so)', async () => {
    const src = flags(2, JOIN_ALL, 'if (n == 2 && d[1] != 1) reach_error();', 'if (n == 2 && c1) n = 3;');
    await agree('past-end', src, false);
    const r = run(src);
    expect(r.trace?.at(-1)?.steps.map((x) => x.text).join('; ')).toMatch(/pthread_create: array index out of bounds \[0, 2\)/);
  }, 120_000);

  it('a join loop that stays a loop (its join is conditional): each t[i] is a case split over the cells', async () => {
    const some = 'for (i = 0; i < n; i++) if (i != 0) pthread_join(t[i], 0);';
    await agree('cond-join', flags(2, some, 'if (n == 2 && d[1] != 1) reach_error();'), true);
    await agree('cond-join-0', flags(2, some, 'if (d[0] != 1) reach_error();'), false);
  }, 120_000);

  it('a break out of an unrolled loop leaves i at that iteration', async () => {
    const src = `
extern _Bool __VERIFIER_nondet_bool(void);
void *w(void *a) { return 0; }
int main() { pthread_t t[3]; int i; _Bool x = __VERIFIER_nondet_bool();
  for (i = 0; i < 3; i++) { pthread_create(&t[i], 0, w, 0); if (x && i == 1) break; }
  if (i != (x ? 1 : 3)) reach_error();
  return 0; }`;
    await agree('break', src, true);
  }, 120_000);
});

describe('shapes that stay refused', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rely-thread-arrays-refused-'));
  const refused = async (name: string, body: string, message: RegExp) => {
    const file = join(dir, `${name}.c`);
    writeFileSync(file, `${PRELUDE}extern int __VERIFIER_nondet_int(void);\nvoid *w(void *a) { return 0; }\nint main() { pthread_t t[3]; int i; int n = __VERIFIER_nondet_int();\n${body}\nreturn 0; }\n`);
    const r = await rely(['parse', file]);
    expect(r.code, name).toBe(2);
    expect(r.err, name).toMatch(new RegExp(`${name}\\.c:6:\\d+: unsupported: .*${message.source}`));
  };

  it('a create some iterations skip, a counter the body changes, a create into a cell chosen at run time, a join of a cell nothing created into', async () => {
    await refused('conditional', 'for (i = 0; i < n; i++) if (i != 1) pthread_create(&t[i], 0, w, 0);', /no pthread_create\(&t\[i\], …\) or pthread_join\(t\[i\], …\) that every iteration evaluates/);
    await refused('assigned', 'for (i = 0; i < n; i++) { pthread_create(&t[i], 0, w, 0); i += n; }', /the loop assigns 'i'/);
    await refused('chosen', 'if (n >= 0 && n < 3) pthread_create(&t[n], 0, w, 0);', /pthread_create into a pthread_t chosen at run time/);
    await refused('uncreated', 'for (i = 0; i < 2; i++) pthread_create(&t[i], 0, w, 0); if (n >= 0 && n < 3) pthread_join(t[n], 0);', /pthread_join of a pthread_t array cell that no pthread_create before it in this thread writes/);
  });
});

/**
 * Atomic sections of any size: a side-effect-free `?:` or condition used as
 * a value inside one is an if-then-else term (frontend/lower/conditions.ts, pureValue);
 * a section still too wide to fold into one step runs step by step under a ghost flag
 * (program/blocks.ts); `__VERIFIER_nondet_pointer()` nobody reads has no effect. Each
 * in a SAFE and an UNSAFE program whose verdict the explorer and the engines agree on
 * (for the wide section, in atomic-sections.slow.test.ts: every engine takes longest there).
 */
import { describe, expect, it } from 'vitest';
import { mkVar, num, eq, ite, gt, show, toSmt, type Term } from '../../solver/formula.js';
import { parseSExprs, sexprToTerm } from '../../solver/sexpr.js';
import { lower, rely, run } from '../helpers.js';
import { agree, file, storeBuffer, wide } from './atomic-programs.js';

const hasIte = (t: Term): boolean => t.kind === 'app' && (t.op === 'ite' || t.args.some(hasIte));

describe('?: and conditions as values inside an atomic section: if-then-else terms', () => {
  it('one transition per section, with ite, not one per path', () => {
    const p = lower(storeBuffer('x == 2 && used'));
    const section = p.threads[1].transitions.filter((t) => t.atomic);
    expect(section).toHaveLength(1);
    expect(hasIte(section[0].formula)).toBe(true);
  });

  it('an ite term prints readably and survives SMT-LIB printing and reading', () => {
    const t = eq(mkVar("x'"), ite(gt(mkVar('a'), num(0)), mkVar('b'), num(2)));
    expect(show(t)).toBe("x' = (a >= 1 ? b : 2)");
    expect(sexprToTerm(parseSExprs(toSmt(t))[0])).toBe(t);
  });

  it('outside an atomic section ?: stays a branch (each read of a global its own step)', () => {
    const p = lower(`int g, x; void *t(void *a) { x = g ? g : 1; return 0; } int main() { pthread_t h; pthread_create(&h, 0, t, 0); g = 2; return 0; }`);
    expect(p.threads.some((th) => th.transitions.some((t) => hasIte(t.formula)))).toBe(false);
  });

  it('a division by a variable or an array cell inside ?: stays a branch (its error must be reachable)', () => {
    const src = `int a[2]; int i = 2, d, x;
      void *t(void *p) { __VERIFIER_atomic_begin(); x = d == 0 ? 1 : 10 / d; x = x > 0 ? a[i] : 0; __VERIFIER_atomic_end(); return 0; }
      int main() { pthread_t h; pthread_create(&h, 0, t, 0); return 0; }`;
    expect(run(src).errorReachable).toBe(true); // a[2] is out of bounds
    expect(run(src.replace('i = 2', 'i = 1')).errorReachable).toBe(false);
  });

  it('SAFE and UNSAFE: the explorer and every engine agree', async () => {
    await agree('ite-safe', storeBuffer('x == 2 && mine'), true);
    await agree('ite-unsafe', storeBuffer('x == 2 && used'), false);
  }, 120_000);
});

describe('an atomic section too wide to fold runs under a ghost flag', () => {
  it('gets the flag, and only a program that needs it does', () => {
    const p = lower(wide('y == 100'));
    expect(p.globals).toContain('__atomic');
    // Every transition of main (outside any section) requires the flag free.
    const free = eq(mkVar('__atomic'), num(0));
    expect(p.threads[0].transitions.every((t) => t.atoms.includes(free))).toBe(true);
    expect(lower(storeBuffer('x == 2')).globals).not.toContain('__atomic');
  });

  it('does not stop at the path limit: rely verify decides it', async () => {
    const r = await rely(['verify', file('wide-cli', wide('y == 100')), '--timeout', '60']);
    expect(r.err).toBe('');
    expect(r.out.split('\n')[0]).toBe('SAFE');
  }, 60_000);

  it('an abort inside the section halts every thread; the error inside it is reached', () => {
    const body = (inside: string) => `
      int x, y;
      void *t(void *a) {
        __VERIFIER_atomic_begin();
${Array.from({ length: 13 }, (_, i) => `        if (x == ${i}) y = y + ${i + 1};`).join('\n')}
        ${inside}
        __VERIFIER_atomic_end();
        return 0;
      }
      int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); x = 1; if (y == 2) reach_error(); return 0; }`;
    expect(lower(body('abort();')).globals).toContain('__atomic');
    // y = 2 only once the section ran, which then halts: main never sees it.
    expect(run(body('abort();')).errorReachable).toBe(false);
    expect(run(body('if (y == 2) reach_error();')).errorReachable).toBe(true);
  });

  it('a blocking wait inside such a section is refused, located', async () => {
    const src = wide('y == 100').replace('    __VERIFIER_atomic_end();', '    __VERIFIER_assume(y > 0);\n    __VERIFIER_atomic_end();');
    const f = file('wide-assume', src);
    const r = await rely(['verify', f, '--timeout', '60']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(new RegExp(`^${f}:\\d+:\\d+: unsupported: a blocking wait inside an atomic section too wide to fold into one step\\n$`));
  }, 60_000);
});

describe('__VERIFIER_nondet_pointer()', () => {
  const ret = (check: string) => `
    extern void *__VERIFIER_nondet_pointer(void);
    int x;
    void *P0(void *a) { x = 1; return __VERIFIER_nondet_pointer(); }
    int main() { pthread_t t; pthread_create(&t, 0, P0, 0); pthread_join(t, 0); if (${check}) reach_error(); return 0; }`;

  it('returned by a thread nobody asks for its result: no effect (SAFE and UNSAFE agree)', async () => {
    await agree('ndp-safe', ret('x != 1'), true);
    await agree('ndp-unsafe', ret('x == 1'), false);
  }, 120_000);

  it('read: refused, located (its targets are unknown)', async () => {
    const f = file('ndp-read', `extern void *__VERIFIER_nondet_pointer(void);\nint main() { int *p = __VERIFIER_nondet_pointer(); return 0; }\n`);
    const r = await rely(['verify', f]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`${f}:4:23: unsupported: __VERIFIER_nondet_pointer (only integer nondeterminism is modelled)\n`);
  });

  it("pthread_join's result is the value the thread returned", async () => {
    const src = (v: number) => `void *P0(void *a) { return (void *)${v}; }\nint main() { pthread_t t; void *r; pthread_create(&t, 0, P0, 0); pthread_join(t, &r); if (r != 0) reach_error(); return 0; }\n`;
    expect((await rely(['verify', file('join-result', src(5))])).code).toBe(1);
    expect((await rely(['verify', file('join-null', src(0))])).code).toBe(0);
  });
});

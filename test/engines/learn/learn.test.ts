/**
 * Assume-guarantee reasoning with a learned assumption (engines/learn/assume-guarantee.ts):
 * SAFE with an assumption both premises hold for, a violation found through premise 2
 * that replays, and no contradiction with exhaustive exploration on generated programs.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateProgram } from '../../../benchmarks/generate-programs.js';
import { loadProgram } from '../../../frontend/index.js';
import { explore } from '../../../engines/state-space/explore.js';
import { checkAssumeGuarantee } from '../../../engines/learn/assume-guarantee.js';
import { accepts } from '../../../engines/learn/lstar.js';
import { Budget } from '../../../core/budget.js';
import { rely } from '../../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'rely-learn-'));
let files = 0;
const program = (src: string) => {
  const f = join(dir, `p${files++}.c`);
  writeFileSync(f, src);
  return loadProgram(f);
};

const HEAD = `#include <pthread.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
extern void __VERIFIER_assume(int);
`;

/** A writer (S2) that sets x to 1 then 2; main (S1) asserts it never sees 2 before 1 was seen — safe. */
const handshake = `${HEAD}int x = 0;
void *writer(void *arg) { x = 1; x = 2; return 0; }
int main() {
  pthread_t t; pthread_create(&t, 0, writer, 0);
  int a = x; int b = x;
  assert(!(a == 2 && b == 1));
  return 0;
}
`;

describe('assume-guarantee with L*', () => {
  it('SAFE on a two-thread example with --assumption weakest: the learned assumption is the weakest one, and passes both premises', () => {
    const p = program(handshake);
    const r = checkAssumeGuarantee(p, [[0], [1]], { assumption: 'weakest' });
    expect(r.verdict, r.verdict === 'unknown' ? r.reason : '').toBe('safe');
    if (r.verdict !== 'safe') return;
    expect(r.stats.conjectures).toBeGreaterThan(0);
    expect(r.events.length).toBe(r.stats.events);
    expect(r.events.some((e) => e.includes('x=1'))).toBe(true);
    // S2's own sequence (x = 1 then x = 2) is in the assumption.
    const id = (text: string) => r.events.findIndex((e) => e.endsWith(text));
    expect(accepts(r.assumption, [id('x=1'), id('x=2')])).toBe(true);
    // 2 before 1 would break main's assertion: the assumption may not allow it (premise 1).
    expect(accepts(r.assumption, [id('x=2'), id('x=1')])).toBe(false);
    // It is the weakest assumption: every write sequence without a 1 after a 2 (all words up to length 5).
    const words = (n: number): number[][] => (n === 0 ? [[]] : words(n - 1).flatMap((w) => (w.length === n - 1 ? [w, ...[0, 1].map((e) => [...w, e])] : [w])));
    for (const w of words(5)) {
      const texts = w.map((e) => r.events[e]);
      const safe = !texts.some((t, k) => t.endsWith('x=2') && texts.slice(k).some((u) => u.endsWith('x=1')));
      expect(accepts(r.assumption, w), texts.join(' ; ')).toBe(safe);
    }
  });

  it('SAFE with the strongest assumption (the default): exactly what the writer does, x = 1 then x = 2, and its prefixes', () => {
    const r = checkAssumeGuarantee(program(handshake), [[0], [1]]);
    expect(r.verdict, r.verdict === 'unknown' ? r.reason : '').toBe('safe');
    if (r.verdict !== 'safe') return;
    const id = (text: string) => r.events.findIndex((e) => e.endsWith(text));
    const [one, two] = [id('x=1'), id('x=2')];
    for (const [w, accepted] of [[[], true], [[one], true], [[one, two], true], [[two], false], [[two, one], false], [[one, one], false], [[one, two, two], false]] as const)
      expect(accepts(r.assumption, w), w.map((e) => r.events[e]).join(' ; ')).toBe(accepted);
  });

  it('the property keeps the memory in what S2 may read: a counter two threads increment under a mutex, checked after both joins, is SAFE with both assumptions, and its read set is no larger than what the program reaches', () => {
    const counter = `${HEAD}int counter = 0; pthread_mutex_t m;
void *inc(void *arg) { pthread_mutex_lock(&m); counter = counter + 1; pthread_mutex_unlock(&m); return 0; }
int main() { pthread_t t1, t2; pthread_mutex_init(&m, 0); pthread_create(&t1, 0, inc, 0); pthread_create(&t2, 0, inc, 0);
  pthread_join(t1, 0); pthread_join(t2, 0); assert(counter == 2); return 0; }
`;
    const p = program(counter);
    for (const assumption of ['strongest', 'weakest'] as const) {
      const r = checkAssumeGuarantee(p, [[0], [1, 2]], { assumption, budget: new Budget({ deadline: performance.now() + 10_000 }) });
      expect(r.verdict, `${assumption}: ${r.verdict === 'unknown' ? r.reason : ''}`).toBe('safe');
      // counter ∈ {0, 1, 2}, the mutex free or held by one of two: each thread sees at most 3 × 3 views.
      expect(r.stats.read).toBeLessThanOrEqual(18);
    }
    expect(checkAssumeGuarantee(program(counter.replace('counter == 2', 'counter == 1')), [[0], [1, 2]]).verdict).toBe('unsafe');
  });

  it('alphabet refinement: Simple(4) with a mutex is SAFE with an assumption that sees fewer events than S2 makes; each round notes how it ended', () => {
    const simple = `${HEAD}int x = 1; pthread_mutex_t m;
void *p(void *arg) { pthread_mutex_lock(&m); x = 0; x = x + 1; assert(x > 0); pthread_mutex_unlock(&m); return 0; }
int main() { pthread_t w1, w2, w3, w4; pthread_mutex_init(&m, 0);
  pthread_create(&w1, 0, p, 0); pthread_create(&w2, 0, p, 0); pthread_create(&w3, 0, p, 0); pthread_create(&w4, 0, p, 0); return 0; }
`;
    const ends: string[] = [];
    const r = checkAssumeGuarantee(program(simple), [[0, 1, 2, 3], [4]], { onProgress: (n) => void (n.kind === 'round' && ends.push(n.end)) });
    expect(r.verdict, r.verdict === 'unknown' ? r.reason : '').toBe('safe');
    expect(r.stats.visible).toBeLessThan(r.stats.events);
    expect(ends).toContain('refine');
    expect(ends).toContain('grow');
    expect(ends.at(-1)).toBe('proof');
    expect(ends).toHaveLength(r.stats.rounds);
  });

  it('UNSAFE through premise 2: the writer can make main fail, and the merged run replays', () => {
    const p = program(handshake.replace('x = 1; x = 2;', 'x = 2; x = 1;'));
    const r = checkAssumeGuarantee(p, [[0], [1]]);
    expect(r.verdict, r.verdict === 'unknown' ? r.reason : '').toBe('unsafe');
    if (r.verdict === 'unsafe') expect(r.trace.length).toBeGreaterThan(2);
  });

  it('a value the program does not bound, drawn from the range, makes SAFE UNKNOWN', () => {
    const p = program(`${HEAD}extern int __VERIFIER_nondet_int(void);
int x = 0;
void *w(void *arg) { x = __VERIFIER_nondet_int(); return 0; }
int main() { pthread_t t; pthread_create(&t, 0, w, 0); int y = x; assert(y != 7); return 0; }
`);
    // x is copied (not only compared with constants: engines/state-space/value-classes.ts), so its values come from the range.
    const r = checkAssumeGuarantee(p, [[0], [1]]);
    expect(r.verdict).toBe('unknown');
    if (r.verdict === 'unknown') expect(r.reason).toMatch(/nondeterministic values in -2..2/);
  });

  it('an error in S2 itself is a violation (its step is marked in the events)', () => {
    const p = program(`${HEAD}int x = 0;
void *t(void *arg) { int r = x; assert(r == 0); return 0; }
int main() { pthread_t h; pthread_create(&h, 0, t, 0); x = 1; return 0; }
`);
    const r = checkAssumeGuarantee(p, [[0], [1]]);
    expect(r.verdict, r.verdict === 'unknown' ? r.reason : '').toBe('unsafe');
  });

  it('rely verify --engine learn: SAFE with the assumption and the split, UNSAFE with a replayed trace, --split errors located (exit 2)', async () => {
    const safe = join(dir, 'handshake.c');
    writeFileSync(safe, handshake);
    const r = await rely(['verify', safe, '--engine', 'learn']);
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.out).toMatch(/^SAFE\nproof: ⟨A⟩ S1 ⟨no error⟩ and ⟨true⟩ S2 ⟨A⟩ for S1 \| S2 = main \| writer/);
    expect(r.out).toContain('q0 --/ x=1--> q');
    expect(r.out).toMatch(/\d+ events \(\d+ seen by the assumption\), \d+ valuations read, \d+ rounds/);
    const bad = join(dir, 'handshake-bad.c');
    writeFileSync(bad, handshake.replace('x = 1; x = 2;', 'x = 2; x = 1;'));
    const u = await rely(['verify', bad, '--engine', 'learn', '--split', 'main|writer']);
    expect(u.code).toBe(1);
    expect(u.out).toContain('replayed in the interpreter');
    const e = await rely(['verify', safe, '--engine', 'learn', '--split', 'main|nope']);
    expect(e.code).toBe(2);
    expect(e.err).toMatch(/^--split:1:6: error: no thread 'nope'/);
    expect((await rely(['verify', safe, '--engine', 'learn', '--split', 'main'])).code).toBe(2);
  });

  it('rely decompose: every two-way split against explicit-global, the best one named', async () => {
    const f = join(dir, 'handshake-decompose.c');
    writeFileSync(f, handshake);
    const r = await rely(['decompose', f]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^explicit-global: safe, \d+ states.*\nexplicit-modular: safe, \d+ states/);
    expect(r.out).toContain('| main \\| writer | safe |');
    expect(r.out).toContain('| writer \\| main | safe |');
    expect(r.out).toMatch(/best split: .+ \(largest check \d+ states, memory ratio [\d.]+\)/);
    const j = JSON.parse((await rely(['decompose', f, '--json'])).out);
    expect(j.splits).toHaveLength(2);
    expect(j.global.verdict).toBe('safe');
    const bad = join(dir, 'handshake-decompose-bad.c');
    writeFileSync(bad, handshake.replace('x = 1; x = 2;', 'x = 2; x = 1;'));
    expect((await rely(['decompose', bad])).code).toBe(1);
  });

  it('never contradicts exhaustive exploration on 40 generated programs, half of them looping (split: main and the first thread | the rest, and generalized: | one per thread)', () => {
    const counts = { agree: 0, unknown: 0, safe: 0, unsafe: 0, generalized: 0 };
    const contradictions: string[] = [];
    for (let k = 0; k < 40; k++) {
      const p = program(generateProgram(2323, k, { looping: k % 2 === 1 }));
      const s1 = [0, 1];
      const s2 = [...p.threads.keys()].filter((t) => !s1.includes(t));
      const truth = explore(p, { maxStates: 200_000 });
      const splits = s2.length > 1 ? [[s1, s2], [s1, ...s2.map((t) => [t])]] : [[s1, s2]];
      for (const [j, split] of splits.entries()) {
        const r = checkAssumeGuarantee(p, split, { budget: new Budget({ deadline: performance.now() + 5_000 }) });
        if (r.verdict === 'unknown' || !truth.complete) {
          counts.unknown++;
          continue;
        }
        if ((r.verdict === 'unsafe') !== truth.errorReachable) contradictions.push(`program ${k}, split ${JSON.stringify(split)}: learn ${r.verdict}, exploration ${truth.errorReachable ? 'unsafe' : 'safe'}`);
        else (counts.agree++, counts[r.verdict]++, j === 1 && counts.generalized++);
      }
    }
    expect(contradictions).toEqual([]);
    // 51 splits in all (a generalized one where there are more than two threads), each decided or UNKNOWN.
    expect(counts.agree + counts.unknown).toBe(51);
    expect(counts.agree).toBeGreaterThan(30);
    expect(counts.safe).toBeGreaterThan(5);
    expect(counts.unsafe).toBeGreaterThan(5);
    expect(counts.generalized).toBeGreaterThan(5);
  });

  it("Cobleigh's subjects: Peterson's protocol, whose read set grows round by round; Chiron's generalized decomposition, SAFE with an assumption per level and its mutant UNSAFE by a merged run that replays", () => {
    const ag = (f: string) => loadProgram(join('benchmarks/programs/ag', f), { calls: 'inline' });
    const peterson = checkAssumeGuarantee(ag('peterson-2.c'), [[0, 1], [2]]);
    expect(peterson.verdict, JSON.stringify(peterson)).toBe('safe');
    const chiron = ag('chiron-multiple-2.c');
    const s1 = chiron.threads.filter((t) => t.index === 0 || t.name.startsWith('artist')).map((t) => t.index);
    const rest = chiron.threads.map((t) => t.index).filter((k) => !s1.includes(k));
    expect(rest).toHaveLength(3);
    const safe = checkAssumeGuarantee(chiron, [s1, ...rest.map((k) => [k])]);
    expect(safe.verdict).toBe('safe');
    expect(safe.stats.assumptions).toHaveLength(3);
    const bug = checkAssumeGuarantee(ag('chiron-multiple-bug-2.c'), [s1, ...rest.map((k) => [k])]);
    expect(bug.verdict, JSON.stringify(bug.verdict === 'unknown' && bug.reason)).toBe('unsafe');
  });
});

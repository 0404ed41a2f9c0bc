/** The precompiled grammar recipe and the lazy parsing of system-header declarations. */
import { existsSync, readFileSync } from 'node:fs';
import * as ohm from 'ohm-js';
import { describe, expect, it } from 'vitest';
import { C_GRAMMAR, grammarHash } from '../frontend/grammar.js';
import { parseC } from '../frontend/parse.js';

const RECIPE = 'dist/frontend/c-grammar.recipe.json';
const makeRecipe = (ohm as unknown as { makeRecipe(r: unknown): ohm.Grammar }).makeRecipe;

describe('grammar recipe', () => {
  it('the built recipe is current and parses exactly like the compiled grammar', () => {
    expect(existsSync(RECIPE)).toBe(true); // written by `npm run build`, which `npm test` runs first
    const saved = JSON.parse(readFileSync(RECIPE, 'utf8')) as { hash: string; recipe: unknown };
    expect(saved.hash).toBe(grammarHash());
    const fromRecipe = makeRecipe(saved.recipe);
    const compiled = ohm.grammar(C_GRAMMAR);
    for (const src of [
      'int main() { int x = a ? b : c; x += y << 2; switch (x) { case 1: break; default: ; } return 0; }',
      'typedef union { char __size[4]; int __align; } pthread_mutexattr_t;',
      'int main() { int x = ; }',
    ]) {
      const a = fromRecipe.match(src, 'TranslationUnit');
      const b = compiled.match(src, 'TranslationUnit');
      expect(a.succeeded()).toBe(b.succeeded());
      if (a.failed() && b.failed()) expect(a.getRightmostFailurePosition()).toBe(b.getRightmostFailurePosition());
    }
  });
});

describe('system headers', () => {
  it('only the header declarations the program uses are parsed', () => {
    const f = 'test/fixtures/pthread-glibc.i';
    const tu = parseC(readFileSync(f, 'utf8'), f);
    const system = tu.items.filter((i) => i.system).length;
    expect(system).toBeGreaterThan(0);
    expect(system).toBeLessThan(100); // the file has over 400 top-level declarations
    const names = tu.items.flatMap((i) => (i.item.k === 'func' ? [i.item.def.decl.name] : i.item.k === 'decl' ? i.item.decl.items.map((d) => d.decl.name) : []));
    for (const used of ['pthread_create', 'pthread_mutex_lock', '__assert_fail']) expect(names).toContain(used);
    expect(names).not.toContain('pthread_cond_broadcast');
  });
});

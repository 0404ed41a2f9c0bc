/** The precompiled grammar recipe and the lazy parsing of system-header declarations. */
import { existsSync, readFileSync } from 'node:fs';
import * as ohm from 'ohm-js';
import { describe, expect, it } from 'vitest';
import { C_GRAMMAR, grammarHash } from '../../frontend/grammar.js';
import { parseC } from '../../frontend/parse/translation-unit.js';

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

  // `gcc -E -P` writes no line markers: nothing says which declarations came from a
  // header. In a `.i` file a declaration that defines nothing is then parsed only when
  // the program uses it; in a `.c` file every declaration is the user's and must parse.
  const unmarked = [
    'typedef void * __timer_t : 3;',
    'struct _IO_FILE;',
    'extern int __sigsetjmp (struct __jmp_buf_tag __env[1], int __savemask) __asm__ ("" "__sigsetjmp") ;',
    'typedef int (*__compar_fn_t) (const void *, const void *) __attribute__ ((__nonnull__ (1)));',
    'extern void reach_error(void);',
    'int x = 0;',
    'void *t(void *a) { x = 1; return 0; }',
    'int main(void) { if (x == 2) reach_error(); return 0; }',
  ].join('\n');
  it('a .i file without line markers: unused declarations are not parsed', () => {
    const tu = parseC(unmarked, 'p.i');
    const names = tu.items.flatMap((i) => (i.item.k === 'func' ? [i.item.def.decl.name] : i.item.k === 'decl' ? i.item.decl.items.map((d) => d.decl.name) : []));
    expect(names).toEqual(['reach_error', 'x', 't', 'main']);
  });
  it('the same text as a .c file: a declaration that does not parse is an error', () => {
    expect(() => parseC(unmarked, 'p.c')).toThrow(/p\.c:1:26: error: syntax error: unexpected ':'/);
  });
  it("a .i file with line markers: what the user's own file declares must parse, used or not", () => {
    expect(() => parseC(`# 1 "p.c"\n${unmarked}`, 'p.i')).toThrow(/p\.c:1:26: error: syntax error: unexpected ':'/);
  });
});

/** The recursive-descent statement parser (frontend/parse/statements.ts): what it builds from the statements it tells apart by their first tokens. */
import { describe, expect, it } from 'vitest';
import type { Stmt } from '../../frontend/ast.js';
import { parseC } from '../../frontend/parse/translation-unit.js';

/** The statements of main's body in `body`. */
function bodyOf(body: string): Stmt[] {
  const tu = parseC(`typedef int T;\nint x, y;\nint main(void) {\n${body}\n}\n`, 'p.c');
  const main = tu.items.find((i) => i.item.k === 'func')!.item;
  if (main.k !== 'func' || main.def.body.k !== 'block') throw new Error('no body');
  return main.def.body.body;
}

describe('statements', () => {
  it('a dangling else binds to the nearest if', () => {
    const [s] = bodyOf('if (x) if (y) x = 1; else x = 2;');
    expect(s.k === 'if' && s.else).toBe(undefined);
    expect(s.k === 'if' && s.then.k === 'if' && s.then.else?.k).toBe('expr');
  });

  it('an else-if chain nests one if per arm, the final else in the last', () => {
    const [s] = bodyOf('if (x == 0) x = 1; else if (x == 1) x = 2; else if (x == 2) x = 3; else x = 0;');
    let arms = 0;
    let e: Stmt | undefined = s;
    while (e?.k === 'if') {
      arms++;
      e = e.else;
    }
    expect([arms, e?.k]).toEqual([3, 'expr']);
  });

  it('a typedef name begins a declaration, an identifier an expression: T * y; declares, x * y; multiplies', () => {
    const [d, m] = bodyOf('T * p;\nx * y;');
    expect(d.k).toBe('decl');
    expect(m.k === 'expr' && m.e.k).toBe('binary');
  });

  it('for with a declaration or an expression as init, and empty parts', () => {
    const [a, b, c] = bodyOf('for (int i = 0; i < 3; i++) x++;\nfor (x = 0; x < 3; ) x++;\nfor (;;) break;');
    expect(a.k === 'for' && a.init?.k).toBe('decl');
    expect(b.k === 'for' && [b.init?.k, b.cond?.k, b.step]).toEqual(['expr', 'binary', undefined]);
    expect(c.k === 'for' && [c.init, c.cond, c.step, c.body.k]).toEqual([undefined, undefined, undefined, 'break']);
  });

  it('labels, a label right before the closing brace, case values with ?:, goto located at its label', () => {
    const [sw, g, l] = bodyOf('switch (x) { case 1 ? 2 : 3: x = 1; default: break; }\ngoto end;\nend:');
    expect(sw.k === 'switch' && sw.body.k === 'block' && sw.body.body.map((s) => s.k)).toEqual(['case', 'default']);
    expect(g.k === 'goto' && [g.label, g.pos.line, g.pos.col]).toEqual(['end', 5, 6]);
    expect(l.k === 'label' && l.body.k).toBe('empty');
  });

  it('do … while, asm statements, empty statements, and a statement expression inside an expression', () => {
    const kinds = bodyOf('do x++; while (x < 3);\n__asm__ volatile ("nop");\n;\nx = ({ int t = 1; t; });').map((s) => s.k);
    expect(kinds).toEqual(['do', 'asm', 'empty', 'expr']);
  });

  it('a syntax error inside a statement is located, in the words of the grammar', () => {
    expect(() => bodyOf('while (x) { x = ; }')).toThrow(/p\.c:4:17: error: syntax error: unexpected ';'/);
    expect(() => bodyOf('if x) x = 1;')).toThrow(/p\.c:4:5: error: syntax error: unexpected '\)'/);
  });
});

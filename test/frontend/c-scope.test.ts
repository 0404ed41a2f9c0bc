/** C block scope (frontend/c-scope.ts): which locals a witness may name at a position of a function. */
import { describe, expect, it } from 'vitest';
import { parseC } from '../../frontend/parse/translation-unit.js';
import { functionScopes, namesInScope } from '../../frontend/c-scope.js';

const SOURCE = `int g;
int f(int p) {
  int a = p;
  {
    int b = a;
    g = b;
  }
  for (int i = 0; i < 2; i++) g = i;
  if (g) { int c = 1; g = c; } else { int d = 2; g = d; }
  do { int e = 0; g = e; } while (g);
  int z = 0;
  return z;
}
`;

const scoped = functionScopes(parseC(SOURCE, 'f.c').items).get('f')!;
const at = (line: number, col: number): string[] => [...namesInScope(scoped, { file: 'f.c', line, col })].sort();

describe('C block scope', () => {
  it('a parameter is in scope in the whole body; a local from after its declarator to its block\'s end', () => {
    expect(at(3, 3)).toEqual(['p']);
    expect(at(3, 11)).toEqual(['a', 'p']);
    expect(at(6, 5)).toEqual(['a', 'b', 'p']);
    // After the inner block: b is gone.
    expect(at(8, 3)).toEqual(['a', 'p']);
  });

  it('a for clause\'s declaration is in scope in the for statement only', () => {
    expect(at(8, 31)).toEqual(['a', 'i', 'p']);
    expect(at(9, 3)).toEqual(['a', 'p']);
  });

  it('the then-branch\'s locals end where the else starts; a do body\'s where its condition starts', () => {
    expect(at(9, 23)).toEqual(['a', 'c', 'p']);
    expect(at(9, 51)).toEqual(['a', 'd', 'p']);
    expect(at(10, 19)).toEqual(['a', 'e', 'p']);
    expect(at(10, 35)).toEqual(['a', 'p']);
    expect(at(12, 3)).toEqual(['a', 'p', 'z']);
  });
});

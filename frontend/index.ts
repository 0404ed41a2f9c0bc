/** Frontend entry: C file → `Program`. */
import { readFileSync } from 'node:fs';
import { InputError } from './diagnostics.js';
import { lowerProgram, type LowerOptions } from './lower.js';
import { parseC, type ParseOptions } from './parse.js';
import type { Program } from './program.js';

export type FrontendOptions = ParseOptions & LowerOptions;

/** Reads, preprocesses, parses and lowers a C file. Throws InputError on bad input. */
export function loadProgram(file: string, opts: FrontendOptions = {}): Program {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError({ file, line: 1, col: 1 }, code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : `cannot read file (${code ?? (e as Error).message})`);
  }
  return compileProgram(source, file, opts);
}

/** Parses and lowers C source text. */
export function compileProgram(source: string, file: string, opts: FrontendOptions = {}): Program {
  return lowerProgram(parseC(source, file, opts), opts);
}

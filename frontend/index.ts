/** Frontend entry: C file → `Program`. */
import { readFileSync } from 'node:fs';
import { InputError, type SourcePos } from '../program/diagnostics.js';
import { conditionReader, lowerProgram } from './lower/assemble.js';
import type { LowerOptions } from './lower/translation-unit.js';
import { parseC, parseExpression, type ParseOptions } from './parse/translation-unit.js';
import { functionScopes, namesInScope } from './c-scope.js';
import type { Term } from '../solver/formula.js';
import type { Program } from '../program/program.js';

export type FrontendOptions = ParseOptions & LowerOptions;

/** Reads, preprocesses, parses and lowers a C file. Throws InputError on bad input. */
export function loadProgram(file: string, opts: FrontendOptions = {}): Program {
  return compileProgram(readSource(file), file, opts);
}

/** The file's text; InputError when it cannot be read. */
function readSource(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError({ file, line: 1, col: 1 }, code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : `cannot read file (${code ?? (e as Error).message})`);
  }
}

/** Parses and lowers C source text. */
export function compileProgram(source: string, file: string, opts: FrontendOptions = {}): Program {
  return lowerProgram(parseC(source, file, opts), opts);
}

/** A program with what reading a witness about it needs: where its functions start, and C conditions in a thread's scope. */
export interface ReadableProgram {
  readonly program: Program;
  /** The functions defined in the file, by where their definitions start. */
  readonly functions: readonly { readonly name: string; readonly pos: SourcePos }[];
  /** `text` (which stands at `at`) as a formula in thread `thread`'s scope, where the C names `locals` denote IR variables. Throws InputError. */
  condition(thread: number, locals: ReadonlyMap<string, string>, text: string, at: SourcePos): Term;
  /** The parameters and locals of function `fn` that are in C scope at `pos` (c-scope.ts); none for a function not defined in the file. */
  localsInScope(fn: string, pos: SourcePos): ReadonlySet<string>;
  /** A pointer variable's value as C (`0`, `&x`, `&a[1]`), null when it has none (an integer, a function, one past an end); undefined for a variable that is not a pointer. */
  pointerText(variable: string, value: bigint): string | null | undefined;
}

export function loadReadableProgram(file: string, opts: FrontendOptions = {}): ReadableProgram {
  const tu = parseC(readSource(file), file, opts);
  const program = lowerProgram(tu, opts);
  const functions = tu.items.flatMap(({ item }) => (item.k === 'func' ? [{ name: item.def.decl.name!, pos: item.def.pos }] : []));
  const read = conditionReader(tu, opts);
  const scopes = functionScopes(tu.items);
  const pointerText = (variable: string, value: bigint): string | null | undefined => {
    const cell = read.pointee(variable, value);
    if (cell === undefined) return undefined;
    if (cell === '') return '0';
    const cname = cell === null ? undefined : program.vars.get(cell)?.cname;
    // A cell C names: a variable or an element of an array of constant size.
    return cname !== undefined && /^[A-Za-z_]\w*(\[\d+\])*$/.test(cname) ? `&${cname}` : null;
  };
  return {
    program,
    functions,
    condition: (thread, locals, text, at) => read.condition(thread, locals, parseExpression(text, at)),
    localsInScope: (fn, pos) => namesInScope(scopes.get(fn) ?? [], pos),
    pointerText,
  };
}

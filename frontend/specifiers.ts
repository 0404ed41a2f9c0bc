/**
 * What rely does with each storage class, qualifier and attribute it reads. Every one is
 * either modelled or refused with a located `unsupported:` where the declaration it
 * belongs to is used: a dropped `__thread` once made two threads share one counter.
 *
 * Modelled without a trace in the transition system, because they do not change what a
 * program can do under rely's model: `const`, `volatile`, `restrict` (and their GNU
 * spellings), `_Nonnull`/`_Nullable`, `register`, `auto`,
 * `inline`, `_Noreturn`, `__extension__`, `_Alignas`, asm labels, and the attributes in
 * HARMLESS below (layout, code generation, diagnostics, optimisation hints).
 * `__attribute__((mode(…)))` sets an integer's width.
 */
import type { Attribute, Specifiers } from './ast.js';
import { unsupported, type SourcePos } from '../program/diagnostics.js';

/** GCC attributes (without their `__` wrapping) that change nothing rely models. */
const HARMLESS = new Set([
  'aligned', 'packed', 'unused', 'used', 'maybe_unused', 'deprecated', 'unavailable', 'visibility', 'weak', 'section',
  'nothrow', 'leaf', 'nonnull', 'returns_nonnull', 'const', 'pure', 'malloc', 'noreturn', 'noinline', 'always_inline',
  'gnu_inline', 'artificial', 'flatten', 'hot', 'cold', 'format', 'format_arg', 'warn_unused_result', 'nodiscard',
  'sentinel', 'access', 'alloc_size', 'alloc_align', 'may_alias', 'nonstring', 'no_instrument_function',
  'externally_visible', 'optimize', 'noclone', 'no_sanitize', 'no_sanitize_address', 'no_sanitize_thread',
  'no_sanitize_undefined', 'error', 'warning', 'returns_twice', 'transparent_union', 'fallthrough', 'nocommon',
  'common', 'regparm', 'cdecl', 'stdcall', 'fastcall', 'asm', '_Alignas', 'copy', 'no_stack_protector',
]);

/** Integer widths of `__attribute__((mode(M)))`; `word` and `pointer` take the data model's width. */
const MODE_BITS: Record<string, number | 'long'> = { QI: 8, HI: 16, SI: 32, DI: 64, byte: 8, word: 'long', pointer: 'long' };

/** `_Atomic` on a pointer (`int * _Atomic p`): atomic integers are modelled (types.ts), atomic pointers are not. */
const ATOMIC = "'_Atomic' on a pointer (only atomic integers are modelled)";

/** Refuses an attribute rely does not model (`cleanup`, `constructor`, `vector_size`, `__declspec(thread)`, any unknown one). */
export function checkAttributes(attrs: readonly Attribute[] | undefined): void {
  for (const a of attrs ?? [])
    if (a.name === '_Atomic') unsupported(a.pos, ATOMIC);
    else if (!HARMLESS.has(a.name) && a.name !== 'mode')
      unsupported(a.pos, `attribute '${a.name}${a.args === undefined ? '' : `(${a.args})`}' (it changes what the program does; rely does not model it)`);
}

/**
 * The width `__attribute__((mode(M)))` gives an integer type, if the attributes have one;
 * a mode that is not an integer width of rely's (floating point, 128 bits, vectors) is refused.
 */
export function modeBits(attrs: readonly Attribute[] | undefined, longBits: number): number | undefined {
  let bits: number | undefined;
  for (const a of attrs ?? []) {
    if (a.name !== 'mode') continue;
    const m = MODE_BITS[(a.args ?? '').replace(/^__(.+)__$/, '$1')];
    if (m === undefined) unsupported(a.pos, `attribute 'mode(${a.args ?? ''})' (only integer modes up to 64 bits are modelled)`);
    bits = m === 'long' ? longBits : m;
  }
  return bits;
}

/** Thread-local storage classes: each thread has its own copy of the variable. */
const THREAD_LOCAL = ['__thread', '_Thread_local'];

/** Whether a declaration is thread-local (a file-scope one is a copy per thread: ThreadBuilder.lookup). */
export function isThreadLocal(spec: Specifiers): boolean {
  return spec.storage.some((s) => THREAD_LOCAL.includes(s));
}

/** Refuses a thread-local variable declared inside a function (a `static __thread` local): only file-scope ones are modelled. */
export function checkStorage(spec: Specifiers, name: string, pos: SourcePos): void {
  const tls = spec.storage.find((s) => THREAD_LOCAL.includes(s));
  if (tls) unsupported(pos, `a thread-local variable declared in a function ('${tls}' variable '${name}'): only file-scope thread-local variables are modelled`);
}

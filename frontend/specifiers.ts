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
import { unsupported, type SourcePos } from './diagnostics.js';

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

/**
 * `_Atomic` is refused until atomic objects are modelled: rely splits a store that may
 * wrap (`x++` of an `unsigned char`) into a test and a write, two steps where C's atomic
 * read-modify-write is one.
 */
const ATOMIC = "'_Atomic' (atomic objects are not modelled yet: a read-modify-write would not be one step)";

/** Refuses qualifiers rely does not model. */
export function checkQualifiers(spec: Specifiers): void {
  if (spec.qualifiers.includes('_Atomic')) unsupported(spec.pos, ATOMIC);
}

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

/** Thread-local storage classes: each thread would need its own copy of the variable. */
const THREAD_LOCAL = ['__thread', '_Thread_local'];

/** Refuses a variable declared with a storage class rely does not model. */
export function checkStorage(spec: Specifiers, name: string, pos: SourcePos): void {
  const tls = spec.storage.find((s) => THREAD_LOCAL.includes(s));
  if (tls) unsupported(pos, `thread-local storage ('${tls}' variable '${name}'): a copy per thread is not modelled`);
}

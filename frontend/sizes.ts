/**
 * `sizeof`: the bytes a C type takes on the target gcc compiles SV-COMP tasks for
 * (x86, 32-bit ILP32 or 64-bit LP64, glibc), with C's alignment padding in structs.
 * rely's own model of a value is cells, not bytes; sizes only matter where a program
 * computes with them (`malloc(n * sizeof(T))`), so they must be the target's.
 */
import type { CType, SyncKind } from './types.js';

/** glibc's sizes of the synchronisation objects rely models by members of its own (types.ts SYNC): [i386, x86-64]. */
const SYNC_SIZE: Record<SyncKind, readonly [bigint, bigint]> = { cond: [48n, 48n], rwlock: [32n, 56n], barrier: [20n, 32n], sem: [16n, 32n], once: [4n, 4n], mutexattr: [4n, 4n] };

interface Layout {
  readonly size: bigint;
  readonly align: bigint;
}

/** The size of type t in bytes, or undefined for a type that has none rely knows (void, functions, unmodelled types, arrays without a size). */
export function sizeOf(t: CType, longBits: number): bigint | undefined {
  return layout(t, longBits)?.size;
}

function layout(t: CType, longBits: number): Layout | undefined {
  const word = BigInt(longBits / 8);
  switch (t.k) {
    case 'int': {
      const size = t.bool ? 1n : BigInt(t.bits / 8);
      // gcc -m32 aligns an 8-byte `long long` member to 4 bytes (the i386 System V ABI).
      return { size, align: size > word ? word : size };
    }
    case 'ptr':
    case 'thread': // pthread_t is an unsigned long
      return { size: word, align: word };
    case 'mutex': // glibc's pthread_mutex_t: 40 bytes on x86-64, 24 on i386; pthread_spinlock_t is an int
      return t.spin ? { size: 4n, align: 4n } : { size: longBits === 64 ? 40n : 24n, align: word };
    case 'array': {
      const e = t.size === undefined ? undefined : layout(t.of, longBits);
      return e && { size: e.size * BigInt(t.size!), align: e.align };
    }
    case 'struct':
      if (t.sync) return { size: SYNC_SIZE[t.sync][longBits === 64 ? 1 : 0], align: t.sync === 'once' || t.sync === 'mutexattr' ? 4n : word };
      return structLayout(t, longBits);
    default:
      return undefined;
  }
}

/** Members in order, each at the next offset its alignment allows; the whole padded to its largest alignment. A union's members all start at 0. */
function structLayout(t: Extract<CType, { k: 'struct' }>, longBits: number): Layout | undefined {
  let size = 0n;
  let align = 1n;
  for (const f of t.fields) {
    const m = layout(f.type, longBits);
    if (!m) return undefined;
    if (m.align > align) align = m.align;
    if (t.union) size = m.size > size ? m.size : size;
    else size = roundUp(size, m.align) + m.size;
  }
  return { size: roundUp(size, align), align };
}

const roundUp = (n: bigint, a: bigint): bigint => ((n + a - 1n) / a) * a;

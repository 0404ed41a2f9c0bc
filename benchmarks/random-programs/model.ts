/**
 * What the random programs' generator knows of a program as it writes it: the facts of
 * a function's straight-line run, its scope, and the constructs the program may use.
 */

/** What a function knows (in its own sequential run) of a variable's value: a constant or another variable. */
export type Fact = { kind: 'const'; value: number } | { kind: 'var'; name: string };

export interface Scope {
  readonly vars: string[];
  readonly locals: string[];
  readonly globals: string[];
  /** Facts from the straight-line code so far (interference may break them: that is the point). */
  readonly facts: Map<string, Fact>;
  asserts: number;
  /** The program has a mutex `m`. */
  readonly mutex: boolean;
  /** The function declares the loop counter `k` (extended programs). */
  counter?: boolean;
  /** Data programs: the function's `int *q` into `da`, `struct S *p`, `struct S ls`. */
  readonly q?: boolean;
  readonly p?: boolean;
  readonly ls?: boolean;
}

/** A form of assignment with its weight: drawn, it gives the left side, the right side and what the function then knows. */
export type AssignmentForm = readonly [number, () => [string, string, Fact | undefined]];

export type Ctx = 'top' | 'branch' | 'atomic' | 'locked' | 'loop';

/** What an extended program has beside the classic constructs (generateProgram's `extended`). */
export interface Extras {
  readonly array: boolean;
  /** The helper functions `add(v, c)` and `put(v)` (which writes `putTarget`). */
  readonly calls: boolean;
  readonly putTarget: string;
  readonly nondet: boolean;
  readonly loops: boolean;
  readonly arith: boolean;
}

/** What a data program has (generateProgram's `data`). */
export interface DataExtras {
  readonly struct: boolean;
  readonly nested: boolean;
  readonly structArray: boolean;
  readonly union: boolean;
  /** `int da[3]` with run-time indices and pointers to its cells. */
  readonly cells: boolean;
  /** Thread 1 gets a pointer to a struct global as its argument. */
  readonly ptrArg: boolean;
}

/** What a sync program has (generateProgram's `sync`). */
export interface SyncExtras {
  /** `pthread_cond_t cv` over the mutex `m`, and the global whose value the waits wait for. */
  readonly cond: boolean;
  readonly flag: string;
  readonly rwlock: boolean;
  readonly sem: boolean;
  readonly trylock: boolean;
  readonly spin: boolean;
  /** `int cnt` under GCC's `__sync_*` builtins (and racy plain increments). */
  readonly gcc: boolean;
  /** `ac`, an `_Atomic int` or `atomic_int`, under C11's functions and `++`. */
  readonly c11: boolean;
}

/** What the code so far adds to an atomic counter (starting at 0), for the asserts over it. */
export interface Tally {
  /** Added in every run that reaches the asserting point after the joins. */
  sure: number;
  /** Added at most. */
  upto: number;
  /** A racy increment (may lose others') or an `atomic_store` (of at most 3) makes `sure` no lower bound. */
  exact: boolean;
  stored: boolean;
}

/** The sync statements that are no counter operation: each at a function's top level only, so no lock nests in another. */
export const SYNC_REGIONS = ['wait', 'signal', 'rdlock', 'wrlock', 'tryrdlock', 'trylock', 'spin', 'semcs', 'sempost', 'semwait', 'semtry'] as const;

/** A name that reaches memory through a pointer or an index known only at run time (may alias another name). */
export const indirect = (v: string): boolean => /->|\*|\[[^\]]*[a-z]/.test(v);

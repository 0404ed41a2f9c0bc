/**
 * Pointers with a finite set of targets: the address space and a flow-insensitive
 * points-to analysis (Andersen's, restricted to copies: rely models no pointer stored
 * in memory, so there are no loads or stores of pointers to follow).
 *
 * Representation. Every object whose address is taken as a value (a global or local
 * scalar, a whole array flattened cell by cell) gets a base address, and a pointer is
 * one integer variable holding an address: 0 is NULL, the k-th cell of an object is
 * base + k, and after each object one address is left free for its one-past-the-end
 * pointer. One integer rather than an (object, offset) pair because pointer
 * arithmetic, `p == q`, `!p` and `p - q` are then single linear terms and atoms,
 * which is what every engine reads best; exactness is kept by checking each pointer
 * arithmetic step against its object's bounds (lower/pointers.ts), so a pointer
 * always holds 0 or an address of the object it came from, never one of a
 * neighbour. An integer cast to a pointer holds the integer itself ("int" below):
 * such a pointer may only be compared with NULL or converted back.
 *
 * A function pointer is one integer variable too: 0 is NULL, and each function whose
 * address is taken gets a number of its own, from the same counter (`f:NAME` sources).
 *
 * The analysis needs the whole program (an address taken in one thread flows into a
 * dereference in another), so the lowering runs again (lower.ts): the first run only
 * records objects and flows, the next reads the solution, and dereferences become
 * case splits over the addresses a pointer may hold (lower/case-split.ts). A local
 * whose address is taken as a value becomes a global variable in the next run,
 * since other threads (or a kept call) may reach it through the pointer. A call
 * through a function pointer inlines the functions the solution names, whose bodies
 * the previous run did not lower, so a run is final only when its own flows add
 * nothing to the solution it read (`consistent`); otherwise the lowering runs again.
 */
import type { CType, IntType } from './types.js';

/** One cell of an addressable object: its IR variable and its C type (an integer, or a mutex in a struct). */
export interface Cell {
  readonly name: string;
  readonly type: IntType | { readonly k: 'mutex' } | Extract<CType, { k: 'ptr' }>;
}

export interface MemObject {
  /** The IR name of its first cell (of its array variable, for a region). */
  readonly key: string;
  readonly cells: readonly Cell[];
  readonly base: bigint;
  /** An object of a size known only at run time: its cells are one array variable (`key`), its size (in cells) a variable. */
  readonly region?: Region;
}

/** A region's cells are `key`'s values at 0 … size − 1, each of type `elem`; it has no cells of its own (MemObject.cells is empty). */
export interface Region {
  readonly size: string;
  readonly elem: IntType;
}

/**
 * Regions lie far above every other object, each in a span of its own this long: a
 * region's size is a count of a C object's values, below 2^64, so its addresses (one
 * past the end included) never reach the next one's and every address stays exact.
 */
export const REGION_SPAN = 1n << 64n;

/**
 * Where a pointer value may come from: `null`, `int` (an integer cast to a pointer),
 * `o:KEY` (an address of object KEY) or `v:NAME` (the value of pointer variable NAME).
 */
export type Sources = ReadonlySet<string>;
export const NULL_SOURCES: Sources = new Set(['null']);
export const INT_SOURCES: Sources = new Set(['int']);
export const objectSource = (key: string): Sources => new Set([`o:${key}`]);
export const variableSource = (name: string): Sources => new Set([`v:${name}`]);
export const functionSource = (name: string): Sources => new Set([`f:${name}`]);

/** What a pointer may point to: objects, functions (by name, in the order of their numbers), NULL, or an integer cast to a pointer. */
export interface Targets {
  readonly objects: readonly MemObject[];
  readonly functions: readonly { name: string; address: bigint }[];
  readonly null: boolean;
  readonly int: boolean;
}

export class PointsTo {
  /** Whether the program has run-time pointers: pointer variables, or addresses taken as values. */
  used = false;
  private readonly objects = new Map<string, MemObject>();
  private readonly functions = new Map<string, bigint>();
  private readonly flows = new Map<string, Set<string>>();
  private readonly promotedCells = new Set<string>();
  private next = 1n;
  /** Regions numbered so far (each in its own REGION_SPAN). */
  private regions = 0;
  /** Set when this run numbered an object or function, or promoted a local, that the previous run did not. */
  private grew = false;
  /** Only after the first run: each pointer variable's sources, closed under copies (no `v:` left). */
  private readonly solved?: ReadonlyMap<string, ReadonlySet<string>>;

  /** The analysis of the previous run, solved, for the next; none in the first run. */
  constructor(previous?: PointsTo) {
    if (!previous) return;
    for (const [k, o] of previous.objects) this.objects.set(k, o);
    for (const [k, a] of previous.functions) this.functions.set(k, a);
    for (const c of previous.promotedCells) this.promotedCells.add(c);
    this.next = previous.next;
    this.regions = previous.regions;
    this.solved = previous.closure();
    this.used = true;
  }

  /** After the first run: a solution is known. */
  get analysed(): boolean {
    return this.solved !== undefined;
  }

  /**
   * Whether the run that built this analysis read a solution that covers its own
   * flows, objects and promotions: then its case splits are complete and its program
   * is the final one (lower.ts).
   */
  consistent(): boolean {
    if (!this.solved || this.grew) return false;
    for (const [v, mine] of this.closure()) {
      const known = this.solved.get(v);
      for (const x of mine) if (!known?.has(x)) return false;
    }
    return true;
  }

  /** The object with these cells, numbered in the first run that saw it (later runs find the same). */
  address(cells: readonly Cell[], local: boolean): MemObject {
    this.used = true;
    const key = cells[0].name;
    let o = this.objects.get(key);
    if (!o) {
      o = { key, cells, base: this.next };
      this.objects.set(key, o);
      this.next += BigInt(cells.length) + 1n;
      this.grew = true;
    }
    if (local) this.promote(cells.map((c) => c.name));
    return o;
  }

  /** The cell at `address`: an object's (not one past its end, not a region's), or undefined. */
  cellAt(address: bigint): Cell | undefined {
    for (const o of this.objects.values()) if (!o.region && address >= o.base && address < o.base + BigInt(o.cells.length)) return o.cells[Number(address - o.base)];
    return undefined;
  }

  /** The region with array variable `key`, numbered in the first run that saw it: its base is the next free span. */
  region(key: string, region: Region): MemObject {
    this.used = true;
    let o = this.objects.get(key);
    if (!o) {
      o = { key, cells: [], base: REGION_SPAN * BigInt(++this.regions), region };
      this.objects.set(key, o);
      this.grew = true;
    }
    return o;
  }

  /** The number of a function whose address is taken, numbered as objects are. */
  functionAddress(name: string): bigint {
    this.used = true;
    let a = this.functions.get(name);
    if (a === undefined) {
      a = this.next++;
      this.functions.set(name, a);
      this.grew = true;
    }
    return a;
  }

  /** Locals that must become globals in the next run (their address escapes). */
  promote(names: readonly string[]): void {
    this.used = true;
    for (const n of names)
      if (!this.promotedCells.has(n)) {
        this.promotedCells.add(n);
        this.grew = true;
      }
  }

  promoted(name: string): boolean {
    return this.analysed && this.promotedCells.has(name);
  }

  /** `target = <a value from these sources>`. */
  flow(target: string, from: Sources): void {
    let s = this.flows.get(target);
    if (!s) this.flows.set(target, (s = new Set()));
    for (const x of from) s.add(x);
  }

  /** What a value from these sources may point to (nothing in the first run). */
  targets(from: Sources): Targets {
    const all = new Set<string>();
    for (const s of from) for (const x of s.startsWith('v:') ? (this.solved?.get(s.slice(2)) ?? []) : [s]) all.add(x);
    const objects = [...all].filter((s) => s.startsWith('o:')).map((s) => this.objects.get(s.slice(2))!);
    const functions = [...all].filter((s) => s.startsWith('f:')).map((s) => ({ name: s.slice(2), address: this.functions.get(s.slice(2))! }));
    return {
      objects: objects.sort((a, b) => (a.base < b.base ? -1 : 1)),
      functions: functions.sort((a, b) => (a.address < b.address ? -1 : 1)),
      null: all.has('null'),
      int: all.has('int'),
    };
  }

  /** The values a pointer variable can hold: 0 … the last address (a region's span included), unless an integer may flow into it. */
  range(name: string): [bigint, bigint] | undefined {
    if (!this.solved || this.solved.get(name)?.has('int')) return undefined;
    return [0n, this.regions > 0 ? REGION_SPAN * BigInt(this.regions + 1) - 1n : this.next - 1n];
  }

  /** Each variable's sources with the copies resolved, to a fixpoint. */
  private closure(): Map<string, Set<string>> {
    const pts = new Map<string, Set<string>>();
    for (const [v, from] of this.flows) pts.set(v, new Set([...from].filter((s) => !s.startsWith('v:'))));
    for (let changed = true; changed; ) {
      changed = false;
      for (const [v, from] of this.flows)
        for (const s of from) {
          if (!s.startsWith('v:')) continue;
          const mine = pts.get(v)!;
          for (const x of pts.get(s.slice(2)) ?? [])
            if (!mine.has(x)) {
              mine.add(x);
              changed = true;
            }
        }
    }
    return pts;
  }
}

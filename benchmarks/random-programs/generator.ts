/**
 * The random programs' generator: its random draws, the lines written so far, what the
 * program knows of its variables, conditions and asserts, and blocks of statements.
 */
import type { Ctx, DataExtras, Extras, Fact, Scope, SyncExtras, Tally } from './model.js';
import { indirect } from './model.js';

const CMP = ['==', '!=', '<', '<='] as const;

/**
 * One statement of kind chosen for context `ctx` (statements.ts): the generator takes it from
 * outside, so that the constructs' modules, whose statements hold blocks, sit below it.
 */
export type Statement = (g: Generator, s: Scope, ctx: Ctx, indent: number) => void;

export class Generator {
  readonly lines: string[] = [];
  /** Globals' initial values and the constants assigned to them anywhere. */
  readonly initial = new Map<string, number>();
  readonly written = new Map<string, number[]>();
  /** Asserts so far in the whole program. */
  asserts = 0;
  /** Thread bodies repeat forever (generateProgram's `looping`). */
  looping = false;
  /** Inside a bounded loop: sums wrap so values stay finite. */
  inLoop = 0;
  extras: Extras | null = null;
  data: DataExtras | null = null;
  sync: SyncExtras | null = null;
  /** Sync programs: what every function adds to each counter, and the current function alone (certainly). */
  readonly tally = new Map<string, Tally>();
  own = new Map<string, number>();
  /** How many times the current statement runs (bounded loops), and inside how many conditional bodies it is. */
  times = 1;
  maybe = 0;
  /** The other names of one object (a union's members). */
  readonly aliases = new Map<string, string[]>();
  constructor(
    private readonly r: () => number,
    private readonly statement: Statement,
  ) {}

  int(lo: number, hi: number): number {
    return lo + Math.floor(this.r() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.r() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.r() * xs.length)];
  }
  weighted<T>(options: readonly (readonly [number, T])[]): T {
    const total = options.reduce((s, [w]) => s + w, 0);
    let x = this.r() * total;
    for (const [w, v] of options) if ((x -= w) < 0) return v;
    return options[options.length - 1][1];
  }

  /** Two variables, distinct when there are two. */
  two(vs: readonly string[]): [string, string] {
    const v = this.pick(vs);
    const rest = vs.filter((u) => u !== v);
    return [v, rest.length ? this.pick(rest) : v];
  }

  emit(indent: number, line: string): void {
    this.lines.push('  '.repeat(indent) + line);
  }
  text(): string {
    return this.lines.join('\n') + '\n';
  }

  atom(s: Scope): string {
    const v = this.pick(s.vars);
    const op = this.pick(CMP);
    if (s.vars.length > 1 && this.chance(0.3)) {
      const w = this.pick(s.vars.filter((u) => u !== v));
      return `${v} ${op} ${w}`;
    }
    return this.chance(0.85) ? `${v} ${op} ${this.int(0, 3)}` : `${this.int(0, 3)} ${op} ${v}`;
  }

  cond(s: Scope): string {
    const k = this.r();
    if (k < 0.18) return `${this.atom(s)} && ${this.atom(s)}`;
    if (k < 0.32) return `${this.atom(s)} || ${this.atom(s)}`;
    return this.atom(s);
  }

  /** An assert condition: mostly one the function's own run makes true, which interleavings may break. */
  assertion(s: Scope): string {
    const known = [...s.facts.entries()];
    if (known.length > 0 && this.chance(0.85)) {
      const [v, f] = this.pick(known);
      const rhs = f.kind === 'const' ? String(f.value) : f.name;
      const form = this.weighted([
        [5, `${v} == ${rhs}`],
        [1, `${v} <= ${rhs}`],
        [1, f.kind === 'const' ? `${v} != ${(f.value + 1) % 4}` : `${rhs} <= ${v}`],
        [1, `${v} == ${rhs} || ${this.atom(s)}`],
      ]);
      return form;
    }
    return this.cond(s);
  }

  /** Drops the facts `v`'s new value makes stale: those mentioning it, and in data programs those of names that may share its memory. */
  forget(s: Scope, v: string): void {
    const names = [v, ...(this.aliases.get(v) ?? [])];
    // A write through a pointer or a run-time index may hit any memory name; a direct one any indirect name.
    const hit = (u: string): boolean => names.includes(u) || (this.data !== null && (indirect(v) ? /[.[*>]/.test(u) : indirect(u)));
    for (const [u, f] of [...s.facts]) if (hit(u) || (f.kind === 'var' && hit(f.name))) s.facts.delete(u);
  }

  /** `v` now holds constant `c` (and its aliases with it). */
  wrote(v: string, c: number): void {
    for (const u of [v, ...(this.aliases.get(v) ?? [])]) if (this.initial.has(u)) this.written.set(u, [...(this.written.get(u) ?? []), c]);
  }

  /** Keeps the facts `other` has too (after a block that runs in some runs only, or after the other branch). */
  keepAgreeing(s: Scope, other: ReadonlyMap<string, Fact>): void {
    for (const [k, v] of [...s.facts]) if (JSON.stringify(other.get(k)) !== JSON.stringify(v)) s.facts.delete(k);
  }

  /** `assert(c)` for the function's first assert, `__VERIFIER_assert(c)` after it. */
  assertThat(s: Scope, c: string, indent: number): void {
    this.asserts++;
    this.emit(indent, s.asserts++ === 0 ? `assert(${c});` : `__VERIFIER_assert(${c});`);
  }

  assert(s: Scope, indent: number): void {
    this.assertThat(s, this.assertion(s), indent);
  }

  /** min..max statements for context `ctx`. */
  block(s: Scope, ctx: Ctx, indent: number, min: number, max: number): void {
    const n = this.int(min, max);
    for (let i = 0; i < n; i++) this.statement(this, s, ctx, indent);
  }

  /** `open`, a block in context `ctx` (1 or 2 statements), `close`. */
  region(s: Scope, ctx: Ctx, open: string, close: string, indent: number): void {
    this.emit(indent, open);
    this.block(s, ctx, indent, 1, 2);
    this.emit(indent, close);
  }
}

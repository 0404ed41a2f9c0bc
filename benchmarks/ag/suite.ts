/**
 * The assume-guarantee subjects as programs: one family's program of size n, and every
 * program --write writes with its entry of benchmarks/ag.json.
 */
import { BUG_SIZES, FAMILIES, INFO, SIZES, fileName, type AgEntry, type Family } from './families.js';
import { prologue, type FamilyWriter } from './header.js';
import { chiron } from './chiron.js';
import { gasStation } from './gas-station.js';
import { peterson } from './peterson.js';
import { relay } from './relay.js';
import { smokers } from './smokers.js';

const WRITERS: Record<Family, FamilyWriter> = {
  peterson,
  relay,
  smokers,
  'gas-station': gasStation,
  'chiron-single': chiron(false),
  'chiron-multiple': chiron(true),
};

/** The C source of `family`'s program with n of the task the thesis scales (n >= 2), its mutant with `bug`. */
export function generate(family: Family, n: number, bug = false): string {
  if (!Number.isInteger(n) || n < 2) throw new RangeError(`${family}: n must be an integer >= 2, not ${n}`);
  const writer = WRITERS[family];
  return [...prologue({ family, n, bug, ...writer.describe(n, bug) }, writer.defines(n)), ...writer.body(n, bug)].join('\n') + '\n';
}

/** Every program --write writes, with its manifest entry. */
export function suite(): { entry: AgEntry & { readonly suite: 'ag' }; source: string }[] {
  const out: { entry: AgEntry & { readonly suite: 'ag' }; source: string }[] = [];
  for (const family of FAMILIES)
    for (const [bug, sizes] of [
      [false, SIZES[family]],
      [true, BUG_SIZES],
    ] as const)
      for (const n of sizes) {
        const source = generate(family, n, bug);
        const body = source.slice(source.indexOf(' */\n') + 4);
        out.push({
          source,
          entry: {
            file: `benchmarks/programs/ag/${fileName(family, n, bug)}`,
            name: `${INFO[family].name}${bug ? '-bug' : ''}(${n})`,
            suite: 'ag',
            family,
            n,
            expected: bug ? 'unsafe' : 'safe',
            property: INFO[family].property,
            loc: body.split('\n').filter((l) => l.trim() !== '').length,
            note: bug ? `Mutant (MUTATION comments in the file): ${INFO[family].mutant}` : '',
          },
        });
      }
  return out;
}

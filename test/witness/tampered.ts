/** Witnesses changed on purpose, to check that the validator does not confirm them. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';

/** A copy of witness `w`, written to `dir/name`, with `from` replaced by `to` (which must occur). */
export function tampered(dir: string, w: string, name: string, from: string | RegExp, to: string): string {
  const text = readFileSync(w, 'utf8');
  const changed = text.replace(from, to);
  expect(changed).not.toBe(text);
  const out = join(dir, name);
  writeFileSync(out, changed);
  return out;
}

/** The engine registry: what `--help`, the CLI's options and docs/engines.md say comes from it. */
import { readFileSync } from 'node:fs';
import { Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE, ENGINES, engineOptions } from '../../engines/registry.js';
import { ENGINES_DOC, withEngineTable } from '../../engines/write-engine-table.js';
import { rely } from '../helpers.js';

describe('engine registry', () => {
  it('names each engine once; the portfolio (auto) is the default', () => {
    const names = ENGINES.map((e) => e.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(['auto', 'aret', 'bmc', 'monolithic', 'thread-modular', 'explicit-global', 'explicit-modular', 'learn']);
    expect(DEFAULT_ENGINE).toBe('auto');
  });

  it("declares each option under commander's name for its flags, once per flag", () => {
    for (const e of ENGINES) for (const [key, o] of Object.entries(e.options)) expect(new Option(o.flags).attributeName(), `${e.name} ${o.flags}`).toBe(key);
    const shared = engineOptions().find((o) => o.option.flags.startsWith('--solver'));
    expect(shared?.engines).toEqual(['auto', 'aret', 'bmc', 'monolithic', 'thread-modular']);
  });

  it('rely verify --help lists every engine and every engine option, with the engines that read it', async () => {
    const r = await rely(['verify', '--help']);
    expect(r.code).toBe(0);
    const help = r.out.replace(/\s+/g, ' ');
    for (const e of ENGINES) expect(help).toContain(`${e.name}: ${e.description}`);
    for (const { option, engines } of engineOptions()) expect(help).toContain(`${option.flags} ${engines.join(', ')}: ${option.description.slice(0, 30)}`);
    expect(help).toContain('--engine <engine>');
  });

  it('rely bench --help lists every engine', async () => {
    const r = await rely(['bench', '--help']);
    for (const e of ENGINES) expect(r.out.replace(/\s+/g, ' ')).toContain(`${e.name}: ${e.description}`);
  });

  it("docs/engines.md's table of engines is the registry's (npm run docs:engines rewrites it)", () => {
    const doc = readFileSync(new URL(`../../${ENGINES_DOC}`, import.meta.url), 'utf8');
    expect(withEngineTable(doc)).toBe(doc);
  });
});

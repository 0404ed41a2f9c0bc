/**
 * Every engine of rely, in the order `--help` lists them; of the engines that
 * decide a kind of property (assertions, `--ltl`), the first is the default. `rely verify
 * --engine`, `rely bench --engine`, their help and docs/engines.md's table of engines are
 * generated from this list: a new engine is one folder and one entry.
 */
import type { Engine, LivenessEngine } from '../core/engine.js';
import { portfolioEngine } from './portfolio/engine.js';
import { aretEngine } from './aret/engine.js';
import { bmcEngine } from './bmc/engine.js';
import { monolithicEngine } from './monolithic/engine.js';
import { explicitGlobalEngine, explicitGlobalLivenessEngine, explicitModularEngine } from './explicit/engine.js';
import { splitEngine } from './split-invariant/engine.js';
import { learnEngine } from './learn/engine.js';
import { threadModularEngine } from './thread-modular/engine.js';

/** An engine of any options, proof and statistics: the registry holds them side by side (each is typed where it is declared). */
export type AnyEngine = Engine<any, any, any>;
export type AnyLivenessEngine = LivenessEngine<any>;

/** Every engine; of those that decide a kind of property, the first is the default for it. */
const REGISTRY: readonly (AnyEngine | AnyLivenessEngine)[] = [
  portfolioEngine,
  aretEngine,
  bmcEngine,
  monolithicEngine,
  threadModularEngine,
  explicitGlobalEngine,
  explicitModularEngine,
  learnEngine,
  splitEngine,
  explicitGlobalLivenessEngine,
];

/** The engines that decide the program's assertions. */
export const ENGINES: readonly AnyEngine[] = REGISTRY.filter((e): e is AnyEngine => e.decides === 'assertions');

export const DEFAULT_ENGINE = ENGINES[0].name;

/** The engines for linear-time properties (`--ltl`). */
export const LIVENESS_ENGINES: readonly AnyLivenessEngine[] = REGISTRY.filter((e): e is AnyLivenessEngine => e.decides === 'ltl');

export function livenessEngineNamed(name: string): AnyLivenessEngine | undefined {
  return LIVENESS_ENGINES.find((e) => e.name === name);
}

export function engineNamed(name: string): AnyEngine | undefined {
  return ENGINES.find((e) => e.name === name);
}

/** Each option flag with the engines that read it, in registry order (an option shared by engines is one declaration). */
export function engineOptions(): { key: string; option: AnyEngine['options'][string]; engines: string[] }[] {
  const out = new Map<string, { key: string; option: AnyEngine['options'][string]; engines: string[] }>();
  for (const e of ENGINES)
    for (const [key, option] of Object.entries(e.options)) {
      const seen = out.get(option.flags);
      if (seen && seen.option !== option) throw new Error(`internal: engines ${seen.engines[0]} and ${e.name} declare ${option.flags} differently`);
      if (seen) seen.engines.push(e.name);
      else out.set(option.flags, { key, option, engines: [e.name] });
    }
  return [...out.values()];
}

/** The table of engines in docs/engines.md (between its `engines` markers; `npm run docs:engines` rewrites it, a test compares). */
export function engineTable(): string {
  const rows = ENGINES.map((e) => {
    const flags = Object.values(e.options).map((o) => `\`${o.flags.split(' ')[0]}\``).join(', ') || '—';
    const calls = e.lowering === 'inline' ? 'inlined' : 'kept (recursion allowed)';
    return `| \`${e.name}\`${e.name === DEFAULT_ENGINE ? ' (default)' : ''} | ${e.description} | ${calls} | ${flags} | ${e.certificate ? 'yes' : 'no'} |`;
  });
  return ['| engine | what it does | calls | options | `--proof` certificate |', '| --- | --- | --- | --- | --- |', ...rows].join('\n');
}

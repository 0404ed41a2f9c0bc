/** Fake z3s (shell scripts for RELY_Z3) and cli/rely.js run as a user runs it, timed. */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The folder of the fake z3s and the test programs. */
export const dir = mkdtempSync(join(tmpdir(), 'rely-limits-'));
/** An executable script `name` with `text`: its path. */
export const script = (name: string, text: string): string => {
  const f = join(dir, name);
  writeFileSync(f, text);
  chmodSync(f, 0o755);
  return f;
};
/** A fake z3 that acknowledges every command (the echo markers) and answers `cases` (bash case arms) first. */
export const ackingZ3 = (name: string, cases: string): string =>
  script(
    name,
    `#!/bin/bash
while IFS= read -r line; do
  case "$line" in
${cases}
    '(echo "'*) m=\${line#'(echo "'}; echo "\${m%'")'}" ;;
  esac
done
`,
  );
/** A z3 that dies by SIGKILL at the first check-sat. */
export const CRASHING = ackingZ3('crashing-z3.sh', '    *check-sat*) kill -9 $$ ;;');
/** A z3 that reads every command and never answers. */
export const HANGING = script('hanging-z3.sh', '#!/bin/bash\nwhile IFS= read -r line; do :; done\n');

/** cli/rely.js with `args`: exit code, output, seconds taken. */
export function cli(args: string[], env: Record<string, string> = {}): { code: number | null; out: string; err: string; s: number } {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['cli/rely.js', ...args], { encoding: 'utf8', timeout: 120_000, env: { ...process.env, ...env } });
  const s = (performance.now() - t0) / 1000;
  return { code: r.status, out: r.stdout, err: r.stderr, s };
}

/** How long node and rely take to start here, measured: the slack of every "promptly" below. */
export const startup = ((): number => {
  const t0 = performance.now();
  spawnSync(process.execPath, ['cli/rely.js', '--version'], { encoding: 'utf8' });
  return (performance.now() - t0) / 1000;
})();

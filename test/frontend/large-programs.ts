/** Large programs run through cli/rely.js, as a user runs rely. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'rely-large-'));
/** `rely verify` through cli/rely.js on the program `src`, written to `name`: exit code, output and the file. */
export const rely = (src: string, name: string, ...args: string[]) => {
  const f = join(dir, name);
  writeFileSync(f, src);
  const r = spawnSync(process.execPath, ['cli/rely.js', 'verify', f, ...args], { encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr, file: f };
};
/** The declarations the programs start with. */
export const HEAD = '#include <pthread.h>\nextern void reach_error(void);\nint x = 0;\n';

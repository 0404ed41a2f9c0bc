/**
 * The example reports of docs/engines.md (docs/reports/): `rely verify --report` on one SAFE
 * and one UNSAFE program, each page then opened in headless Chromium (Debian's
 * `chromium`, by playwright-core) and photographed. Run: npm run docs:reports.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const ROOT = join(import.meta.dirname, '../..');
const OUT = join(ROOT, 'docs/reports');
const EXAMPLES = [
  { name: 'peterson-broken', file: 'benchmarks/programs/peterson-broken.c', engine: 'explicit-global' },
  { name: 'peterson', file: 'benchmarks/programs/peterson.c', engine: 'aret' },
];

const executablePath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(existsSync);
if (!executablePath) throw new Error('no chromium on this machine (apt-get install chromium)');
const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
for (const e of EXAMPLES) {
  const html = join(OUT, `${e.name}.html`);
  // Exit 0 (SAFE) and 1 (UNSAFE) are answers; anything else throws here.
  try {
    execFileSync(process.execPath, [join(ROOT, 'cli/rely.js'), 'verify', e.file, '--engine', e.engine, '--report', html], { cwd: ROOT, stdio: 'ignore' });
  } catch (err) {
    if ((err as { status?: number }).status !== 1) throw err;
  }
  const page = await browser.newPage({ viewport: { width: 1000, height: 760 } });
  await page.goto(`file://${html}`);
  await page.screenshot({ path: join(OUT, `${e.name}.png`) });
  console.log(`${html} and its screenshot`);
}
await browser.close();

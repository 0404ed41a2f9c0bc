/**
 * `rely verify --report`'s pages opened in a real browser: headless Chromium (Debian's
 * `chromium`, driven by playwright-core). No console error; the swimlanes have a column
 * per thread and a row per step; clicking a step brings its source line into view.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { configs, loadManifest, type RunResult } from '../../benchmarks/bench.js';
import { benchIndex, threaderSvg } from '../../benchmarks/bench-html.js';
import { rely } from '../helpers.js';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(existsSync);
if (!CHROMIUM) console.log('browser.test: no chromium (apt-get install chromium): the reports are not opened in a browser');

const dir = mkdtempSync(join(tmpdir(), 'rely-report-'));

describe.skipIf(!CHROMIUM)('HTML reports in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  afterAll(async () => browser?.close());

  /** The page of a report, with the console errors it logged. */
  async function open(file: string): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`file://${file}`);
    return { page, errors };
  }

  it('UNSAFE: swimlanes with a column per thread and a row per step; a step links to its line', async () => {
    const out = join(dir, 'unsafe.html');
    const r = await rely(['verify', 'benchmarks/programs/peterson-broken.c', '--engine', 'explicit-global', '--json', '--report', out]);
    expect(r.code, r.err).toBe(1);
    const trace = JSON.parse(r.out).counterexample as { thread: string; line: number }[];
    const { page, errors } = await open(out);
    expect(errors).toEqual([]);
    expect(await page.textContent('#verdict')).toBe('UNSAFE');
    const threads = await page.$$eval('#trace thead th', (ths) => ths.map((t) => t.textContent));
    expect(threads).toEqual(['step', 'main', 'thr1', 'thr2']);
    expect(await page.$$eval('#trace tbody tr', (trs) => trs.length)).toBe(trace.length);
    // Each row's acting cell is in its thread's column.
    const acting = await page.$$eval('#trace tbody tr', (trs) => trs.map((tr) => [...tr.children].findIndex((td) => td.classList.contains('acts'))));
    expect(acting.map((k) => threads[k])).toEqual(trace.map((s) => s.thread));
    // Clicking the last step scrolls its line into view and marks it.
    const link = page.locator('#trace tbody tr:last-child td.acts a');
    const href = await link.getAttribute('href');
    expect(href).toBe(`#L${trace.at(-1)!.line}`);
    await link.click();
    const line = page.locator(href!);
    expect(await line.evaluate((el) => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight; })).toBe(true);
    expect(await line.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(255, 224, 102)');
  });

  it('a liveness counterexample: the lasso as swimlanes, its cycle marked', async () => {
    const out = join(dir, 'lasso.html');
    const r = await rely(['verify', 'benchmarks/programs/liveness/mux-sem-2.c', '--ltl', 'G (at(P#1, J1) -> F at(P#1, J2))', '--json', '--report', out]);
    expect(r.code, r.err).toBe(1);
    const lasso = JSON.parse(r.out).lasso as { stem: unknown[]; cycle: unknown[] };
    const { page, errors } = await open(out);
    expect(errors).toEqual([]);
    expect(await page.textContent('#verdict')).toBe('UNSAFE');
    expect(await page.$$eval('#trace tbody tr', (trs) => trs.length)).toBe(lasso.stem.length + lasso.cycle.length);
    expect(await page.$$eval('#trace tbody tr.cycle', (trs) => trs.length)).toBe(lasso.cycle.length);
  });

  it("Table 1's largest runs (Scull, Lamport, the readers-writer lock): the same verdict with --report, a page under 5 MB that opens without errors", async () => {
    for (const f of ['scull.c', 'lamport.c', 'rwlock.c']) {
      const file = join('benchmarks/programs', f);
      const plain = await rely(['verify', file]);
      const out = join(dir, f.replace('.c', '.html'));
      const with_ = await rely(['verify', file, '--report', out]);
      expect(with_.code).toBe(plain.code);
      const { errors } = await open(out);
      expect(errors).toEqual([]);
      expect(readFileSync(out).length).toBeLessThan(5_000_000);
    }
  });

  it("a bench index: the table and the plots, as one page", async () => {
    const out = join(dir, 'index.html');
    const cols = configs({ bias: ['modular'], engines: ['aret'], hornSolvers: ['spacer'] });
    const entry = loadManifest().find((e) => e.name === 'Fig2-fixed')!;
    const result: RunResult = { program: entry.name, config: cols[0].key, verdict: 'safe', reason: null, modular: true, timeMs: 300, wallMs: 500, iterations: 1, predicates: 2, states: null, guarantee: null, largestCheck: null, wrong: false, hornAnsweredBy: null, decidedBy: null };
    const svg = threaderSvg([entry], cols, [result])!;
    writeFileSync(out, benchIndex('rely bench', '| program | time |\n| --- | --- |\n| Fig2-fixed | 0.3 s |\n', [{ file: 'threader.svg', svg }]));
    const { page, errors } = await open(out);
    expect(errors).toEqual([]);
    expect(await page.$$eval('table tbody tr', (trs) => trs.length)).toBe(1);
    expect(await page.$$eval('figure svg circle title', (ts) => ts.map((t) => t.textContent))).toContain('with bias, Fig2-fixed: 0.3 s (Threader 0.8 s)');
  });

  it('SAFE and UNKNOWN: the proof, its invariant per location, its graphs drawn, or the reason; the source with the lines the program runs marked', async () => {
    const safe = join(dir, 'safe.html');
    expect((await rely(['verify', 'benchmarks/programs/peterson.c', '--engine', 'aret', '--report', safe])).code).toBe(0);
    const s = await open(safe);
    expect(s.errors).toEqual([]);
    expect(await s.page.textContent('#verdict')).toBe('SAFE');
    expect(await s.page.textContent('#output')).toMatch(/^SAFE\nproof: R_i and E_i/);
    // One row per location of the two workers (main's too): R_i at that pc, linked to its line.
    const rows = await s.page.$$eval('#invariants tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
    expect(rows.filter((r) => r[0] === 'thr1').length).toBeGreaterThan(3);
    expect(rows.every((r) => /^\d+$/.test(r[1]!) && r[3]!.length > 0)).toBe(true);
    // Each thread's control-flow graph, drawn as SVG in the page.
    expect(await s.page.$$eval('details.graph summary', (xs) => xs.map((x) => x.textContent))).toEqual(expect.arrayContaining([expect.stringMatching(/^cfg-thr1 \(\d+ nodes\)$/)]));
    // E_i per thread.
    expect(await s.page.$$eval('#environments tbody tr', (trs) => trs.map((tr) => tr.children[0].textContent))).toEqual(['main', 'thr1', 'thr2']);
    // Each refinement round with the predicates it added.
    const rounds = await s.page.$$eval('#rounds tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
    expect(rounds.length).toBeGreaterThan(0);
    expect(rounds[0][1]).toMatch(/^(modular|grouped|unbiased) clauses, (spacer|linear)$/);
    // A CFG per thread, an ARET per thread the proof's slice keeps (both workers), each drawn.
    // (A graph too large to lay out quickly is named in a p.capped instead.)
    const drawnNames = await s.page.$$eval('details.graph summary', (xs) => xs.map((x) => x.textContent!.split(' ')[0]));
    const names = [...drawnNames, ...(await s.page.$$eval('p.capped', (xs) => xs.map((x) => x.textContent!.split(':')[0])))];
    expect(names.filter((n) => n.startsWith('cfg-'))).toHaveLength(3);
    expect(names.filter((n) => n.startsWith('aret-'))).toEqual(expect.arrayContaining(['aret-thr1', 'aret-thr2']));
    // Each refinement's Horn clauses, as their tree.
    expect(names.filter((n) => n.startsWith('horn-round-'))).toHaveLength(rounds.length);
    expect(await s.page.$$eval('details.graph svg', (xs) => xs.length)).toBe(drawnNames.length);
    expect(drawnNames.length).toBeGreaterThan(3);
    expect(await s.page.$$eval('#source span.touched', (xs) => xs.length)).toBeGreaterThan(5);
    expect(await s.page.$('#trace')).toBeNull();
    const unknown = join(dir, 'unknown.html');
    expect((await rely(['verify', 'benchmarks/programs/peterson.c', '--engine', 'explicit-global', '--max-states', '10', '--report', unknown])).code).toBe(3);
    const u = await open(unknown);
    expect(u.errors).toEqual([]);
    expect(await u.page.textContent('#verdict')).toBe('UNKNOWN');
  });
});

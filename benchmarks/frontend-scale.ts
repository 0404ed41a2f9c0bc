/**
 * Frontend scale benchmark (a script, not a test): generated C inputs of
 * several shapes at 1k, 10k and 100k lines, each read by the frontend (preprocess,
 * parse, lower: loadProgram) in a fresh process, on a worker thread with cli/rely.js's
 * 512 MB stack. Prints a Markdown table: time, time per 1,000 lines, peak memory, and
 * how the time per 1,000 lines at the largest size compares with the smallest (1.0 is
 * linear).
 *
 *   npm run bench:frontend-scale [-- --sizes 1000,10000 --shapes else-if --timeout 600 --frontend <dist/frontend/index.js>]
 *
 * `--frontend` measures another build (an older checkout's dist) with the same inputs;
 * `--timeout` (seconds, default 600) stops a case that takes longer; `--shapes` runs
 * the shapes whose names contain one of the given words.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, isMainThread, workerData, parentPort } from 'node:worker_threads';

const STACK_MB = 512; // as cli/rely.js
const HEAD = '#include <pthread.h>\nint x = 0;\n';
const THREAD = (body: string): string =>
  `${HEAD}void *t(void *a) {\n${body}\n  return 0;\n}\nint main() { pthread_t h; pthread_create(&h, 0, t, 0); return 0; }\n`;
const lines = (n: number, line: (i: number) => string): string => Array.from({ length: n }, (_, i) => line(i)).join('\n');

/** The shapes, each a generator of about n lines. */
const SHAPES: Record<string, (n: number) => string> = {
  /** One thread whose body is n assignments. */
  'straight-line thread': (n) => THREAD(lines(n, (i) => (i % 2 ? '  x = x + 1;' : '  x = 0;'))),
  /** n/2 one-line functions, each called once from the thread. */
  'many functions': (n) =>
    `${HEAD}${lines(n / 2, (i) => `void f${i}(void) { x = x + ${i % 7}; }`)}\n` +
    THREAD(lines(n / 2, (i) => `  f${i}();`)),
  /** `if (x == 0) { … } else if (x == 1) { … } …`: n arms, nested n deep in the syntax tree. */
  'else-if chain': (n) => THREAD(lines(n, (i) => `  ${i ? 'else ' : ''}if (x == ${i}) { x = ${i + 1}; }`)),
  /** One statement: a sum of n terms, one per line. */
  'long expression': (n) => THREAD(`  x = 0\n${lines(n, (i) => `    + ${i % 10}`)};`),
  /** A header's worth of declarations: typedefs of structs and extern prototypes using them. */
  'typedefs and prototypes': (n) =>
    `${lines(n, (i) =>
      i % 2 === 0
        ? `typedef struct __s${i} { int a; long b[2]; } __t${i};`
        : `extern int __f${i} (const char *__restrict __s, __t${i - 1} *__p) __attribute__ ((__nothrow__ , __leaf__));`,
    )}\n${THREAD('  x = 1;')}`,
};

interface Measured {
  wallMs: number;
  cpuMs: number;
  maxRssMb: number;
}

/** Child process: loads the program in a worker with a large stack; prints the measurement as JSON. */
async function child(file: string, frontend: string): Promise<void> {
  const w = new Worker(new URL(import.meta.url), { workerData: { file, frontend }, resourceLimits: { stackSizeMb: STACK_MB } });
  const r = await new Promise<{ wallMs: number; cpuMs: number } | { error: string }>((resolve, reject) => {
    w.on('message', resolve);
    w.on('error', reject);
  });
  if ('error' in r) {
    process.stderr.write(`${r.error}\n`);
    process.exit(2);
  }
  process.stdout.write(JSON.stringify({ ...r, maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024) } satisfies Measured));
}

async function inWorker(): Promise<void> {
  const { file, frontend } = workerData as { file: string; frontend: string };
  const { loadProgram } = (await import(pathToFileURL(frontend).href)) as typeof import('../frontend/index.js');
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  try {
    loadProgram(file);
  } catch (e) {
    parentPort!.postMessage({ error: (e as Error).message.split('\n')[0] });
    return;
  }
  const c = process.cpuUsage(c0);
  parentPort!.postMessage({ wallMs: performance.now() - t0, cpuMs: (c.user + c.system) / 1000 });
}

/** One shape at one size, in a fresh process: its measurement, or what stopped it. */
function measure(file: string, frontend: string, timeoutS: number): Measured | string {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', file, frontend], { encoding: 'utf8', timeout: timeoutS * 1000 });
  if (r.error || r.signal) return `stopped after ${timeoutS} s`;
  if (r.status !== 0) return (r.stderr.trim().split('\n')[0] || `exit ${r.status}`).replace(file, '<input>');
  return JSON.parse(r.stdout) as Measured;
}

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

async function main(args: string[]): Promise<void> {
  if (args[0] === '--child') return child(args[1], args[2]);
  const sizes = (option(args, '--sizes') ?? '1000,10000,100000').split(',').map(Number);
  const timeoutS = Number(option(args, '--timeout') ?? 600);
  const frontend = option(args, '--frontend') ?? fileURLToPath(new URL('../frontend/index.js', import.meta.url));
  const dir = mkdtempSync(join(tmpdir(), 'rely-scale-'));
  const fmt = (ms: number): string => (ms >= 10_000 ? `${(ms / 1000).toFixed(0)} s` : `${(ms / 1000).toFixed(2)} s`);
  console.log(`Frontend scale: ${cpus().length} cores, Node ${process.version}, frontend ${frontend}\n`);
  console.log('| shape | lines | time (wall) | CPU time | CPU ms per 1,000 lines | peak RSS | per-1,000-line CPU vs smallest |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  const only = option(args, '--shapes')?.split(',');
  for (const [shape, gen] of Object.entries(SHAPES)) {
    if (only && !only.some((w) => shape.includes(w))) continue;
    let first: number | undefined;
    for (const n of sizes) {
      const file = join(dir, `${shape.replace(/\W+/g, '-')}-${n}.c`);
      writeFileSync(file, gen(n));
      const count = readFileSync(file, 'utf8').split('\n').length - 1;
      const m = measure(file, frontend, timeoutS);
      if (typeof m === 'string') {
        console.log(`| ${shape} | ${count} | ${m} | | | | |`);
        continue;
      }
      const per = (m.cpuMs * 1000) / count;
      first ??= per;
      console.log(`| ${shape} | ${count} | ${fmt(m.wallMs)} | ${fmt(m.cpuMs)} | ${per.toFixed(0)} | ${m.maxRssMb} MB | ${(per / first).toFixed(2)} |`);
    }
  }
}

if (isMainThread) await main(process.argv.slice(2));
else await inWorker();

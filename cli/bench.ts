/** `rely bench`: the manifest's programs under every configuration, each a fresh `rely verify` process. */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, sep } from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { parse as parseYaml } from 'yaml';
import { InputError } from '../program/diagnostics.js';
import { parseCount, parseSeed, parseSolver } from '../core/options.js';
import type { SolverChoice } from '../solver/select.js';
import { ENGINES, LIVENESS_ENGINES } from '../engines/registry.js';
import { livenessManifest, livenessSeries, loadLiveness } from '../benchmarks/liveness-bench.js';
import { agManifest, agSeries, loadAg } from '../benchmarks/ag-bench.js';
import { agStudy } from '../benchmarks/ag-report.js';
import { benchIndex, threaderSvg } from '../benchmarks/bench-html.js';
import { configs, loadManifest, machine, runBench, suiteOf, type Expected, type ManifestEntry, type RunResult, type Suite } from '../benchmarks/bench.js';
import { csv, folderTable, markdownTable } from '../benchmarks/bench-report.js';
import { scalingReport } from '../benchmarks/scaling-report.js';
import { differentialSuite } from '../benchmarks/differential-suite.js';
import { ALL_CONFIGS } from '../benchmarks/differential-check.js';
import { fuzzSuite } from '../benchmarks/fuzz.js';
import { EXIT, cliParser, parseSeconds, statusLine, type Session } from './common.js';
import { readTask } from './svcomp.js';

interface BenchCli {
  suite: Suite | 'differential' | 'fuzz';
  count?: number;
  seed?: number;
  from?: number;
  data?: boolean;
  sync?: boolean;
  bias: 'modular' | 'none' | 'both';
  engine: string[];
  hornSolver: string[];
  solver: SolverChoice;
  timeout: number;
  jobs: number;
  out: string;
  tasks?: string;
}

/** The expected verdict of a task definition's unreach-call property (true: SAFE), if it has one. */
function expectedVerdict(yml: string): Expected | undefined {
  const d = parseYaml(readFileSync(yml, 'utf8')) as { properties?: { property_file?: unknown; expected_verdict?: unknown }[] } | null;
  const p = (d?.properties ?? []).find((x) => typeof x?.property_file === 'string' && basename(x.property_file) === 'unreach-call.prp');
  return typeof p?.expected_verdict === 'boolean' ? (p.expected_verdict ? 'safe' : 'unsafe') : undefined;
}

/**
 * The SV-COMP task definitions (.yml) under dir, in every folder below it, as manifest
 * entries named by their path below dir (sorted); read as `rely svcomp` reads them.
 * A task that is not run (no unreach-call property or expected verdict, no input file,
 * not a task definition) is listed with why.
 */
export function taskManifest(dir: string): { entries: ManifestEntry[]; skipped: { name: string; why: string }[] } {
  const ymls = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => /\.ya?ml$/.test(f)).sort();
  const entries: ManifestEntry[] = [];
  const skipped: { name: string; why: string }[] = [];
  for (const f of ymls) {
    const yml = join(dir, f);
    const name = f.replace(/\.ya?ml$/, '').split(sep).join('/');
    let task;
    try {
      task = readTask(yml);
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      skipped.push({ name, why: e.message });
      continue;
    }
    const expected = expectedVerdict(yml);
    const why = task.unsupported ?? (expected ? (existsSync(task.file) ? undefined : `input file ${task.file} not found`) : 'no expected verdict for unreach-call');
    if (why || !expected) {
      skipped.push({ name, why: why ?? '' });
      continue;
    }
    const loc = readFileSync(task.file, 'utf8').split('\n').length;
    entries.push({ file: task.file, name, suite: 'svcomp-tasks', expected, args: task.dataModel ? ['--data-model', task.dataModel] : [], modularProofExists: null, loc, note: '' });
  }
  return { entries, skipped };
}

function parseList(allowed: readonly string[]): (v: string) => string[] {
  return (v) => {
    const xs = v.split(',').map((x) => x.trim()).filter(Boolean);
    const bad = xs.find((x) => !allowed.includes(x));
    if (bad !== undefined || xs.length === 0) throw new InvalidArgumentError(`expected a comma-separated list of ${allowed.join(', ')}`);
    return xs;
  };
}

/** `[k/n] program config: verdict time`. */
const progressText = (r: RunResult, done: number, total: number): string => `[${done}/${total}] ${r.program} ${r.config}: ${r.verdict} ${(r.timeMs / 1000).toFixed(1)} s`;

export function benchCommand(program: Command, session: Session): void {
  const { io } = session;
  const engines = [...new Set([...ENGINES, ...LIVENESS_ENGINES].map((e) => e.name))];
  program
    .command('bench')
    .description("run the benchmark programs of benchmarks/expected.json, each in a fresh `rely verify` process, and check every verdict against the manifest")
    .addOption(new Option('--suite <suite>', "table1: the paper's Table 1; scaling: Simple(n); extra: the §2 examples and mutants; hard: programs beyond Table 1 (benchmarks/programs/hard); svcomp-style: SV-COMP's concurrency shapes with task files, scored as SV-COMP scores (benchmarks/programs/svcomp-style); c-data: C data as programs use it (unions, structs, arrays of structs, function pointers, the heap, atomic sections; benchmarks/programs/c-data), a program rely cannot read counted UNKNOWN as SV-COMP counts it, with a per-folder table; pthreads: the library calls of threaded C (condition variables, rwlocks, barriers, spinlocks, trylock, semaphores, pthread_once, GCC and C11 atomics, thread-local storage, thread results; benchmarks/programs/pthreads), counted as c-data is; liveness: LTL properties of benchmarks/liveness.json (MUX-SEM by N, protocols) with the liveness engines (default: split and explicit-global side by side); ag: Cobleigh's assume-guarantee subjects of benchmarks/ag.json by n (default engines: learn with its split and generalized, explicit-global, explicit-modular, aret; results.md gets the memory study and ag-memory.svg); ci: the fast ones; differential: --count generated programs of --seed, each decided by exhaustive exploration and by every engine (contradictions fail the command); fuzz: --count generated and mutated inputs of --seed through `rely verify` (an internal error, a stack trace, a crash or a hang fails the command)").choices(['table1', 'scaling', 'extra', 'hard', 'svcomp-style', 'c-data', 'pthreads', 'liveness', 'ag', 'ci', 'all', 'differential', 'fuzz']).default('table1'))
    .addOption(new Option('--tasks <DIR>', "instead of a suite, SV-COMP's task definitions (.yml) in DIR and every folder below it: each task whose property is unreach-call, run with its data model and scored as SV-COMP scores (a program rely cannot read is UNKNOWN); results.md adds a table per folder (tasks, read, right, wrong, UNKNOWN with its reasons grouped) and lists the tasks not run").conflicts('suite'))
    .option('--count <N>', 'differential and fuzz: how many programs or inputs (differential: default 100; fuzz: default 1000)', cliParser(parseCount))
    .option('--seed <S>', 'differential and fuzz: the seed (default 1; program or case i is a function of the seed and i alone)', cliParser(parseSeed))
    .option('--data', 'differential: generated programs with C data too (structs, nested ones, an array of structs, a union, array cells indexed at run time, out of bounds included, pointers to cells and to structs; another set of programs than without it)')
    .option('--sync', 'differential: generated programs with the synchronisation library and atomics too (pthread_cond_wait in while loops and sometimes an if, signal and broadcast, rwlocks with tryrdlock, a barrier, a semaphore with trywait, pthread_mutex_trylock, a spinlock, counters under __sync_fetch_and_add, __sync_bool_compare_and_swap, atomic_fetch_add, atomic_compare_exchange_strong, atomic_load/atomic_store and ++ on an _Atomic int; another set of programs than without it)')
    .option('--from <K>', 'differential and fuzz: start at program or case K of the seed (to reproduce one: --from K --count 1)', cliParser(parseSeed))
    .addOption(new Option('--bias <bias>', 'bias settings of the ARET engine (both: one column each)').choices(['modular', 'none', 'both']).default('both'))
    .option('--engine <list>', `comma-separated engines, one column each (aret: one per bias and Horn solver); the first column's speed-ups are shown; with --suite differential also a configuration (${ALL_CONFIGS.filter((k) => k.key !== k.engine).map((k) => k.key).join(', ')}), and every configuration by default: ${ENGINES.map((e) => `${e.name}: ${e.description}`).join('; ')}`, parseList([...new Set([...engines, ...ALL_CONFIGS.map((k) => k.key)])]), ['auto', 'aret', 'monolithic'])
    .option('--horn-solver <list>', 'comma-separated Horn solvers for the ARET engine (spacer, linear, auto); the first serves every bias, each further one adds a column', parseList(['spacer', 'linear', 'auto']), ['spacer'])
    .option('--solver <auto|wasm|native>', 'SMT back end of every run', cliParser(parseSolver), 'auto')
    .option('--timeout <S>', 'time limit per run in seconds (differential: default 5 per configuration; fuzz: default 2, and a case still running after 20 s more of CPU time is a hang)', parseSeconds, 60)
    .option('--jobs <N>', 'runs at a time (1 keeps timings comparable)', cliParser(parseCount), 1)
    .option('--out <DIR>', 'where results.json, results.csv, results.md, the plots (.svg) and index.html (all of it as one page) go', 'bench-results')
    .addHelpText('after', '\nPrints the Markdown table (laid out like Table 1) on stdout. With Simple(n) programs in the run, results.md also gets a Scaling section (states and time per n, fitted growth) and scaling.svg plots states and time against n. Exit codes: 0 every verdict agrees with the manifest (UNKNOWN allowed), 1 a wrong verdict or a run that failed, 2 usage.')
    .action(async (o: BenchCli, c: Command) => {
      for (const flag of ['data', 'sync'] as const) if (o[flag] && o.suite !== 'differential') c.error(`error: --${flag} is an option of --suite differential`, { exitCode: EXIT.badInput });
      if (o.suite === 'differential' || o.suite === 'fuzz') {
        const run = o.suite === 'differential' ? differentialSuite : fuzzSuite;
        const engineList = c.getOptionValueSource('engine') === 'default' ? undefined : o.engine;
        session.code = await run({ count: o.count, seed: o.seed, from: o.from, engines: engineList, timeoutS: c.getOptionValueSource('timeout') === 'default' ? undefined : o.timeout, jobs: o.jobs, solver: o.solver, data: o.data === true, sync: o.sync === true, out: o.out }, io);
        return;
      }
      const notEngine = o.engine.find((e) => !engines.includes(e));
      if (notEngine) c.error(`error: --engine ${notEngine} is a configuration of --suite differential; name engines here (${engines.join(', ')})`, { exitCode: EXIT.badInput });
      const liveness = o.suite === 'liveness' ? loadLiveness() : [];
      const ag = o.suite === 'ag' ? loadAg() : [];
      const tasks = o.tasks === undefined ? undefined : taskManifest(o.tasks);
      const entries = tasks ? tasks.entries : o.suite === 'liveness' ? livenessManifest(liveness) : o.suite === 'ag' ? agManifest(ag) : suiteOf(loadManifest(), o.suite);
      const defaultEngines = o.suite === 'liveness' ? LIVENESS_ENGINES.map((e) => e.name) : o.suite === 'ag' ? ['learn', 'explicit-global', 'explicit-modular', 'aret'] : undefined;
      const engineList = defaultEngines && c.getOptionValueSource('engine') === 'default' ? defaultEngines : o.engine;
      const cols = configs({ bias: o.bias === 'both' ? ['modular', 'none'] : [o.bias], engines: engineList, hornSolvers: o.hornSolver });
      const m = machine(o.solver);
      const progress = io.errIsTty ? statusLine(io) : undefined;
      const results = await runBench({ entries, configs: cols, timeoutS: o.timeout, jobs: o.jobs, solver: o.solver, onResult: progress && ((r, done, total) => progress.show(progressText(r, done, total))) });
      progress?.clear();
      // Simple(n)'s scaling, or the liveness suite's: one section and plot per MUX-SEM family and property.
      const series = o.suite === 'liveness' ? livenessSeries(liveness) : o.suite === 'ag' ? agSeries(ag) : [{ title: '', key: 'scaling', nOf: undefined }];
      const plots = series.flatMap(({ title, key, nOf }) => {
        const r = scalingReport(cols, results, nOf && ((name) => nOf.get(name) ?? null));
        const named = (t: string): string => (title ? t.replaceAll('Simple(n)', title).replaceAll('scaling.svg', `${key}.svg`) : t);
        return r ? [{ file: `${key}.svg`, markdown: named(r.markdown), svg: named(r.svg) }] : [];
      });
      const study = o.suite === 'ag' ? agStudy(ag, cols, results, o.timeout) : null;
      if (study) plots.push({ file: 'ag-memory.svg', markdown: study.markdown, svg: study.svg });
      const vsThreader = threaderSvg(entries, cols, results);
      if (vsThreader) plots.push({ file: 'threader.svg', markdown: '\n`threader.svg` plots each configuration\'s time per program against Threader\'s (with bias), where both gave the same verdict.\n', svg: vsThreader });
      // Suites that measure what rely reads: a table per folder, and the tasks not run.
      const perFolder = tasks || o.suite === 'c-data' || o.suite === 'pthreads' ? folderTable(entries, cols, results) : '';
      const notRun = tasks?.skipped.length ? `\nTasks not run (${tasks.skipped.length}): ${tasks.skipped.map((x) => `${x.name} (${x.why})`).join('; ')}.\n` : '';
      const table = markdownTable(entries, cols, results, m, o.timeout) + perFolder + notRun + plots.map((x) => x.markdown).join('');
      mkdirSync(o.out, { recursive: true });
      for (const x of plots) writeFileSync(join(o.out, x.file), x.svg);
      writeFileSync(join(o.out, 'results.json'), JSON.stringify({ machine: m, suite: o.tasks === undefined ? o.suite : `tasks ${o.tasks}`, timeoutS: o.timeout, configs: cols, results }, null, 2) + '\n');
      writeFileSync(join(o.out, 'results.csv'), csv(entries, results));
      writeFileSync(join(o.out, 'results.md'), table);
      writeFileSync(join(o.out, 'index.html'), benchIndex(o.tasks === undefined ? `rely bench --suite ${o.suite}` : `rely bench --tasks ${o.tasks}`, table, plots));
      io.out(table);
      session.code = results.some((r) => r.wrong || r.verdict === 'error') ? EXIT.errorFound : EXIT.ok;
    });
}

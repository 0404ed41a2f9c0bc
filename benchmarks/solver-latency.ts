/**
 * Solver latency benchmark (a script, not a test): the same 1,000 small entailment
 * queries and one Spacer problem through both back ends, side by side in one run.
 *
 *   npm run bench:solver-latency
 */
import { cpus } from 'node:os';
import { add, and, eq, ge, le, mkVar, mul, not, num, type Term } from '../solver/formula.js';
import type { HornSystem } from '../solver/horn.js';
import { SmtSolver } from '../solver/smt.js';
import { NativeBackend, findZ3 } from '../solver/z3-native.js';
import { WasmBackend } from '../solver/z3-wasm.js';
import { mulberry32 } from './prng.js';

const QUERIES = 1000;

/** Premise: bounds and one relation over x, y, z; conclusion: a random linear atom. */
function entailments(): [Term, Term][] {
  const r = mulberry32(42); // the same queries every run, for both back ends
  const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  const vs = ['x', 'y', 'z'].map((n) => mkVar(n));
  const lin = (): Term => add(...vs.map((v) => mul(num(int(-3, 3)), v)), num(int(-5, 5)));
  const out: [Term, Term][] = [];
  const seen = new Set<number>();
  while (out.length < QUERIES) {
    const premise = and(...vs.map((v) => and(ge(v, num(int(-5, 0))), le(v, num(int(0, 5))))), eq(vs[0], add(vs[1], num(int(-2, 2)))));
    const conclusion = ge(lin(), num(int(-10, 10)));
    const key = and(premise, not(conclusion)).id;
    if (seen.has(key)) continue; // distinct queries: no cache hits
    seen.add(key);
    out.push([premise, conclusion]);
  }
  return out;
}

/** A recursive CHC: two counters stepped together stay equal (Spacer finds x = y). */
function spacerProblem(): HornSystem {
  const [x, y, x1, y1] = ['x', 'y', "x'", "y'"].map((n) => mkVar(n));
  return {
    relations: [{ name: 'Inv', params: ['x', 'y'] }],
    clauses: [
      { body: [], constraint: and(eq(x, num(0)), eq(y, num(0))), head: { rel: 'Inv', args: [x, y] } },
      {
        body: [{ rel: 'Inv', args: [x, y] }],
        constraint: and(le(x, num(1000)), eq(x1, add(x, num(1))), eq(y1, add(y, num(1)))),
        head: { rel: 'Inv', args: [x1, y1] },
      },
      { body: [{ rel: 'Inv', args: [x, y] }], constraint: not(eq(x, y)) },
    ],
  };
}

interface Row {
  backend: string;
  medianMs: number;
  totalMs: number;
  spacerMs: number;
  spacer: string;
}

async function measure(name: string, solver: SmtSolver, queries: [Term, Term][]): Promise<Row> {
  await solver.entails(ge(mkVar('w'), num(0)), ge(mkVar('w'), num(-1))); // warm up (WASM init, process start)
  const times: number[] = [];
  const t0 = performance.now();
  for (const [p, c] of queries) {
    const q0 = performance.now();
    const r = await solver.entails(p, c);
    if (r === 'unknown') throw new Error(`${name}: unknown on a trivial query`);
    times.push(performance.now() - q0);
  }
  const totalMs = performance.now() - t0;
  times.sort((a, b) => a - b);
  const h0 = performance.now();
  const h = await solver.horn(spacerProblem());
  const spacerMs = performance.now() - h0;
  await solver.close();
  return { backend: name, medianMs: times[times.length >> 1], totalMs, spacerMs, spacer: h.status };
}

async function main(): Promise<void> {
  const queries = entailments();
  const rows: Row[] = [];
  rows.push(await measure('wasm (z3-solver)', new SmtSolver(new WasmBackend()), queries));
  const z3 = findZ3();
  if (z3) rows.push(await measure(`native (${z3})`, new SmtSolver(new NativeBackend(z3)), queries));
  else console.log('native z3 not found: only the WASM back end was measured');
  const f = (n: number) => n.toFixed(3);
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}, ${new Date().toISOString().slice(0, 10)}`);
  console.log(`${QUERIES} entailment queries (3 variables, distinct, uncached) and one Spacer problem per back end\n`);
  console.log('| back end | median per query (ms) | total (ms) | Spacer (ms) | Spacer answer |');
  console.log('|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.backend} | ${f(r.medianMs)} | ${r.totalMs.toFixed(0)} | ${r.spacerMs.toFixed(0)} | ${r.spacer} |`);
  if (rows.length === 2) {
    const [w, n] = rows;
    console.log(`\nratio wasm/native: median ${(w.medianMs / n.medianMs).toFixed(1)}×, total ${(w.totalMs / n.totalMs).toFixed(1)}×, Spacer ${(w.spacerMs / n.spacerMs).toFixed(1)}×`);
  }
}

await main();

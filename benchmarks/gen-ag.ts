/**
 * Writes the subject systems of Cobleigh's thesis (J. M. Cobleigh, "Automating and
 * evaluating assume-guarantee reasoning", PhD thesis, UMass Amherst, 2007, Appendix A;
 * scaled as in its Chapter 5) as C in the SV-COMP concurrency dialect, for the
 * assume-guarantee benchmarks (benchmarks/ag.json, benchmarks/programs/ag/):
 *
 *   node dist/benchmarks/gen-ag.js FAMILY N [--bug] > FILE.c   one program to stdout
 *   node dist/benchmarks/gen-ag.js --write [ROOT]              every program and ag.json
 *
 * FAMILY is peterson, relay, smokers, gas-station, chiron-single or chiron-multiple;
 * N is the number of the task the thesis scales (threads competing for the critical
 * section, relay tasks, assemblers, customers, artists). With --bug, the family's
 * mutant, whose assertion fails. --write puts the files under ROOT (default: the
 * current directory, which should be the repository root).
 *
 * The thesis's systems are Ada programs whose tasks meet in rendezvous. Here a
 * rendezvous is an atomic section that waits (__VERIFIER_assume) until the acceptor can
 * take the call and does the accept body's work on shared state, or a critical section
 * of a mutex where the thesis's task only guards data (Relay's variable, the Smokers'
 * table). Every program is finite-state: ids and values stay below N, loops that spin
 * only re-read shared state, and every nondeterministic value is bounded in the same
 * step that draws it.
 *
 * Written for rely's explicit-state engines, which must enumerate every state: locals
 * are reset once they are dead, ghost code is atomic and shares a step with the real
 * step it records where it can, main waits at a join for good (a main that ended would
 * double the states), and indices are constants where the frontend would otherwise
 * split an access a[i] into one transition per cell (one copy of the code per pump or
 * event; for Peterson's threads and Chiron's artists, one function per instance).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FAMILIES, type Family } from './ag/families.js';
import { generate, suite } from './ag/suite.js';

function usage(): never {
  process.stderr.write(`usage: gen-ag FAMILY N [--bug]   (FAMILY: ${FAMILIES.join(', ')}; N >= 2)\n       gen-ag --write [ROOT]\n`);
  process.exit(2);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args[0] === '--write') {
    if (args.length > 2) usage();
    const root = args[1] ?? '.';
    const dir = join(root, 'benchmarks/programs/ag');
    mkdirSync(dir, { recursive: true });
    const all = suite();
    for (const { entry, source } of all) writeFileSync(join(root, entry.file), source);
    writeFileSync(join(root, 'benchmarks/ag.json'), JSON.stringify(all.map((p) => p.entry), null, 2) + '\n');
    process.stdout.write(`wrote ${all.length} programs to ${dir} and ${join(root, 'benchmarks/ag.json')}\n`);
  } else {
    const bug = args.includes('--bug');
    const rest = args.filter((a) => a !== '--bug');
    if (rest.length !== 2 || !(FAMILIES as readonly string[]).includes(rest[0]) || !/^\d+$/.test(rest[1]) || Number(rest[1]) < 2) usage();
    process.stdout.write(generate(rest[0] as Family, Number(rest[1]), bug));
  }
}

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

export type Verdict = 'safe' | 'unsafe';

export const FAMILIES = ['peterson', 'relay', 'smokers', 'gas-station', 'chiron-single', 'chiron-multiple'] as const;
export type Family = (typeof FAMILIES)[number];

/** The sizes written by --write: 2..4, and 5 where explicit-global still answers within 60 s — or where it does not but learn does (chiron-multiple: the study's case). */
export const SIZES: Record<Family, readonly number[]> = {
  peterson: [2, 3, 4],
  relay: [2, 3, 4, 5],
  smokers: [2, 3, 4, 5],
  'gas-station': [2, 3, 4, 5],
  'chiron-single': [2, 3, 4, 5],
  'chiron-multiple': [2, 3, 4, 5],
};
/** The sizes of the mutants written by --write. */
export const BUG_SIZES: readonly number[] = [2, 3];

/** Per family, for the manifest: the name, the property checked and what the mutant changes. */
const INFO: Record<Family, { name: string; property: string; mutant: string }> = {
  peterson: {
    name: 'Peterson',
    property: 'A.3 property 1: mutual exclusion (a ghost count of the threads in the critical section is 1 inside)',
    mutant: 'The wait loop skips thread N-1, so thread 0 enters while thread N-1 is inside.',
  },
  relay: {
    name: 'Relay',
    property: 'A.4 property 1: v is set to 1 in between sets to 0 (ghost: the last set to 0 or 1 was to 0)',
    mutant: 'Task 0 passes v to task 2 % N instead of 1, so v is set to 0 twice without a set to 1 between.',
  },
  smokers: {
    name: 'Smokers',
    property: 'A.5 properties 3 (one assembler making an item at a time) and 5 (never all pieces on the table), also 1 and 7',
    mutant: 'An assembler tells the supplier it is done when it picks the pieces up, so a second assembler starts while the first is making: property 3 fails.',
  },
  'gas-station': {
    name: 'GasStation',
    property: 'A.2 properties 1 (no two customers use a pump at once) and 4 (a customer gets the change of the pump it prepaid for)',
    mutant: 'The operator accepts a prepayment for pump 0 while it is in use, so two customers pump at it: property 1 fails.',
  },
  'chiron-single': {
    name: 'ChironSingle',
    property: 'A.1 properties 1 (no registration twice), 3 (no notification of an event before it is received), 6 (notifications only to registered artists)',
    mutant: 'The dispatcher returns to its select before passing an event on, so an artist unregisters and then accepts the notification: property 6 fails.',
  },
  'chiron-multiple': {
    name: 'ChironMultiple',
    property: 'A.1 properties 1 (no registration twice), 3 (no notification of an event before it is received), 6 (notifications only to registered artists)',
    mutant: 'A dispatcher returns to its select before passing its event on, so an artist unregisters and then accepts the notification: property 6 fails.',
  },
};

export function fileName(family: Family, n: number, bug: boolean): string {
  return `${family}${bug ? '-bug' : ''}-${n}.c`;
}

// ---------------------------------------------------------------------------
// Shared pieces: the header comment, the SV-COMP preamble, main, atomic sections.

interface Doc {
  family: Family;
  n: number;
  bug: boolean;
  /** One line: what the program is. */
  title: string;
  /** The system, its source in the thesis and before, and how it is scaled. */
  system: string[];
  threads: string[];
  properties: string[];
  /** For the mutant: what was changed and an interleaving that breaks the property. */
  mutation: string[];
}

/** The start of a header's System paragraph: the system and where the thesis describes it. */
const thesis = (system: string, appendix: string): string =>
  `System: ${system}, Appendix ${appendix} of J. M. Cobleigh, "Automating and evaluating assume-guarantee reasoning", PhD thesis, UMass Amherst, 2007`;

/** Width of the header comment's text (after " * "). */
const WIDTH = 76;

/**
 * A section's lines re-wrapped to WIDTH: a line that starts at column 0 or with a list
 * number ("  3. ") starts a paragraph, other lines continue it; continuation lines are
 * indented two columns past the paragraph's start (past the number for a list item).
 * Two spaces after a sentence's full stop are kept.
 */
function wrap(lines: readonly string[]): string[] {
  const paras: { indent: string; hang: string; text: string }[] = [];
  for (const l of lines) {
    const item = /^(\s*)(\d+\. )/.exec(l);
    if (paras.length === 0 || !l.startsWith(' ') || item) {
      const indent = /^\s*/.exec(l)![0];
      paras.push({ indent, hang: item ? indent + ' '.repeat(item[2].length) : indent + '  ', text: l.trim() });
    } else {
      const last = paras[paras.length - 1];
      // A sentence ends with a full stop after a word of two or more letters (not an initial).
      last.text += (/[a-z0-9)"']\.$/.test(last.text) ? '  ' : ' ') + l.trim();
    }
  }
  return paras.flatMap(({ indent, hang, text }) => {
    const out: string[] = [];
    let line = indent;
    for (const token of text.match(/\S+ */g) ?? []) {
      const word = token.trimEnd();
      if (line.trim() && (line + word).length > WIDTH) {
        out.push(line.trimEnd());
        line = hang;
      }
      line += token;
    }
    out.push(line.trimEnd());
    return out;
  });
}

function header(d: Doc): string[] {
  const lines = [
    ...wrap([`${fileName(d.family, d.n, d.bug)} -- ${d.title}`]),
    `  Generated by benchmarks/gen-ag.ts: node dist/benchmarks/gen-ag.js ${d.family} ${d.n}${d.bug ? ' --bug' : ''}`,
    '',
    ...wrap(d.system),
    '',
    ...wrap(d.threads),
    '',
    ...wrap(d.properties),
    '',
    ...(d.bug ? [...wrap(d.mutation), ''] : []),
    `Expected verdict: ${d.bug ? 'UNSAFE' : 'SAFE'}`,
  ];
  return ['/*', ...lines.map((l) => (l ? ` * ${l}` : ' *')), ' */'];
}

/** The header, the SV-COMP preamble (reach_error, assert, the intrinsics) and the #defines. */
function prologue(d: Doc, defines: string[]): string[] {
  const head = header(d);
  return [
    ...head,
    'extern void abort(void);',
    'extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));',
    `void reach_error() { __assert_fail("0", "${fileName(d.family, d.n, d.bug)}", ${head.length + 3}, "reach_error"); }`,
    '#include <pthread.h>',
    '#undef assert',
    '#define assert(e) if (!(e)) reach_error()',
    'extern void __VERIFIER_atomic_begin(void);',
    'extern void __VERIFIER_atomic_end(void);',
    'extern void __VERIFIER_assume(int cond);',
    'extern int __VERIFIER_nondet_int(void);',
    '',
    ...defines,
    '',
  ];
}

/** `body` as one atomic section (a rendezvous, or ghost code), indented by `ind`. */
function atomic(ind: string, comment: string, body: string[]): string[] {
  return [`${ind}__VERIFIER_atomic_begin(); /* ${comment} */`, ...body.map((l) => ind + l), `${ind}__VERIFIER_atomic_end();`];
}

/** `v = a nondeterministic value in lo..hi` (bounded, so the program stays finite-state). */
function choose(ind: string, v: string, lo: string, hi: string): string[] {
  return [`${ind}${v} = __VERIFIER_nondet_int();`, `${ind}__VERIFIER_assume(${lo} <= ${v} && ${v} <= ${hi});`];
}

/**
 * `if (v < 1) { block(0) } else { block(1) }` for a v in 0..1 (a pump, an event; the
 * blocks' lines are indented two spaces, relative to the if): one copy of the block per
 * value, so that indices into arrays by v are constants. rely splits an access a[v] into
 * a case per cell (and one out of bounds), and the cases of consecutive accesses
 * multiply; with constant indices there is nothing to split. (v < 1 rather than v == 0:
 * rely makes the else branch of v == 0 two transitions, v < 0 and v > 0.)
 */
function twoWay(ind: string, v: string, block: (p: number) => string[]): string[] {
  return [`${ind}if (${v} < 1) { /* ${v} == 0 */`, ...block(0).map((l) => ind + l), `${ind}} else { /* ${v} == 1 */`, ...block(1).map((l) => ind + l), `${ind}}`];
}

/**
 * main: starts the threads (a function, and how many instances: each gets its index as the
 * thread argument) and joins them. They never end, so main waits at the join for good and
 * takes no step that would double the states (a main ending with pthread_exit would).
 */
function mainStarting(threads: { fn: string; count: string }[]): string[] {
  const name = (t: { fn: string }) => `t_${t.fn}`;
  const decl = threads.map((t) => (t.count === '1' ? name(t) : `${name(t)}[${t.count}]`));
  const lines = ['int main(void) {', `  pthread_t ${decl.join(', ')};`];
  if (threads.some((t) => t.count !== '1')) lines.push('  int i;');
  for (const t of threads)
    if (t.count === '1') lines.push(`  pthread_create(&${name(t)}, 0, ${t.fn}, 0);`);
    else lines.push(`  for (i = 0; i < ${t.count}; i++)`, `    pthread_create(&${name(t)}[i], 0, ${t.fn}, (void *)(long)i);`);
  for (const t of threads)
    if (t.count === '1') lines.push(`  pthread_join(${name(t)}, 0);`);
    else lines.push(`  for (i = 0; i < ${t.count}; i++)`, `    pthread_join(${name(t)}[i], 0);`);
  lines.push('  return 0; /* never reached: the threads run forever */', '}');
  return lines;
}

function checkN(family: Family, n: number): void {
  if (!Number.isInteger(n) || n < 2) throw new RangeError(`${family}: n must be an integer >= 2, not ${n}`);
}

const mutation = (bug: boolean, good: string, bad: string) => (bug ? bad : good);

// ---------------------------------------------------------------------------
// A.3 Peterson: the filter lock for N threads.

export function peterson(n: number, bug = false): string {
  checkN('peterson', n);
  const d: Doc = {
    family: 'peterson',
    n,
    bug,
    title: `Peterson's mutual exclusion protocol for N = ${n} threads (the filter lock)${bug ? ', a mutant' : ''}.`,
    system: [
      thesis('Peterson', 'A.3'),
      '  (Chapter 5 scales it by the number of tasks that compete for the',
      '  critical section).  Algorithm: G. L. Peterson, "Myths about the mutual',
      '  exclusion problem", IPL 12(3), 1981, its N-process version (the filter',
      '  lock): to enter, a thread climbs levels 1 .. N-1; at level L it sets',
      '  level[me] = L and victim[L-1] = me, then for each other thread k in turn',
      '  waits while level[k] >= L and victim[L-1] == me (it is the last to arrive',
      '  at L and k is at L or above).  At most N - L threads get past level L.',
      '  Leaving, it sets level[me] = 0.  Every read and write of level and',
      '  victim is its own step.  Written for this benchmark from the algorithm.',
    ],
    threads: [
      `Threads: main starts thr0 .. thr${n - 1}, one function per thread with its id a`,
      '  constant (the same code otherwise); each competes for the critical',
      '  section forever.',
    ],
    properties: [
      'Property (A.3 property 1, mutual exclusion): a ghost counter incs counts',
      '  the threads in the critical section (updated atomically on entry and',
      '  exit); inside, each thread asserts incs == 1.',
    ],
    mutation: [
      `Mutation: the wait loop never looks at thread N-1 = ${n - 1} (k < N - 1 instead of`,
      `  k < N): threads 0 .. ${n - 2} ignore it.  Thread ${n - 1} climbs all levels while`,
      '  the others are at level 0 and enters; thread 0 then climbs past every',
      '  level (nobody else is competing as far as it looks) and enters too:',
      '  incs == 2 at its assertion.',
    ],
  };
  // One function per thread, the id a constant: rely splits an access a[me] with me a
  // variable into a case per cell, which makes the program several times slower.
  const thread = (me: number) => [
    `void *thr${me}(void *arg) { /* thread ${me} */`,
    '  int L = 0, k = 0;',
    '  while (1) {',
    '    for (L = 1; L < N; L++) {',
    `      level[${me}] = L;`,
    `      victim[L - 1] = ${me};`,
    mutation(bug, '      for (k = 0; k < N; k++) /* wait for each other thread k */', '      for (k = 0; k < N - 1; k++) /* MUTATION: was k < N; thread N-1 is never waited for */'),
    `        if (k != ${me})`,
    `          while (level[k] >= L && victim[L - 1] == ${me}) {`,
    '          }',
    '    }',
    ...atomic('    ', 'enter the critical section (ghost)', ['  incs = incs + 1;', '  assert(incs == 1); /* mutual exclusion */']),
    '    /* critical section */',
    ...atomic('    ', 'leave it: the ghost and the exit protocol in one step', ['  incs = incs - 1;', `  level[${me}] = 0;`]),
    '  }',
    '  return 0;',
    '}',
    '',
  ];
  return [
    ...prologue(d, [`#define N ${n} /* threads */`]),
    'int level[N];      /* level[i]: the level thread i is at (0: not competing) */',
    'int victim[N - 1]; /* victim[L - 1]: the thread that arrived at level L last */',
    'int incs = 0;      /* ghost: threads in the critical section */',
    '',
    ...Array.from({ length: n }, (_, me) => thread(me)).flat(),
    ...mainStarting(Array.from({ length: n }, (_, me) => ({ fn: `thr${me}`, count: '1' }))),
  ].join('\n') + '\n';
}

// ---------------------------------------------------------------------------
// A.4 Relay: N tasks pass a shared variable on, task i to task i + 1 mod N.

export function relay(n: number, bug = false): string {
  checkN('relay', n);
  const d: Doc = {
    family: 'relay',
    n,
    bug,
    title: `the Relay system with N = ${n} tasks${bug ? ', a mutant' : ''}.`,
    system: [
      thesis('Relay', 'A.4'),
      '  (after S. F. Siegel, G. S. Avrunin, "Improving the precision of INCA by',
      '  eliminating solutions with spurious cycles", IEEE TSE 28(2), 2002).',
      '  Tasks with ids 0 .. N-1 share a variable v, which a task of its own',
      '  guards: one get or set at a time.  Here a mutex m guards v, and get and',
      '  set are each one critical section.  Task i repeatedly gets v and, when',
      '  it is i, sets it to (i + 1) % N.  v starts at 0.  Chapter 5 scales the',
      '  system by the number of tasks.  Written for this benchmark.',
    ],
    threads: [`Threads: main starts N = ${n} instances of task with ids 0 .. ${n - 1} (the thread`, '  argument); each runs forever.'],
    properties: [
      'Property (A.4 property 1): v is always set to 1 in between sets to 0.  A',
      '  ghost set0 is 1 when the last set of v to 0 or 1 was to 0 (the initial',
      '  value counts as a set to 0); a set to 0 asserts set0 == 0.  Ghost code',
      '  runs inside the set\'s critical section.',
    ],
    mutation: [
      'Mutation: task 0 sets v to 2 % N instead of 1 (it skips task 1), so v',
      `  returns to 0 without passing 1${n === 2 ? ': with N = 2 task 0 sets v to 0 at once' : ': task 0 sets v = 2, task 2 ... sets v = 0'},`,
      '  and that set to 0 fails the assertion.',
    ],
  };
  return [
    ...prologue(d, [`#define N ${n} /* tasks */`]),
    'pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER; /* guards v */',
    'int v = 0;    /* the shared variable */',
    'int set0 = 1; /* ghost: the last set of v to 0 or 1 was to 0 */',
    '',
    'void *task(void *arg) {',
    '  int me = (long)arg; /* 0 .. N-1 */',
    mutation(bug, '  int next = (me + 1) % N;', '  int next = me == 0 ? 2 % N : (me + 1) % N; /* MUTATION: task 0 should pass v to task 1 */'),
    '  int x = 0;',
    '  while (1) {',
    '    pthread_mutex_lock(&m); /* get */',
    '    x = v;',
    '    pthread_mutex_unlock(&m);',
    '    if (x == me) {',
    '      pthread_mutex_lock(&m); /* set */',
    '      v = next;',
    '      if (next == 0) {',
    '        assert(set0 == 0); /* a set to 1 since the last set to 0 */',
    '        set0 = 1;',
    '      }',
    '      if (next == 1)',
    '        set0 = 0;',
    '      pthread_mutex_unlock(&m);',
    '    }',
    '    x = 0;',
    '  }',
    '  return 0;',
    '}',
    '',
    ...mainStarting([{ fn: 'task', count: 'N' }]),
  ].join('\n') + '\n';
}

// ---------------------------------------------------------------------------
// A.5 Smokers: a supplier, a table, N assemblers.

export function smokers(n: number, bug = false): string {
  checkN('smokers', n);
  const d: Doc = {
    family: 'smokers',
    n,
    bug,
    title: `the Smokers system with N = ${n} assemblers${bug ? ', a mutant' : ''}.`,
    system: [
      thesis('Smokers', 'A.5'),
      '  (the cigarette smokers problem of S. S. Patil, "Limitations and',
      '  capabilities of Dijkstra\'s semaphore primitives for coordination among',
      '  processes", MIT Project MAC CSG Memo 57, 1971).  An item takes one piece',
      '  of each of N kinds; assembler i has an endless supply of piece i, the',
      '  supplier of all of them.  The supplier puts N - 1 different pieces on the',
      '  table, one at a time (it leaves out a piece of its choice), says they',
      '  are out (ready = 1) and waits until the item is made (ready == 0).  The',
      '  assembler whose piece is missing picks up the N - 1 pieces (ready = 2),',
      '  makes the item and then tells the supplier (ready = 0).  The table is',
      '  shared state under the mutex table (the thesis\'s table task): all',
      '  writes of onTable and ready, and all reads but those of the waits, hold',
      '  it.  A thread that waits for the table to change sleeps until it has',
      '  (an atomic await of the condition, as a condition variable\'s wait',
      '  would) and then takes the lock; an assembler checks again under the',
      '  lock.  Chapter 5 scales the system by the number of assemblers.',
      '  Written for this benchmark.',
    ],
    threads: [
      `Threads: main starts the supplier and N = ${n} instances of assembler with`,
      `  ids 0 .. ${n - 1} (the thread argument); all run forever.`,
    ],
    properties: [
      'Properties (A.5), as assertions:',
      '  3. Only one assembler makes an item at a time: a ghost counter making',
      '     counts the assemblers between picking up and finishing; each asserts',
      '     making == 1 while making its item.',
      '  5. The supplier never has all pieces of an item on the table at once:',
      '     when it has put out its pieces, it asserts that the piece it left',
      '     out is not on the table.',
      '  1. The right assembler makes the item: the supplier records the piece',
      '     it left out in a ghost missing; the assembler picking up asserts it',
      '     is that piece\'s assembler.',
      '  7. Putting a piece on the table and picking it up alternate (for every',
      '     piece, not only piece 1): a put asserts the piece is not there, a',
      '     pick-up that it is.',
    ],
    mutation: [
      'Mutation: an assembler tells the supplier it is done (ready = 0) when it',
      '  picks the pieces up instead of after making the item.  Assembler a picks',
      '  up; the supplier puts out pieces for another assembler b, which picks',
      '  them up while a is still making: making == 2 (property 3 fails).',
    ],
  };
  return [
    ...prologue(d, [`#define N ${n} /* assemblers, and kinds of pieces */`]),
    'pthread_mutex_t table = PTHREAD_MUTEX_INITIALIZER; /* guards onTable and ready */',
    'int onTable[N];  /* onTable[p] == 1: a piece p lies on the table */',
    'int ready = 0;   /* 0: the supplier may put out pieces; 1: they are out; 2: an assembler has them */',
    'int making = 0;  /* ghost: assemblers making an item */',
    'int missing = 0; /* ghost: the piece the supplier left out last */',
    '',
    'void *supplier(void *arg) {',
    '  int miss = 0, p = 0;',
    '  while (1) {',
    ...choose('    ', 'miss', '0', 'N - 1').map((l, i) => (i === 0 ? `${l} /* the piece to leave out */` : l)),
    '    pthread_mutex_lock(&table);',
    '    for (p = 0; p < N; p++)',
    '      if (p != miss) { /* put piece p on the table */',
    '        assert(onTable[p] == 0); /* property 7 */',
    '        onTable[p] = 1;',
    '      }',
    '    assert(onTable[miss] == 0); /* property 5: a piece is missing */',
    '    missing = miss;',
    '    ready = 1;',
    '    pthread_mutex_unlock(&table);',
    '    __VERIFIER_assume(ready == 0); /* sleep until the item is made */',
    '    p = 0;',
    '  }',
    '  return 0;',
    '}',
    '',
    'void *assembler(void *arg) {',
    '  int me = (long)arg; /* 0 .. N-1: the piece it has */',
    '  int got = 0, p = 0;',
    '  while (1) {',
    ...atomic('    ', 'sleep until the pieces are out and mine is the one missing', ['  __VERIFIER_assume(ready == 1 && onTable[me] == 0);']),
    '    pthread_mutex_lock(&table);',
    '    if (ready == 1 && onTable[me] == 0) {',
    '      for (p = 0; p < N; p++)',
    '        if (p != me) { /* pick up piece p */',
    '          assert(onTable[p] == 1); /* property 7 */',
    '          onTable[p] = 0;',
    '        }',
    '      assert(missing == me); /* property 1 */',
    ...atomic('      ', 'the pieces are taken (and the ghost counts a maker)', [
      mutation(bug, '  ready = 2;', '  ready = 0; /* MUTATION: was ready = 2, and ready = 0 only once the item is made */'),
      '  making = making + 1;',
    ]),
    '      got = 1;',
    '    }',
    '    pthread_mutex_unlock(&table);',
    '    if (got == 1) { /* make the item */',
    '      assert(making == 1); /* property 3 */',
    '      pthread_mutex_lock(&table);',
    ...atomic('      ', 'done: tell the supplier (and the ghost counts one maker less)', [
      ...(bug ? ['  /* MUTATION: ready = 0 was here */'] : ['  ready = 0;']),
      '  making = making - 1;',
    ]),
    '      pthread_mutex_unlock(&table);',
    '    }',
    '    got = 0;',
    '    p = 0;',
    '  }',
    '  return 0;',
    '}',
    '',
    ...mainStarting([
      { fn: 'supplier', count: '1' },
      { fn: 'assembler', count: 'N' },
    ]),
  ].join('\n') + '\n';
}

// ---------------------------------------------------------------------------
// A.2 Gas Station: 2 pumps, an operator, N customers.


export function gasStation(n: number, bug = false): string {
  checkN('gas-station', n);
  const d: Doc = {
    family: 'gas-station',
    n,
    bug,
    title: `the Gas Station with 2 pumps and N = ${n} customers${bug ? ', a mutant' : ''}.`,
    system: [
      thesis('Gas Station', 'A.2'),
      '  (after D. Helmbold, D. Luckham, "Debugging Ada tasking programs", IEEE',
      '  Software 2(2), 1985).  A customer picks a pump and prepays with the',
      '  operator, who accepts a prepayment for a pump only while the pump is',
      '  idle (customers wait for the pump instead of queueing); the operator',
      '  activates the pump; the customer starts pumping, then stops; the pump',
      '  reports the amount to the operator, who frees the pump and hands the',
      '  customer the change over the counter (one customer at a time).',
      '  Rendezvous are atomic sections that wait (__VERIFIER_assume) until the',
      '  acceptor can take the call; the state of pump p (pstate[p], and',
      '  pcust[p], the customer it serves) is where operator, pump and customer',
      '  meet.  The pumps are fixed at 2, and code that touches a pump has one',
      '  copy per pump, so that pump indices are constants.  Chapter 5 scales',
      '  the system by the number of customers.  Written for this benchmark.',
    ],
    threads: [
      `Threads: main starts the operator, 2 instances of pump (ids 0, 1) and N = ${n}`,
      `  instances of customer (ids 0 .. ${n - 1}); all run forever.`,
    ],
    properties: [
      'Properties (A.2), as assertions:',
      '  1. Two customers never use a pump at the same time (the thesis states',
      '     it for customer1, customer2 and pump1; here for every pair and',
      '     pump): a ghost users[p] counts the customers between start and stop',
      '     at pump p; a customer starting to pump asserts users[p] == 1.',
      '  4. A customer who prepays for a pump gets that pump\'s change: the',
      '     change names its pump, and the customer asserts it is the one it',
      '     prepaid for.',
    ],
    mutation: [
      'Mutation: the operator accepts a prepayment for pump 0 without waiting',
      '  until the pump is idle.  Customer 0 prepays for pump 0, the operator',
      '  activates it and customer 0 starts pumping; customer 1 prepays for pump',
      '  0 too, the operator activates it again, and customer 1 starts:',
      '  users[0] == 2 (property 1 fails).',
    ],
  };
  const prepay = (p: number) => [
    bug && p === 0 ? '  /* MUTATION: no __VERIFIER_assume(pstate[0] == IDLE) */' : `  __VERIFIER_assume(pstate[${p}] == IDLE);`,
    `  pstate[${p}] = PAID;`,
    `  pcust[${p}] = me + 1;`,
  ];
  const pumpGas = (p: number) => [
    ...atomic('  ', 'start pumping, once the operator has activated the pump', [
      `  __VERIFIER_assume(pstate[${p}] == ACTIVATED);`,
      `  pstate[${p}] = PUMPING;`,
      `  users[${p}] = users[${p}] + 1;`,
      `  assert(users[${p}] == 1); /* property 1 */`,
    ]),
    ...atomic('  ', 'stop pumping', [`  users[${p}] = users[${p}] - 1;`, `  pstate[${p}] = STOPPED;`]),
  ];
  const serve = (p: number) => [
    `  if (pstate[${p}] == PAID) /* activate the pump */`,
    `    pstate[${p}] = ACTIVATED;`,
    '  else { /* take its report, free it, hand its customer the change */',
    `    __VERIFIER_assume(pstate[${p}] == REPORTED && changeTo == 0);`,
    `    changeTo = pcust[${p}];`,
    `    changePump = ${p + 1};`,
    `    pcust[${p}] = 0;`,
    `    pstate[${p}] = IDLE;`,
    '  }',
  ];
  return [
    ...prologue(d, [
      `#define N ${n} /* customers */`,
      '#define P 2 /* pumps */',
      '/* pump states; from PAID to REPORTED pump p serves customer pcust[p] - 1 */',
      '#define IDLE 0',
      '#define PAID 1      /* the operator has accepted the prepayment */',
      '#define ACTIVATED 2 /* the operator has activated the pump */',
      '#define PUMPING 3',
      '#define STOPPED 4   /* the pump has to report the amount to the operator */',
      '#define REPORTED 5  /* the operator has to hand out the change */',
    ]),
    'int pstate[P];      /* pump states */',
    'int pcust[P];       /* customer + 1 the pump serves; 0: none */',
    'int changeTo = 0;   /* the counter: customer + 1 whose change lies there; 0: none */',
    'int changePump = 0; /* ... and pump + 1 it is the change for */',
    'int users[P];       /* ghost: customers pumping at pump p */',
    '',
    'void *customer(void *arg) {',
    '  int me = (long)arg; /* 0 .. N-1 */',
    '  int pump = 0, got = 0;',
    '  while (1) {',
    ...atomic('    ', 'pick a pump and prepay for it; the operator accepts while the pump is idle', [
      ...choose('  ', 'pump', '0', 'P - 1'),
      ...twoWay('  ', 'pump', prepay),
    ]),
    ...twoWay('    ', 'pump', pumpGas),
    ...atomic('    ', 'take the change from the counter', ['  __VERIFIER_assume(changeTo == me + 1);', '  got = changePump;', '  changeTo = 0;']),
    '    assert(got == pump + 1); /* property 4 */',
    '    pump = 0;',
    '    got = 0;',
    '  }',
    '  return 0;',
    '}',
    '',
    'void *pump(void *arg) {',
    '  int me = (long)arg; /* 0 .. P-1 */',
    '  while (1) {',
    ...atomic('    ', 'once stopped, report the amount to the operator', ['  __VERIFIER_assume(pstate[me] == STOPPED);', '  pstate[me] = REPORTED;']),
    '  }',
    '  return 0;',
    '}',
    '',
    'void *operator(void *arg) {',
    '  int p = 0;',
    '  while (1) {',
    ...atomic('    ', 'select: serve pump p', [...choose('  ', 'p', '0', 'P - 1'), ...twoWay('  ', 'p', serve)]),
    '    p = 0;',
    '  }',
    '  return 0;',
    '}',
    '',
    ...mainStarting([
      { fn: 'operator', count: '1' },
      { fn: 'pump', count: 'P' },
      { fn: 'customer', count: 'N' },
    ]),
  ].join('\n') + '\n';
}

// ---------------------------------------------------------------------------
// A.1 Chiron: artists register with a dispatcher (one, or one per event) and are
// notified of the events they registered for.

export function chiron(n: number, opts: { multiple: boolean; bug?: boolean }): string {
  const family: Family = opts.multiple ? 'chiron-multiple' : 'chiron-single';
  checkN(family, n);
  const bug = opts.bug ?? false;
  const multi = opts.multiple;
  const busy = (ev: number | string) => (multi ? `busy[${ev}]` : 'busy');
  const d: Doc = {
    family,
    n,
    bug,
    title: `Chiron with ${multi ? 'a dispatcher per event' : 'one dispatcher'}, 2 events and N = ${n} artists${bug ? ', a mutant' : ''}.`,
    system: [
      thesis('Chiron', 'A.1'),
      '  (the Chiron user-interface system of R. K. Keller, M. Cameron, R. N.',
      '  Taylor, D. B. Troup, ICSE 1991, as modelled by G. S. Avrunin et al.,',
      '  "Comparing finite-state verification techniques for concurrent',
      `  software", UMass TR 99-69, 1999${multi ? ', in its multiple-dispatcher version' : ''}).  Artists register`,
      '  and unregister for events with the dispatcher, which keeps per event',
      '  the list of the registered artists; when it receives an event it',
      '  passes it to every artist on that list, one after another, each a call',
      "  of the artist's notify entry that waits until the artist accepts it.",
      multi ? '  Each event has a dispatcher of its own, with its own list.' : '  One dispatcher serves both events.',
      "  Here a list is a row of flags (listed0, listed1), read in the order of",
      "  the artists' ids (the thesis's property 7, on the order of",
      '  notifications, is not checked).  Rendezvous are atomic sections that',
      "  run the accept body in the caller's step, and only while the",
      `  dispatcher waits at its select (${busy('e')} == 0).  Register and Unregister`,
      '  update the list; when the dispatcher is away from its select the call',
      '  does nothing and the artist tries again later (a conditional entry',
      `  call).  The environment's event call waits for the select; accepting`,
      `  it sets ${busy('e')} to 1, and the dispatcher then passes the event on: for`,
      '  each artist, once the last notify call has been accepted, if the',
      `  artist is on the list it posts the notify call (${multi ? 'noteTo[e]' : 'noteTo, noteEv'}), and when`,
      `  the last call has been accepted it returns to its select (${busy('e')} back to 0).`,
      '  An artist loops on a select: accept a pending notify call, or pick an',
      '  event and unregister if registered for it, else register.  Code that',
      '  depends on the event has one copy per event (the events are fixed at',
      '  2), so that indices by events are constants.  Chapter 5 fixes the',
      '  events at 2 and scales the system by the number of artists.  Written',
      '  for this benchmark.',
    ],
    threads: [
      `Threads: main starts ${multi ? 'dispatcher0 and dispatcher1 (of events 0 and 1)' : 'the dispatcher'}, the environment, which sends`,
      `  events to the dispatcher${multi ? 's' : ''} at random, and the artists artist0, ..., artist${n - 1}, one function per`,
      '  artist with its id a constant (the same code otherwise); all run',
      '  forever.',
    ],
    properties: [
      'Properties (A.1; the thesis states them for artist1 and event1, here',
      '  for every artist and event), as assertions:',
      '  1. An artist never registers for an event it is registered for: the',
      '     accept body of Register asserts that the artist is not on the list.',
      '  3. The dispatcher notifies no artist of an event before receiving it:',
      '     a ghost received[e] is set when event e is accepted; an artist',
      '     accepting a notification of e asserts received[e] == 1.',
      '  6. The dispatcher never gives an event to an artist not registered for',
      '     it: an artist accepting a notification of e asserts that its own',
      '     record of its calls (mine0, mine1) says it is registered for e.',
    ],
    mutation: [
      `Mutation: the dispatcher returns to its select (${busy('e')} = 0) as soon as it`,
      '  has taken an accepted event, before passing it on.  Artist 0 registers',
      '  for event 0; the dispatcher accepts event 0, takes it, and calls the',
      "  notify entry of artist 0, which is on the list; artist 0 unregisters",
      '  (the dispatcher is at its select again) and then accepts the call: a',
      '  notification of an event it is not registered for (property 6 fails).',
    ],
  };
  // A dispatcher passes event ev on: for each artist, once the last notify call has been
  // accepted, if the artist is on ev's list, call its notify entry.
  const noteTo = (ev: number) => (multi ? `noteTo[${ev}]` : 'noteTo');
  const notify = (ev: number): string[] => [
    'for (a = 0; a < N; a++) {',
    ...atomic('  ', "once the last notify call has been accepted: if a is on the list, call a's notify entry", [
      `  __VERIFIER_assume(${noteTo(ev)} == 0);`,
      `  if (listed${ev}[a] > 0) {`,
      ...(multi ? [`    noteTo[${ev}] = a + 1;`] : ['    noteTo = a + 1;', `    noteEv = ${ev};`]),
      '  }',
    ]),
    '}',
  ];
  // Waiting at the select until the environment's event call has been accepted, and
  // returning to it once the last notify call has been accepted.
  const take = (ev: number | null): string[] => {
    const b = busy(ev ?? 'e');
    return atomic('    ', 'wait at the select until an event has been accepted', [
      `  __VERIFIER_assume(${b} == 1);`,
      ...(ev === null ? ['  e = event;'] : []),
      ...(bug ? [`  ${b} = 0; /* MUTATION: back to the select before passing the event on */`] : []),
    ]);
  };
  const done = (ev: number | null): string[] =>
    bug
      ? [`    __VERIFIER_assume(${noteTo(ev ?? 0)} == 0); /* until the last call has been accepted (MUTATION: was also ${busy(ev ?? 'e')} = 0 here) */`]
      : atomic('    ', 'once the last call has been accepted, back to the select', [`  __VERIFIER_assume(${noteTo(ev ?? 0)} == 0);`, `  ${busy(ev ?? 'e')} = 0;`]);
  const dispatchers = multi
    ? [0, 1].flatMap((ev) => [
        `void *dispatcher${ev}(void *arg) { /* the dispatcher of event ${ev} */`,
        '  int a = 0;',
        '  while (1) {',
        ...take(ev),
        ...notify(ev).map((l) => `    ${l}`),
        ...done(ev),
        '    a = 0;',
        '  }',
        '  return 0;',
        '}',
        '',
      ])
    : [
        'void *dispatcher(void *arg) {',
        '  int a = 0, e = 0;',
        '  while (1) {',
        ...take(null),
        ...twoWay('    ', 'e', (ev) => notify(ev).map((l) => `  ${l}`)),
        ...done(null),
        '    a = 0;',
        '    e = 0;',
        '  }',
        '  return 0;',
        '}',
        '',
      ];
  // An artist's select: accept a pending notify call, or call Register/Unregister.
  const acceptNote = (ev: number) => [
    `  assert(received[${ev}] == 1); /* property 3 */`,
    `  assert(mine${ev} == 1);        /* property 6 */`,
  ];
  const call = (me: number) => (ev: number) => [
    `  if (${busy(ev)} < 1) { /* the dispatcher is at its select */`,
    `    if (mine${ev} < 1) { /* Register(${ev}) */`,
    `      assert(listed${ev}[${me}] == 0); /* property 1 */`,
    `      listed${ev}[${me}] = 1;`,
    `    } else /* Unregister(${ev}) */`,
    `      listed${ev}[${me}] = 0;`,
    `    mine${ev} = 1 - mine${ev};`,
    '  }',
  ];
  const select = (me: number): string[] => [
    ...choose('  ', 'k', '0', multi ? '2' : '1'),
    ...(multi
      ? [
          '  if (k < 2) { /* accept notify(k) */',
          ...twoWay('    ', 'k', (ev) => [`  __VERIFIER_assume(noteTo[${ev}] == ${me + 1});`, ...acceptNote(ev), `  noteTo[${ev}] = 0;`]),
        ]
      : ['  if (k < 1) { /* accept notify(noteEv) */', `    __VERIFIER_assume(noteTo == ${me + 1});`, '    e = noteEv;', ...twoWay('    ', 'e', acceptNote), '    noteTo = 0;']),
    '  } else { /* call Register(e) or Unregister(e) for an event e */',
    ...choose('    ', 'e', '0', 'E - 1'),
    ...twoWay('    ', 'e', call(me)),
    '  }',
  ];
  // One function per artist, the id a constant: rely splits an access a[me] with me a
  // variable into a case per cell, and an artist's select makes several such accesses.
  const artist = (me: number): string[] => [
    `void *artist${me}(void *arg) { /* artist ${me} */`,
    '  int mine0 = 0, mine1 = 0; /* 1: registered for event 0, 1 (my calls so far) */',
    '  int k = 0, e = 0;',
    '  while (1) {',
    ...atomic('    ', 'select', select(me)),
    '    k = 0;',
    '    e = 0;',
    '  }',
    '  return 0;',
    '}',
    '',
  ];
  return [
    ...prologue(d, [`#define N ${n} /* artists */`, '#define E 2 /* events */']),
    ...(multi
      ? [
          'int busy[E];        /* busy[e] == 1: dispatcher e has accepted an event and not yet passed it on */',
          'int noteTo[E];      /* noteTo[e]: artist + 1 whose notify entry dispatcher e is calling; 0: none */',
        ]
      : [
          'int busy = 0;       /* 1: the dispatcher has accepted an event and not yet passed it on */',
          'int event = 0;      /* ... that event */',
          "int noteTo = 0;     /* artist + 1 whose notify entry the dispatcher is calling; 0: none */",
          'int noteEv = 0;     /* ... with which event */',
        ]),
    'int listed0[N];     /* the list of event 0: listed0[a] == 1 while artist a is on it */',
    'int listed1[N];     /* the list of event 1 */',
    'int received[E];    /* ghost: event e has been received */',
    '',
    ...dispatchers,
    'void *environment(void *arg) {',
    '  int e = 0;',
    '  while (1) {',
    ...atomic('    ', `call the event entry of the dispatcher${multi ? ' of an event e' : ' with an event e'}; it accepts at its select`, [
      ...choose('  ', 'e', '0', 'E - 1'),
      ...twoWay('  ', 'e', (ev) =>
        multi
          ? [`  __VERIFIER_assume(busy[${ev}] == 0);`, `  received[${ev}] = 1;`, `  busy[${ev}] = 1;`]
          : ['  __VERIFIER_assume(busy == 0);', `  event = ${ev};`, `  received[${ev}] = 1;`, '  busy = 1;'],
      ),
      '  e = 0;',
    ]),
    '  }',
    '  return 0;',
    '}',
    '',
    ...Array.from({ length: n }, (_, me) => artist(me)).flat(),
    ...mainStarting([
      ...(multi
        ? [
            { fn: 'dispatcher0', count: '1' },
            { fn: 'dispatcher1', count: '1' },
          ]
        : [{ fn: 'dispatcher', count: '1' }]),
      { fn: 'environment', count: '1' },
      ...Array.from({ length: n }, (_, me) => ({ fn: `artist${me}`, count: '1' })),
    ]),
  ].join('\n') + '\n';
}

// ---------------------------------------------------------------------------

export function generate(family: Family, n: number, bug = false): string {
  switch (family) {
    case 'peterson':
      return peterson(n, bug);
    case 'relay':
      return relay(n, bug);
    case 'smokers':
      return smokers(n, bug);
    case 'gas-station':
      return gasStation(n, bug);
    case 'chiron-single':
      return chiron(n, { multiple: false, bug });
    case 'chiron-multiple':
      return chiron(n, { multiple: true, bug });
  }
}

/** One entry of benchmarks/ag.json (the field names of benchmarks/expected.json where they apply). */
export interface AgEntry {
  file: string;
  name: string;
  suite: 'ag';
  family: Family;
  n: number;
  expected: Verdict;
  property: string;
  /** Lines of C below the header comment, blank lines left out. */
  loc: number;
  note: string;
}

/** Every program --write writes, with its manifest entry. */
export function suite(): { entry: AgEntry; source: string }[] {
  const out: { entry: AgEntry; source: string }[] = [];
  for (const family of FAMILIES)
    for (const [bug, sizes] of [
      [false, SIZES[family]],
      [true, BUG_SIZES],
    ] as const)
      for (const n of sizes) {
        const source = generate(family, n, bug);
        const body = source.slice(source.indexOf(' */\n') + 4);
        out.push({
          source,
          entry: {
            file: `benchmarks/programs/ag/${fileName(family, n, bug)}`,
            name: `${INFO[family].name}${bug ? '-bug' : ''}(${n})`,
            suite: 'ag',
            family,
            n,
            expected: bug ? 'unsafe' : 'safe',
            property: INFO[family].property,
            loc: body.split('\n').filter((l) => l.trim() !== '').length,
            note: bug ? `Mutant (MUTATION comments in the file): ${INFO[family].mutant}` : '',
          },
        });
      }
  return out;
}

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

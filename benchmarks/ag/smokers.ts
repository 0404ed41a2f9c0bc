/**
 * A.5 Smokers: a supplier, a table, N assemblers.
 */
import { thesis, type Description, type FamilyWriter } from './header.js';
import { atomic, choose, mainStarting, mutation } from './fragments.js';

function describe(n: number, bug: boolean): Description {
  return {
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
}

/** The supplier: puts out all pieces but one, then sleeps until the item is made. */
function supplier(): string[] {
  return [
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
  ];
}

/** An assembler: picks up the pieces when its own is the one missing, makes the item, tells the supplier. */
function assembler(bug: boolean): string[] {
  return [
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
  ];
}

function body(n: number, bug: boolean): string[] {
  return [
    'pthread_mutex_t table = PTHREAD_MUTEX_INITIALIZER; /* guards onTable and ready */',
    'int onTable[N];  /* onTable[p] == 1: a piece p lies on the table */',
    'int ready = 0;   /* 0: the supplier may put out pieces; 1: they are out; 2: an assembler has them */',
    'int making = 0;  /* ghost: assemblers making an item */',
    'int missing = 0; /* ghost: the piece the supplier left out last */',
    '',
    ...supplier(),
    ...assembler(bug),
    ...mainStarting([
      { fn: 'supplier', count: '1' },
      { fn: 'assembler', count: 'N' },
    ]),
  ];
}

export const smokers: FamilyWriter = { describe, defines: (n) => [`#define N ${n} /* assemblers, and kinds of pieces */`], body };

/**
 * A.3 Peterson: the filter lock for N threads.
 */
import { thesis, type Description, type FamilyWriter } from './header.js';
import { atomic, mainStarting, mutation } from './fragments.js';

function describe(n: number, bug: boolean): Description {
  return {
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
}

// One function per thread, the id a constant: rely splits an access a[me] with me a
// variable into a case per cell, which makes the program several times slower.
function thread(me: number, bug: boolean): string[] {
  return [
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
}

function body(n: number, bug: boolean): string[] {
  return [
    'int level[N];      /* level[i]: the level thread i is at (0: not competing) */',
    'int victim[N - 1]; /* victim[L - 1]: the thread that arrived at level L last */',
    'int incs = 0;      /* ghost: threads in the critical section */',
    '',
    ...Array.from({ length: n }, (_, me) => thread(me, bug)).flat(),
    ...mainStarting(Array.from({ length: n }, (_, me) => ({ fn: `thr${me}`, count: '1' }))),
  ];
}

export const peterson: FamilyWriter = { describe, defines: (n) => [`#define N ${n} /* threads */`], body };

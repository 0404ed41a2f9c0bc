/**
 * A.4 Relay: N tasks pass a shared variable on, task i to task i + 1 mod N.
 */
import { thesis, type Description, type FamilyWriter } from './header.js';
import { mainStarting, mutation } from './fragments.js';

function describe(n: number, bug: boolean): Description {
  return {
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
}

function body(n: number, bug: boolean): string[] {
  return [
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
  ];
}

export const relay: FamilyWriter = { describe, defines: (n) => [`#define N ${n} /* tasks */`], body };

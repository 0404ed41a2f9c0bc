/**
 * A.1 Chiron: artists register with a dispatcher (one, or one per event) and are
 * notified of the events they registered for.
 */
import { thesis, type Description, type FamilyWriter } from './header.js';
import { atomic, choose, mainStarting, twoWay } from './fragments.js';

/** The flag of the dispatcher of event ev (of the one dispatcher unless `multi`): 1 while it has accepted an event and not yet passed it on. */
const busyOf =
  (multi: boolean) =>
  (ev: number | string): string =>
    multi ? `busy[${ev}]` : 'busy';

function describe(multi: boolean, n: number, bug: boolean): Description {
  const busy = busyOf(multi);
  return {
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
}

/** The dispatcher, or with `multi` one dispatcher per event. */
function dispatchers(multi: boolean, bug: boolean): string[] {
  const busy = busyOf(multi);
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
  return multi
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
}

/** The artists artist0 .. artist{n-1}. */
function artists(multi: boolean, n: number): string[] {
  const busy = busyOf(multi);
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
  return Array.from({ length: n }, (_, me) => artist(me)).flat();
}

function body(multi: boolean, n: number, bug: boolean): string[] {
  return [
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
    ...dispatchers(multi, bug),
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
    ...artists(multi, n),
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
  ];
}

/** Chiron with one dispatcher (chiron-single) or one per event (chiron-multiple). */
export const chiron = (multi: boolean): FamilyWriter => ({
  describe: (n, bug) => describe(multi, n, bug),
  defines: (n) => [`#define N ${n} /* artists */`, '#define E 2 /* events */'],
  body: (n, bug) => body(multi, n, bug),
});

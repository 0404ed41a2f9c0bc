/**
 * A.2 Gas Station: 2 pumps, an operator, N customers.
 */
import { thesis, type Description, type FamilyWriter } from './header.js';
import { atomic, choose, mainStarting, twoWay } from './fragments.js';

function describe(n: number, bug: boolean): Description {
  return {
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
}

/** The operator's accept of a prepayment for pump p (the customer's rendezvous). */
const prepay = (p: number, bug: boolean) => [
  bug && p === 0 ? '  /* MUTATION: no __VERIFIER_assume(pstate[0] == IDLE) */' : `  __VERIFIER_assume(pstate[${p}] == IDLE);`,
  `  pstate[${p}] = PAID;`,
  `  pcust[${p}] = me + 1;`,
];
/** A customer pumping at pump p: start, then stop. */
const pumpGas = (p: number) => [
  ...atomic('  ', 'start pumping, once the operator has activated the pump', [
    `  __VERIFIER_assume(pstate[${p}] == ACTIVATED);`,
    `  pstate[${p}] = PUMPING;`,
    `  users[${p}] = users[${p}] + 1;`,
    `  assert(users[${p}] == 1); /* property 1 */`,
  ]),
  ...atomic('  ', 'stop pumping', [`  users[${p}] = users[${p}] - 1;`, `  pstate[${p}] = STOPPED;`]),
];
/** The operator serving pump p: activate it, or take its report and hand out the change. */
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

function body(n: number, bug: boolean): string[] {
  return [
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
      ...twoWay('  ', 'pump', (p) => prepay(p, bug)),
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
  ];
}

export const gasStation: FamilyWriter = {
  describe,
  defines: (n) => [
    `#define N ${n} /* customers */`,
    '#define P 2 /* pumps */',
    '/* pump states; from PAID to REPORTED pump p serves customer pcust[p] - 1 */',
    '#define IDLE 0',
    '#define PAID 1      /* the operator has accepted the prepayment */',
    '#define ACTIVATED 2 /* the operator has activated the pump */',
    '#define PUMPING 3',
    '#define STOPPED 4   /* the pump has to report the amount to the operator */',
    '#define REPORTED 5  /* the operator has to hand out the change */',
  ],
  body,
};

/**
 * The catalogue of the assume-guarantee subjects: the families, the sizes --write
 * writes, and per family the manifest's name, property and mutant.
 */
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
export const INFO: Record<Family, { name: string; property: string; mutant: string }> = {
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

/** One entry of benchmarks/ag.json (the field names of benchmarks/expected.json where they apply); the file adds `suite: 'ag'`. */
export interface AgEntry {
  readonly file: string;
  readonly name: string;
  readonly family: Family;
  readonly n: number;
  readonly expected: Verdict;
  readonly property: string;
  /** Lines of C below the header comment, blank lines left out. */
  readonly loc: number;
  readonly note: string;
}

/** Our protocols (benchmarks/programs) and the SV-COMP-style fixtures, with their expected answers. */

/** Each bundled program and fixture, and whether the explorer finds an error in it. */
export const CASES: [file: string, errorExpected: boolean][] = [
  ['benchmarks/programs/dekker.c', false],
  ['benchmarks/programs/dekker-broken.c', true],
  ['benchmarks/programs/peterson.c', false],
  ['benchmarks/programs/peterson-broken.c', true],
  ['benchmarks/programs/rwlock.c', false],
  ['benchmarks/programs/rwlock-broken.c', true],
  ['benchmarks/programs/simple4.c', false],
  ['benchmarks/programs/simple4-broken.c', true],
  ['benchmarks/programs/lockbit.c', false],
  ['benchmarks/programs/lockid.c', false],
  ['benchmarks/programs/lockbitcnt.c', false],
  ['test/fixtures/svcomp-style.c', false],
  ['test/fixtures/svcomp-style-bug.c', true],
  ['test/fixtures/pthread-glibc.src.c', false],
  ['test/fixtures/pthread-glibc.i', false],
];

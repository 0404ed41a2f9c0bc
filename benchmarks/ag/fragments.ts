/**
 * C fragments the subjects share: atomic sections, bounded nondeterministic choices,
 * one copy of a block per value of a two-valued index, main, and the mutants' lines.
 */

/** `body` as one atomic section (a rendezvous, or ghost code), indented by `ind`. */
export function atomic(ind: string, comment: string, body: string[]): string[] {
  return [`${ind}__VERIFIER_atomic_begin(); /* ${comment} */`, ...body.map((l) => ind + l), `${ind}__VERIFIER_atomic_end();`];
}

/** `v = a nondeterministic value in lo..hi` (bounded, so the program stays finite-state). */
export function choose(ind: string, v: string, lo: string, hi: string): string[] {
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
export function twoWay(ind: string, v: string, block: (p: number) => string[]): string[] {
  return [`${ind}if (${v} < 1) { /* ${v} == 0 */`, ...block(0).map((l) => ind + l), `${ind}} else { /* ${v} == 1 */`, ...block(1).map((l) => ind + l), `${ind}}`];
}

/**
 * main: starts the threads (a function, and how many instances: each gets its index as the
 * thread argument) and joins them. They never end, so main waits at the join for good and
 * takes no step that would double the states (a main ending with pthread_exit would).
 */
export function mainStarting(threads: { fn: string; count: string }[]): string[] {
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

/** The line of the mutant (`bug`) or of the program itself. */
export const mutation = (bug: boolean, good: string, bad: string) => (bug ? bad : good);

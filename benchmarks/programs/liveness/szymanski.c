/*
 * szymanski.c -- Szymanski's mutual exclusion algorithm for two threads
 *   that compete for the critical section forever (liveness benchmark).
 *
 * Algorithm: B. K. Szymanski, "A simple solution to Lamport's concurrent
 *   programming problem with linear wait", Proc. ICS 1988.  Each thread
 *   has a flag with values 0..4: 1 = wants to enter, 2 = waiting for the
 *   others to pass the doorway, 3 = in the doorway, 4 = closed the door
 *   behind it.  Thread i:
 *     flag[i] = 1;  wait until every other flag < 3; (doorway open)
 *     flag[i] = 3;  if some other flag == 1 {         (someone else wants in)
 *                     flag[i] = 2;  wait until some other flag == 4; }
 *     flag[i] = 4;  wait until every flag of a lower index < 2;
 *     critical section;
 *     wait until every flag of a higher index < 2 or > 3;
 *     flag[i] = 0;
 *   Written for this benchmark from the algorithm, for two threads
 *   (thread 1 has the lower index), as ../szymanski.c, which runs it once
 *   per thread.  Flags stay in 0..4, so the program is finite-state.
 *
 * Locations (C labels, for at(thread, label)): NC the noncritical section
 *   (one step that always proceeds), W the wait for an open door (just
 *   after flag = 1), C the critical section.  Every wait is a spin loop,
 *   so no thread ever blocks and weak fairness makes each thread move
 *   infinitely often, as unconditional fairness does.
 *
 * Properties (../../liveness.json):
 *   G (at(thr1, W) -> F at(thr1, C)), and the same for thr2 (starvation
 *   freedom): HOLD under weak and under unconditional fairness.  Each wait
 *   of a thread i that is in the waiting room ends, because the other
 *   thread j, which keeps moving, soon reaches a state that satisfies the
 *   wait's condition and keeps it until i moves:
 *   - i waits at W while flag_j >= 3: j is in the doorway or past it.  j
 *     either passes through C and leaves (flag_j = 0; j's exit wait, if
 *     any, is for flag_i not in 2..3, and flag_i == 1), or in its doorway
 *     sees flag_i == 1 and parks at flag_j = 2, waiting for flag_i == 4:
 *     from then on flag_j < 3 until i moves.  Re-entering, j parks the
 *     same way, so it passes C at most once more.
 *   - i sees flag_j == 1 in its doorway and waits at flag_i = 2 for
 *     flag_j == 4: j passes its W (flag_i == 2 < 3), sees flag_i != 1,
 *     sets flag_j = 4 and (if j == 2) waits for flag_1 < 2, or (if j == 1)
 *     enters C and then waits at its exit while flag_2 is 2 or 3: flag_j
 *     stays 4 until i moves.
 *   - thread 2 waits after flag_2 = 4 while flag_1 >= 2: thread 1 is then
 *     parked at 2 waiting for flag_2 == 4 (it sees it), or in its doorway
 *     (it sees flag_2 != 1 and sets 4), or at 4: it enters C, passes its
 *     exit wait (flag_2 == 4) and sets flag_1 = 0; entering again it stops
 *     at W with flag_1 = 1 (flag_2 >= 3), so flag_1 < 2 until thread 2
 *     moves.
 *   - thread 1's exit wait (while flag_2 is 2 or 3, with flag_1 == 4)
 *     ends too: thread 2 at 2 sees flag_1 == 4, at 3 sees flag_1 != 1,
 *     and sets flag_2 = 4, which stays until thread 1 moves.
 *   Without fairness they FAIL: the other thread may run alone.
 *   G F (at(thr1, C) || at(thr2, C)): HOLDS under weak fairness (follows).
 *
 * Safety: mutual exclusion: in its critical section thread i writes x = i
 *   and asserts x == i.  Expected safety verdict: SAFE.
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "szymanski.c", 61, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()

int flag1 = 0; /* thread 1's state, 0..4 */
int flag2 = 0; /* thread 2's state, 0..4 */
int x = 0;     /* written in the critical sections */

void *thr1(void *arg) {
  while (1) {
  NC:
    ; /* noncritical section */
    flag1 = 1;
  W:
    while (flag2 >= 3) {
    }
    flag1 = 3;
    if (flag2 == 1) {
      flag1 = 2;
      while (flag2 != 4) {
      }
    }
    flag1 = 4;
    /* no thread has a lower index */
  C:
    x = 1; /* critical section */
    assert(x == 1);
    /* exit protocol: wait for thread 2 to leave the doorway */
    while (2 <= flag2 && flag2 <= 3) {
    }
    flag1 = 0;
  }
  return 0;
}

void *thr2(void *arg) {
  while (1) {
  NC:
    ; /* noncritical section */
    flag2 = 1;
  W:
    while (flag1 >= 3) {
    }
    flag2 = 3;
    if (flag1 == 1) {
      flag2 = 2;
      while (flag1 != 4) {
      }
    }
    flag2 = 4;
    while (flag1 >= 2) {
    }
  C:
    x = 2; /* critical section */
    assert(x == 2);
    /* exit protocol: no thread has a higher index */
    flag2 = 0;
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, thr1, 0);
  pthread_create(&t2, 0, thr2, 0);
  pthread_exit(0);
}

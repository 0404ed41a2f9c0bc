/*
 * scull.c -- the scull character device of "Linux Device Drivers": read,
 *   write, llseek and open-with-truncate on one device from two processes.
 *
 * Source: J. Corbet, A. Rubini, G. Kroah-Hartman, "Linux Device Drivers",
 *   3rd ed., O'Reilly 2005, chapters 3 and 5 (the scull driver; benchmark
 *   "Scull" of Gupta, Popeea, Rybalchenko, POPL 2011, Table 1).  The device
 *   holds a buffer (here 2 cells) and its size; every operation takes the
 *   device semaphore with down_interruptible, which fails with
 *   -ERESTARTSYS if a signal arrives while the process sleeps, and
 *   releases it with up.  read copies a cell to the user if the file
 *   position is below the size; write refuses positions past the buffer,
 *   stores a cell and grows the size; open for writing trims the device
 *   (clears it); llseek computes a new position (SEEK_SET, SEEK_CUR,
 *   SEEK_END -- relative to the size, so here it too takes the semaphore).
 *   Written for this benchmark from that description; the heap (the
 *   quantum sets) is replaced by a fixed array.
 *
 * Threads: process 1 opens the device for writing (trim), writes two
 *   cells, seeks back to 0 and reads one; process 2 opens it for reading,
 *   reads twice, seeks to the last cell (SEEK_END, -1) and reads.  Any
 *   down_interruptible may be interrupted (a nondeterministic signal), in
 *   which case the operation returns -ERESTARTSYS without touching the
 *   device.  Each file position is the process's own local.
 *
 * Property: the device's buffer and size are read and written only while
 *   the semaphore is held by the process doing it.  A ghost global holder
 *   records the semaphore's owner (set by down, cleared by up); every
 *   access is preceded by check_holder(id): assert(holder == id).
 *
 * Expected verdict: SAFE
 */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "scull.c", 35, "reach_error"); }
#include <pthread.h>
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
extern void __VERIFIER_assume(int cond);
extern _Bool __VERIFIER_nondet_bool(void);

#define SCULL_CELLS 2
#define ERESTARTSYS 512
#define ENOMEM 12
#define EINVAL 22
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2

int sem = 1;              /* dev->sem: 1 free, 0 taken */
int holder = 0;           /* ghost: the process holding sem, 0 if none */
int size = 0;             /* dev->size: the amount of data stored */
int data[SCULL_CELLS];    /* dev->data */

/* every access to the device is preceded by this check */
void check_holder(int id) {
  assert(holder == id);
}

void __VERIFIER_atomic_down(int id) {
  __VERIFIER_assume(sem > 0);
  sem = sem - 1;
  holder = id;
}

void __VERIFIER_atomic_up(int id) {
  holder = 0;
  sem = sem + 1;
}

int down_interruptible(int id) {
  _Bool signal = __VERIFIER_nondet_bool();
  if (signal) {
    return -ERESTARTSYS;  /* interrupted while waiting */
  }
  __VERIFIER_atomic_down(id);
  return 0;
}

void scull_trim(int id) {
  check_holder(id);
  data[0] = 0;
  check_holder(id);
  data[1] = 0;
  check_holder(id);
  size = 0;
}

/* open for writing only: trim the device (open for reading does nothing) */
int scull_open_write(int id) {
  if (down_interruptible(id)) {
    return -ERESTARTSYS;
  }
  scull_trim(id);
  __VERIFIER_atomic_up(id);
  return 0;
}

int scull_read(int id, int *f_pos, int *buf) {
  int retval = 0;
  if (down_interruptible(id)) {
    return -ERESTARTSYS;
  }
  check_holder(id);
  if (*f_pos >= size) {
    goto out;             /* end of file */
  }
  check_holder(id);
  *buf = data[*f_pos];    /* copy_to_user */
  *f_pos = *f_pos + 1;
  retval = 1;
out:
  __VERIFIER_atomic_up(id);
  return retval;
}

int scull_write(int id, int *f_pos, int val) {
  int retval = -ENOMEM;
  if (down_interruptible(id)) {
    return -ERESTARTSYS;
  }
  if (*f_pos >= SCULL_CELLS) {
    goto out;             /* no room */
  }
  check_holder(id);
  data[*f_pos] = val;     /* copy_from_user */
  *f_pos = *f_pos + 1;
  retval = 1;
  check_holder(id);
  if (size < *f_pos) {
    check_holder(id);
    size = *f_pos;
  }
out:
  __VERIFIER_atomic_up(id);
  return retval;
}

int scull_llseek(int id, int *f_pos, int off, int whence) {
  int newpos = 0;
  if (down_interruptible(id)) {
    return -ERESTARTSYS;
  }
  if (whence == SEEK_SET) {
    newpos = off;
  } else if (whence == SEEK_CUR) {
    newpos = *f_pos + off;
  } else {
    check_holder(id);
    newpos = size + off;
  }
  __VERIFIER_atomic_up(id);
  if (newpos < 0) {
    return -EINVAL;
  }
  *f_pos = newpos;
  return newpos;
}

void *process1(void *arg) {
  int pos = 0, buf = 0;
  scull_open_write(1);
  scull_write(1, &pos, 5);
  scull_write(1, &pos, 6);
  scull_llseek(1, &pos, 0, SEEK_SET);
  scull_read(1, &pos, &buf);
  return 0;
}

void *process2(void *arg) {
  int pos = 0, buf = 0;
  scull_read(2, &pos, &buf);
  scull_read(2, &pos, &buf);
  scull_llseek(2, &pos, -1, SEEK_END);
  scull_read(2, &pos, &buf);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, process1, 0);
  pthread_create(&t2, 0, process2, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}

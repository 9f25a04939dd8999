/* spread.h — how far a baseline's trajectory outcomes move under a change that alters nothing physical
 * (sweep.h: -perturb_initial), measured per task and stored beside the baseline as spread.csv:
 *   task_id, runs (perturbed runs behind the row), status_flips (how many of them ended with another status
 *   than the baseline's task), then one column per outcome (each metric and count that is not a per-step
 *   quantity): max over the perturbed runs of |perturbed - baseline| over the runs where both succeeded
 *   (empty: none did).
 * bench/regress -baseline writes it (bin/bench_spread); bench_compare reads it (compare.h). */
#ifndef CB_SPREAD_H
#define CB_SPREAD_H

#include "rundir.h"

/* spread.csv opened for a join: its header checked, its rows read a row at a time as the baseline's task ids
 * ask for them (ascending, as bench_spread writes them in the baseline's table order): never held whole. */
struct spread {
  char path[4096];
  struct table_stream ts;
  int open, have; /* the stream is open; ts holds the row of id */
  long id;        /* the current row's task id */
  long last;      /* the last task id asked for (the join needs them ascending) */
  int asked;
  int n, *col; /* the joined columns: spread.csv's column of each, -1 when it has none */
};

/* The columns of r that are trajectory outcomes: its metrics and counts not listed under per_step. */
int spread_is_outcome(const struct rundir *r, const char *name);
/* Writes nominal->dir/spread.csv from the nominal run and n perturbed runs of the same sweep (the same
 * experiment and task ids). 0, or 2 with a message. */
int spread_write(const struct rundir *nominal, struct rundir *const *perturbed, int n, double perturb);
/* Opens dir/spread.csv and checks its header: 0; 1 when there is none (*sp NULL, no message: the baseline
 * measured no spread); 2 with a message when it is unreadable or lacks its columns. */
int spread_read(const char *dir, struct spread **sp);
/* Starts (again) a join of the baseline's tasks, in ascending task id, onto the columns names[0..n-1]. 0, or
 * 2 with a message. */
int spread_join_start(struct spread *sp, const char *const *names, int n);
/* The spread of the task whose task_id is id (ids asked for in ascending order): how many perturbed runs
 * ended with another status (*flips, 0 when not measured) and each joined column's spread (v[0..n-1], NAN
 * when not measured: no row, no column, or no perturbed run that succeeded). 0; 2 with a message when the
 * ids asked for, or spread.csv's, are not ascending, or spread.csv is corrupt. */
int spread_join(struct spread *sp, const char *id, int *flips, double *v);
void spread_destroy(struct spread **sp);

#endif
